import type { ReactNode } from 'react';
import styles from './PageLayout.module.css';

/**
 * A page of its own (checkout, the campaign page, the legal texts): the app's header, then one `main`
 * with the page's content. `glow` tints the top of the page; `mainClassName` sets the content's width.
 */
export function PageLayout({
  header,
  glow = 'none',
  mainClassName,
  children,
}: {
  header: ReactNode;
  glow?: 'primary' | 'success' | 'none';
  mainClassName?: string;
  children: ReactNode;
}) {
  return (
    <div className={styles.screen} data-glow={glow}>
      {header}
      <main className={mainClassName}>{children}</main>
    </div>
  );
}
