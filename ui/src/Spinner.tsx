import styles from './Spinner.module.css';

/** Progress for a long wait, with the spec's label ("Loading...", "Searching..."). */
export function Spinner({ label = 'Loading...', fullPage = false }: { label?: string; fullPage?: boolean }) {
  return (
    <div className={fullPage ? `${styles.wrap} ${styles.fullPage}` : styles.wrap} role="status" aria-live="polite">
      <span className={styles.spinner} aria-hidden="true" />
      <span className={styles.label}>{label}</span>
    </div>
  );
}
