import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import App from './App';
import { standaloneBasePath } from './standalone';

// Standalone (development): API calls go to VITE_API_URL, or to this origin ('' — the dev
// server proxies /api to the backend).
const apiBaseUrl = import.meta.env.VITE_API_URL ?? '';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter basename={standaloneBasePath()}>
      <Routes>
        {/* /login belongs to the host; standalone there is nothing to show but a pointer to it. */}
        <Route path="/login" element={<p style={{ padding: 24 }}>Log in through the main app, then come back.</p>} />
        <Route path="/*" element={<App basePath="/" apiBaseUrl={apiBaseUrl} />} />
      </Routes>
    </BrowserRouter>
  </StrictMode>,
);
