import { useEffect } from 'react';
import { TOAST_REMOVE_DELAY_MS, toastDismissed, toastRemoved, type ToastItem } from '../shared/toastSlice';
import { useListingDispatch, useListingSelector } from './hooks';

function ToastView({ toast }: { toast: ToastItem }) {
  const dispatch = useListingDispatch();
  const { id, open, duration } = toast;
  useEffect(() => {
    const timer = window.setTimeout(() => dispatch(open ? toastDismissed(id) : toastRemoved(id)), open ? duration : TOAST_REMOVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [dispatch, id, open, duration]);
  if (!open) return null;
  const destructive = toast.variant === 'destructive';
  return (
    <li className={`lp-toast${destructive ? ' lp-toast-destructive' : ''}`} role={destructive ? 'alert' : 'status'} aria-atomic="true">
      <div>
        {toast.title && <div className="lp-toast-title">{toast.title}</div>}
        {toast.description && <div>{toast.description}</div>}
      </div>
      <button type="button" className="lp-icon-button" aria-label="Close" onClick={() => dispatch(toastDismissed(id))}>
        ×
      </button>
    </li>
  );
}

/** Spec §2 toast area: title, description, close; one at a time (the host's toast slice). */
export function Toasts() {
  const toasts = useListingSelector((s) => s.toast.toasts);
  return (
    <section aria-label="Notifications" className="lp-toasts">
      <ol>
        {toasts.map((t) => (
          <ToastView key={t.id} toast={t} />
        ))}
      </ol>
    </section>
  );
}
