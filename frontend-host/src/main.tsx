import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { App, loadCreationFlow } from './App';
import { store } from './store/store';
import './styles/global.css';

// Start fetching the landing screen's chunk now rather than after the first render.
if (window.location.pathname === '/') void loadCreationFlow();

const app = (
  <StrictMode>
    <Provider store={store}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </Provider>
  </StrictMode>
);
const root = document.getElementById('root')!;
// `/` arrives prerendered (scripts/prerender-landing.mjs): hydrate it. Any other view of `/` (a wizard step,
// the success screen) renders from scratch over it.
if (root.firstElementChild && window.location.pathname === '/' && !window.location.search) hydrateRoot(root, app);
else {
  root.replaceChildren();
  createRoot(root).render(app);
}
