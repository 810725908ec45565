import type { ReactNode } from 'react';
import { ThemeToggle } from '../theme/ThemeToggle';
import { useDashboardTheme } from '../theme/useDashboardTheme';
import styles from './DashboardLayout.module.css';

/** The dashboard frame: 'Agent Dashboard' header, optional welcome line, theme toggle. */
export function DashboardLayout({ welcome, children }: { welcome?: ReactNode; children: ReactNode }) {
  const [theme, toggleTheme] = useDashboardTheme();
  return (
    <div className={styles.root} data-theme={theme}>
      <header className={styles.header}>
        <div className={styles.headerInner}>
          <div>
            <h1 className={styles.title}>Agent Dashboard</h1>
            {welcome && <p className={styles.welcome}>{welcome}</p>}
          </div>
          <ThemeToggle theme={theme} onToggle={toggleTheme} />
        </div>
      </header>
      <main className={styles.main}>{children}</main>
    </div>
  );
}
