import type { RemoteToast } from '@app/contracts';
import { OverlayToaster, type ToastProps } from '@blueprintjs/core';
import { createContext, useCallback, useContext, useMemo, useRef, type ReactNode } from 'react';
import styles from './AdminToaster.module.css';

interface AdminToast {
  title: string;
  description?: string;
  intent?: ToastProps['intent'];
}

const ToastContext = createContext<((toast: AdminToast) => void) | null>(null);

const TONES: Partial<Record<NonNullable<AdminToast['intent']>, RemoteToast['tone']>> = { success: 'success', warning: 'warning', danger: 'danger' };

/**
 * The admin app's toasts, with a title and a description. Mounted in the shell they show in the shell's one toast
 * area (`host`); started on its own, the admin shows them in a Blueprint OverlayToaster.
 */
export function AdminToasterProvider({ children, host }: { children: ReactNode; host?: (toast: RemoteToast) => void }) {
  const toaster = useRef<OverlayToaster>(null);
  const show = useCallback(({ title, description, intent }: AdminToast) => {
    if (host) return host({ title, description, tone: (intent && TONES[intent]) ?? 'info' });
    toaster.current?.show({
      intent,
      timeout: 5000,
      message: (
        <div className={styles.toast}>
          <strong className={styles.title}>{title}</strong>
          {description && <span className={styles.description}>{description}</span>}
        </div>
      ),
    });
  }, [host]);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      {!host && <OverlayToaster ref={toaster} position="top" maxToasts={1} />}
    </ToastContext.Provider>
  );
}

export function useAdminToast(): (toast: AdminToast) => void {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useAdminToast must be used inside <AdminToasterProvider>');
  return show;
}
