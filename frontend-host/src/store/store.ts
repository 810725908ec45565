import { configureStore } from '@reduxjs/toolkit';
import { toastReducer } from '../features/toast/toastSlice';
import { api, type ApiExtra } from './api';

export function makeStore() {
  const extra: ApiExtra = { apiBaseUrl: '' };
  return configureStore({
    reducer: {
      [api.reducerPath]: api.reducer,
      toast: toastReducer,
    },
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({ thunk: { extraArgument: extra } }).concat(api.middleware),
  });
}

export const store = makeStore();

export type AppStore = ReturnType<typeof makeStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
