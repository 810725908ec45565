import { Alert, type AlertTone } from '@app/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import styles from './LeadNotifications.module.css';

export interface CardToast {
  title: string;
  description?: string;
  tone: AlertTone;
}

/** How long a toast stays open. */
const TOAST_DURATION_MS = 5000;

/**
 * The card's toasts (spec §8, one visible at a time, §9). The remote has no shared toaster yet: when
 * the dashboard gets one, `show` is the one line to point at it.
 */
export function useCardToast() {
  const [toast, setToast] = useState<(CardToast & { id: number }) | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const show = useCallback((next: CardToast) => {
    clearTimeout(timer.current);
    setToast({ ...next, id: Date.now() });
    timer.current = setTimeout(() => setToast(null), TOAST_DURATION_MS);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  const view = toast ? (
    <div className={styles.toast} key={toast.id}>
      <Alert tone={toast.tone} title={toast.title} role={toast.tone === 'danger' ? 'alert' : 'status'}>
        {toast.description}
      </Alert>
      <button type="button" className={styles.toastClose} aria-label="Close" onClick={() => setToast(null)}>
        ×
      </button>
    </div>
  ) : null;
  return { show, view };
}
