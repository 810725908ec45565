import { useEffect, type ReactNode } from 'react';
import styles from './PageShell.module.css';

/** A plain page frame with its heading; used by screens that later issues fill in. */
export function PageShell({ title, children }: { title: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <main className={styles.page}>
      <h1 className={styles.title}>{title}</h1>
      {children}
    </main>
  );
}

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Listing Ads`;
  }, [title]);
}
