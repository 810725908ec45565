import { combineSlices, configureStore, createAction, createDynamicMiddleware } from '@reduxjs/toolkit';
import { persistWizardState, wizardReducer } from '../features/creation-flow/draft/wizardSlice';
import { toastReducer } from '../shared/toastSlice';
import type { ApiExtra } from '@app/contracts/api-client';

/**
 * Slices added when their code first loads. RTK Query's `api` comes with the first screen that
 * fetches (store/api.ts injects itself), so the landing page does not download RTK Query. Each
 * such slice adds itself to this interface where it is declared (module augmentation), so this
 * file never imports it back.
 */
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices({ toast: toastReducer, wizard: wizardReducer }).withLazyLoadedSlices<LazyLoadedSlices>();

/** Middleware added at run time, with the slice that needs it (RTK Query's). */
export const dynamicMiddleware = createDynamicMiddleware();

/** Dispatched after an injection, so the new slice has its initial state before anything reads it. */
export const sliceInjected = createAction<string>('store/sliceInjected');

export function makeStore() {
  const extra: ApiExtra = { apiBaseUrl: '' };
  return configureStore({
    reducer: rootReducer,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({ thunk: { extraArgument: extra } }).concat(dynamicMiddleware.middleware),
  });
}

export const store = makeStore();
persistWizardState(store);

export type AppStore = ReturnType<typeof makeStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
