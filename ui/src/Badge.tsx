import type { ReactNode } from 'react';
import styles from './Badge.module.css';

export type BadgeTone = 'neutral' | 'primary' | 'success' | 'danger' | 'warning';

/** A short status label (Active, Sold, Just Listed ad...). */
export function Badge({ tone = 'neutral', className, children }: { tone?: BadgeTone; className?: string; children: ReactNode }) {
  return (
    <span className={className ? `${styles.badge} ${className}` : styles.badge} data-tone={tone}>
      {children}
    </span>
  );
}
