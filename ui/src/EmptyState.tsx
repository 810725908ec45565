import type { ReactNode } from 'react';
import styles from './EmptyState.module.css';

/** A centred message with an optional icon and actions: not-found, empty and other terminal states of a page. */
export function EmptyState({
  title,
  children,
  icon,
  tone = 'neutral',
  actions,
}: {
  title: string;
  children?: ReactNode;
  icon?: ReactNode;
  tone?: 'neutral' | 'warning' | 'success';
  actions?: ReactNode;
}) {
  return (
    <section className={styles.panel} data-tone={tone}>
      {icon && (
        <div className={styles.icon} aria-hidden="true">
          {icon}
        </div>
      )}
      <h1 className={styles.title}>{title}</h1>
      {children && <div className={styles.text}>{children}</div>}
      {actions && <div className={styles.actions}>{actions}</div>}
    </section>
  );
}
