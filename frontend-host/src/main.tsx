import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { App, loadCreationFlow } from './App';
import { store } from './store/store';
import './styles/global.css';

// Start fetching the landing screen's chunk now rather than after the first render.
if (window.location.pathname === '/') void loadCreationFlow();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </Provider>
  </StrictMode>,
);
