import { configureStore } from '@reduxjs/toolkit';
import { adminSessionReducer } from '../features/admin-auth/adminSessionSlice';
import { api, type ApiExtra } from './api';

export function makeStore(apiBaseUrl: string) {
  const extra: ApiExtra = { apiBaseUrl };
  return configureStore({
    reducer: {
      [api.reducerPath]: api.reducer,
      adminSession: adminSessionReducer,
    },
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({ thunk: { extraArgument: extra } }).concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];

const stores = new Map<string, AppStore>();

/**
 * One store per API base for the page's lifetime. The admin unlock lives in it, so it is
 * "kept in page memory only" (spec): it survives in-app navigation, not a reload.
 */
export function getStore(apiBaseUrl: string): AppStore {
  let store = stores.get(apiBaseUrl);
  if (!store) {
    store = makeStore(apiBaseUrl);
    stores.set(apiBaseUrl, store);
  }
  return store;
}
