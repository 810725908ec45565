import '@blueprintjs/core/lib/css/blueprint.css';
import '@app/ui/tokens.css';
// Blueprint stays the admin's kit, themed with our tokens.
import '@app/ui/blueprint-theme.css';
import type { RemoteAppComponent } from '@app/contracts';
import { BlueprintProvider } from '@blueprintjs/core';
import { Provider } from 'react-redux';
import { Navigate, Route, Routes } from 'react-router-dom';
import { AdminDashboardPage } from './features/admin-dashboard/AdminDashboardPage';
import { ApiBaseContext } from './store/apiBase';
import { AdminToasterProvider } from './features/toasts/AdminToaster';
import { getStore } from './store/store';
import styles from './App.module.css';

/**
 * The admin remote (`admin/App`). The host renders it inside its own router under `basePath`,
 * so routes here are relative to where it is mounted; standalone, main.tsx provides the router.
 */
const App: RemoteAppComponent = ({ basePath, apiBaseUrl, toast }) => (
  <Provider store={getStore(apiBaseUrl)}>
    <BlueprintProvider>
      <ApiBaseContext.Provider value={apiBaseUrl}>
      <AdminToasterProvider host={toast}>
        <div className={styles.root}>
          <Routes>
            <Route index element={<AdminDashboardPage />} />
            <Route path="*" element={<Navigate to={basePath} replace />} />
          </Routes>
        </div>
      </AdminToasterProvider>
      </ApiBaseContext.Provider>
    </BlueprintProvider>
  </Provider>
);

export default App;
