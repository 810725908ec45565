import type { DashboardTheme } from './useDashboardTheme';
import styles from './ThemeToggle.module.css';

export function ThemeToggle({ theme, onToggle }: { theme: DashboardTheme; onToggle: () => void }) {
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button type="button" className={styles.toggle} onClick={onToggle} aria-label={`Switch to ${next} theme`} title={`Switch to ${next} theme`}>
      <span aria-hidden="true" className={styles.icon}>
        {theme === 'dark' ? '☀' : '☾'}
      </span>
      <span className={styles.text}>{theme === 'dark' ? 'Light' : 'Dark'}</span>
    </button>
  );
}
