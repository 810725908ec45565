import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import styles from './toast.module.css';
import { TOAST_REMOVE_DELAY_MS, toastDismissed, toastRemoved, type ToastItem } from './toastSlice';
import { forgetToastAction, runToastAction } from './useToast';

function ToastView({ toast }: { toast: ToastItem }) {
  const dispatch = useAppDispatch();
  const { id, open, duration } = toast;

  useEffect(() => {
    if (!open) return;
    const timer = window.setTimeout(() => dispatch(toastDismissed(id)), duration);
    return () => window.clearTimeout(timer);
  }, [dispatch, id, open, duration]);

  useEffect(() => {
    if (open) return;
    const timer = window.setTimeout(() => {
      forgetToastAction(id);
      dispatch(toastRemoved(id));
    }, TOAST_REMOVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [dispatch, id, open]);

  if (!open) return null;

  const destructive = toast.variant === 'destructive';
  return (
    <li
      className={`${styles.toast} ${destructive ? styles.destructive : ''}`}
      role={destructive ? 'alert' : 'status'}
      aria-atomic="true"
      data-variant={toast.variant}
    >
      <div className={styles.text}>
        {toast.title && <div className={styles.title}>{toast.title}</div>}
        {toast.description && <div className={styles.description}>{toast.description}</div>}
      </div>
      {toast.actionLabel && (
        <button
          type="button"
          className={styles.action}
          onClick={() => {
            runToastAction(id);
            dispatch(toastDismissed(id));
          }}
        >
          {toast.actionLabel}
        </button>
      )}
      <button
        type="button"
        className={styles.close}
        aria-label="Close"
        onClick={() => dispatch(toastDismissed(id))}
      >
        ×
      </button>
    </li>
  );
}

/** The host's toast area (spec: title, description, optional action, close button). */
export function Toaster() {
  const toasts = useAppSelector((state) => state.toast.toasts);
  return (
    <section aria-label="Notifications" className={styles.viewport}>
      <ol className={styles.list}>
        {toasts.map((toast) => (
          <ToastView key={toast.id} toast={toast} />
        ))}
      </ol>
    </section>
  );
}
