import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

// shared/ holds what both of the host's entries use: the app (main.tsx, its Toaster and useToast in
// features/toast/) and the public listing page (listing-page/entry-client.tsx, its Toasts). Neither entry
// reaches into the other (lint:deps: listing-page-stands-alone).

/** Spec §9: one toast visible at a time; a dismissed toast is removed after 1,000,000 ms. */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastItem {
  id: string;
  title?: string;
  description?: string;
  variant: ToastVariant;
  /** Label of the optional action button; its callback lives outside the store (not serializable). */
  actionLabel?: string;
  /** How long the toast stays open, in ms. */
  duration: number;
  open: boolean;
}

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: ToastVariant;
  actionLabel?: string;
  duration?: number;
}

interface ToastState {
  toasts: ToastItem[];
}

const initialState: ToastState = { toasts: [] };

const toastSlice = createSlice({
  name: 'toast',
  initialState,
  reducers: {
    toastAdded: {
      reducer(state, action: PayloadAction<ToastItem>) {
        state.toasts = [action.payload, ...state.toasts].slice(0, TOAST_LIMIT);
      },
      prepare(input: ToastInput & { id?: string }) {
        return {
          payload: {
            id: input.id ?? nanoid(),
            title: input.title,
            description: input.description,
            variant: input.variant ?? 'default',
            actionLabel: input.actionLabel,
            duration: input.duration ?? TOAST_DURATION_MS,
            open: true,
          } satisfies ToastItem,
        };
      },
    },
    toastUpdated(state, action: PayloadAction<{ id: string } & Partial<Omit<ToastItem, 'id'>>>) {
      const toast = state.toasts.find((t) => t.id === action.payload.id);
      if (toast) Object.assign(toast, action.payload);
    },
    /** Closes one toast, or all of them when no id is given. */
    toastDismissed(state, action: PayloadAction<string | undefined>) {
      for (const toast of state.toasts) {
        if (action.payload === undefined || toast.id === action.payload) toast.open = false;
      }
    },
    toastRemoved(state, action: PayloadAction<string | undefined>) {
      state.toasts =
        action.payload === undefined ? [] : state.toasts.filter((t) => t.id !== action.payload);
    },
  },
});

export const { toastAdded, toastUpdated, toastDismissed, toastRemoved } = toastSlice.actions;
export const toastReducer = toastSlice.reducer;
