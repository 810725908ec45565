import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import styles from './SiteHeader.module.css';

/** The product's slim top bar (brand on the left, an optional note or action on the right). */
export function SiteHeader({ children }: { children?: ReactNode }) {
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link to="/" className={styles.brand}>
          Listing Ads
        </Link>
        {children && <div className={styles.aside}>{children}</div>}
      </div>
    </header>
  );
}
