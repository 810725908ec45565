import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import App from './App';
import { standaloneBasePath } from './standalone';

// Standalone (development, or the admin team's own deployment): API calls go to VITE_API_URL,
// or to this origin ('' — the dev server proxies /api to the backend).
const apiBaseUrl = import.meta.env.VITE_API_URL ?? '';
const basePath = standaloneBasePath();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter basename={basePath}>
      <App basePath="/" apiBaseUrl={apiBaseUrl} />
    </BrowserRouter>
  </StrictMode>,
);
