import { StrictMode, useEffect } from 'react';
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
// `/` arrives prerendered (scripts/prerender-landing.mjs) and this entry runs on the visitor's first
// interaction, or after load on desktop (frontend-host/src/landing/landing-boot.js): hydrate it. Any other
// view of `/` (a wizard step, the success screen) renders from scratch over it.
if (root.firstElementChild && window.location.pathname === '/' && !window.location.search) {
  // Hydrate once the landing's code is here. Hydrating earlier leaves the landing waiting on that chunk while
  // React already holds its events, and a tap in that window could be lost; until hydrateRoot runs, the
  // prerendered buttons are plain forms that work without React (/?start=…).
  // Once hydrated, landing-boot.js replays a tap it held while the app was starting.
  const Live = () => {
    useEffect(() => void window.dispatchEvent(new Event('app-live')), []);
    return null;
  };
  const hydrate = () =>
    hydrateRoot(
      root,
      <>
        {app}
        <Live />
      </>,
    );
  void loadCreationFlow().then(hydrate, hydrate);
} else {
  root.replaceChildren();
  createRoot(root).render(app);
}
