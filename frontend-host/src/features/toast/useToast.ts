import { nanoid } from '@reduxjs/toolkit';
import { useCallback } from 'react';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { toastAdded, toastDismissed, toastUpdated, type ToastInput } from '../../shared/toastSlice';

export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface ToastOptions extends Omit<ToastInput, 'actionLabel'> {
  action?: ToastAction;
}

/** Action callbacks by toast id: functions stay out of the Redux state. */
const actionCallbacks = new Map<string, () => void>();

export function runToastAction(id: string): void {
  actionCallbacks.get(id)?.();
}

export function forgetToastAction(id?: string): void {
  if (id === undefined) actionCallbacks.clear();
  else actionCallbacks.delete(id);
}

export function useToast() {
  const dispatch = useAppDispatch();
  const toasts = useAppSelector((state) => state.toast.toasts);

  const toast = useCallback(
    ({ action, ...input }: ToastOptions) => {
      const id = nanoid();
      if (action) actionCallbacks.set(id, action.onClick);
      dispatch(toastAdded({ ...input, id, actionLabel: action?.label }));
      return {
        id,
        dismiss: () => dispatch(toastDismissed(id)),
        update: (changes: Omit<ToastInput, 'actionLabel'>) => dispatch(toastUpdated({ id, ...changes })),
      };
    },
    [dispatch],
  );

  const dismiss = useCallback((id?: string) => dispatch(toastDismissed(id)), [dispatch]);

  return { toasts, toast, dismiss };
}
