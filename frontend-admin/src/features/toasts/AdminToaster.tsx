import { OverlayToaster, type ToastProps } from '@blueprintjs/core';
import { createContext, useCallback, useContext, useMemo, useRef, type ReactNode } from 'react';
import styles from './AdminToaster.module.css';

interface AdminToast {
  title: string;
  description?: string;
  intent?: ToastProps['intent'];
}

const ToastContext = createContext<((toast: AdminToast) => void) | null>(null);

/** The admin app's toasts: a Blueprint OverlayToaster with a title and a description. */
export function AdminToasterProvider({ children }: { children: ReactNode }) {
  const toaster = useRef<OverlayToaster>(null);
  const show = useCallback(({ title, description, intent }: AdminToast) => {
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
  }, []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <OverlayToaster ref={toaster} position="top" maxToasts={1} />
    </ToastContext.Provider>
  );
}

export function useAdminToast(): (toast: AdminToast) => void {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useAdminToast must be used inside <AdminToasterProvider>');
  return show;
}
