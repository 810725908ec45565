import type { ReactNode } from 'react';
import styles from './Alert.module.css';

export type AlertTone = 'danger' | 'info' | 'success' | 'warning';

/** An inline notice. Danger alerts are announced (role="alert"); the others are plain status. */
export function Alert({
  tone = 'danger',
  title,
  children,
  className,
  testId,
  role,
}: {
  tone?: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
  testId?: string;
  /** Defaults to alert for danger, status otherwise. */
  role?: 'alert' | 'status';
}) {
  return (
    <div
      className={className ? `${styles.alert} ${className}` : styles.alert}
      data-tone={tone}
      role={role ?? (tone === 'danger' ? 'alert' : 'status')}
      data-testid={testId}
    >
      <div className={styles.body}>
        {title && <p className={styles.title}>{title}</p>}
        {children && <div className={styles.text}>{children}</div>}
      </div>
    </div>
  );
}
