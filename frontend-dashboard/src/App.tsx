import '@app/ui/tokens.css';
import type { RemoteAppComponent } from '@app/contracts';
import { Provider } from 'react-redux';
import { Navigate, Route, Routes } from 'react-router-dom';
import { DashboardPage } from './features/dashboard/DashboardPage';
import { HelpAssistantProvider } from './features/help';
import { getStore } from './store/store';

/**
 * The dashboard remote (`dashboard/App`). The host renders it inside its own router under
 * `basePath`, so routes here are relative to where it is mounted; standalone, main.tsx
 * provides the router.
 */
const App: RemoteAppComponent = ({ basePath, apiBaseUrl }) => (
  <Provider store={getStore(apiBaseUrl)}>
    <HelpAssistantProvider>
      <Routes>
        <Route index element={<DashboardPage />} />
        <Route path="*" element={<Navigate to={basePath} replace />} />
      </Routes>
    </HelpAssistantProvider>
  </Provider>
);

export default App;
