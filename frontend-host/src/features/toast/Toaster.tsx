import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import styles from './toast.module.css';
import { TOAST_REMOVE_DELAY_MS, toastDismissed, toastRemoved, type ToastItem } from '../../shared/toastSlice';
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

  // A tap on the toast, or a swipe of it (any direction), dismisses it; its buttons keep their own job.
  const drag = useRef<{ x: number; y: number; id: number } | null>(null);
  const [offset, setOffset] = useState<{ x: number; y: number } | null>(null);
  const dismiss = () => dispatch(toastDismissed(id));
  const fromButton = (event: PointerEvent) => !!(event.target as HTMLElement).closest('button');
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (fromButton(event)) return;
    drag.current = { x: event.clientX, y: event.clientY, id: event.pointerId };
    try {
      event.currentTarget.setPointerCapture(event.pointerId);
    } catch {
      // No active pointer (a synthetic event): the swipe is followed without capture.
    }
  };
  const onPointerMove = (event: PointerEvent) => {
    const start = drag.current;
    if (start && start.id === event.pointerId) setOffset({ x: event.clientX - start.x, y: Math.min(0, event.clientY - start.y) });
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = drag.current;
    drag.current = null;
    setOffset(null);
    if (!start || start.id !== event.pointerId) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    // A tap (hardly moved) or a swipe (far enough) dismisses; a short drag springs back.
    if (Math.hypot(dx, dy) < 8 || Math.abs(dx) > 48 || dy < -24) dismiss();
  };

  if (!open) return null;

  const destructive = toast.variant === 'destructive';
  return (
    <div
      className={`${styles.toast} ${destructive ? styles.destructive : ''}`}
      role={destructive ? 'alert' : 'status'}
      aria-atomic="true"
      data-variant={toast.variant}
      data-dragging={offset ? 'true' : undefined}
      style={offset ? { transform: `translate(${offset.x}px, ${offset.y}px)`, opacity: Math.max(0.3, 1 - Math.abs(offset.x) / 200) } : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        drag.current = null;
        setOffset(null);
      }}
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
    </div>
  );
}

/**
 * The host's toast area (spec: title, description, optional action, close button), the remotes' too. Each toast is
 * a live region of its own (status, or alert when it reports a failure): a list's items may not carry those roles.
 */
export function Toaster() {
  const toasts = useAppSelector((state) => state.toast.toasts);
  return (
    <section aria-label="Notifications" className={styles.viewport}>
      <div className={styles.list}>
        {toasts.map((toast) => (
          <ToastView key={toast.id} toast={toast} />
        ))}
      </div>
    </section>
  );
}
