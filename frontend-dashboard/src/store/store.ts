import { configureStore } from '@reduxjs/toolkit';
import { api, type ApiExtra } from './api';

export function makeStore(apiBaseUrl: string) {
  const extra: ApiExtra = { apiBaseUrl };
  return configureStore({
    reducer: {
      [api.reducerPath]: api.reducer,
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
 * One store per API base for the page's lifetime: the remote keeps its cached data when the
 * host unmounts and remounts it (navigating away from /dashboard and back).
 */
export function getStore(apiBaseUrl: string): AppStore {
  let store = stores.get(apiBaseUrl);
  if (!store) {
    store = makeStore(apiBaseUrl);
    stores.set(apiBaseUrl, store);
  }
  return store;
}
