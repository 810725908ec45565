import { Alert } from '@app/ui';
import type { RemoteToast } from '@app/contracts';
import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import styles from './CardToast.module.css';

/** A card's toast: the shape the host's toast area takes (contracts' RemoteToast). */
export type CardToast = RemoteToast;

/** How long a toast stays open. */
const TOAST_DURATION_MS = 5000;

/** The host's toast area, when the dashboard is mounted in the shell (App's `toast` prop). */
export const HostToastContext = createContext<((toast: RemoteToast) => void) | undefined>(undefined);

/**
 * The cards' toasts (spec §8, one visible at a time, §9). Mounted in the shell, they go to the shell's one toast
 * area and `view` is null; started on its own, the dashboard shows them in the card.
 */
export function useCardToast() {
  const host = useContext(HostToastContext);
  const [toast, setToast] = useState<(CardToast & { id: number }) | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const show = useCallback(
    (next: CardToast) => {
      if (host) return host(next);
      clearTimeout(timer.current);
      setToast({ ...next, id: Date.now() });
      timer.current = setTimeout(() => setToast(null), TOAST_DURATION_MS);
    },
    [host],
  );
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
