import '@app/ui/tokens.css';
import type { RemoteAppComponent, RemoteAppProps } from '@app/contracts';
import { Provider } from 'react-redux';
import { Navigate, Route, Routes } from 'react-router-dom';
import { DashboardPage } from './features/dashboard/DashboardPage';
import { HelpAssistantProvider } from './features/help';
import { HostToastContext } from './features/card-toast';
import { authApi } from './features/auth/authApi';
import { getStore, type AppStore } from './store/store';

/** The host already asked who is logged in on this load: its answer fills the cache, so the remote does not ask again. */
function seeded(store: AppStore, me: AuthUserAnswer): AppStore {
  if (me !== undefined && authApi.endpoints.getMe.select()(store.getState()).status === 'uninitialized') {
    void store.dispatch(authApi.util.upsertQueryData('getMe', undefined, me));
  }
  return store;
}
type AuthUserAnswer = RemoteAppProps['me'];

/**
 * The dashboard remote (`dashboard/App`). The host renders it inside its own router under
 * `basePath`, so routes here are relative to where it is mounted; standalone, main.tsx
 * provides the router.
 */
const App: RemoteAppComponent = ({ basePath, apiBaseUrl, me, toast }) => (
  <Provider store={seeded(getStore(apiBaseUrl), me)}>
    <HostToastContext.Provider value={toast}>
      <HelpAssistantProvider>
        <Routes>
          <Route index element={<DashboardPage />} />
          <Route path="*" element={<Navigate to={basePath} replace />} />
        </Routes>
      </HelpAssistantProvider>
    </HostToastContext.Provider>
  </Provider>
);

export default App;
