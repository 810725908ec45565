import { H1 } from '@blueprintjs/core';
import { useAppSelector } from '../../store/hooks';
import { AdminLoginGate } from '../admin-auth/AdminLoginGate';
import { AgentsArea } from '../agents-table/AgentsArea';
import { FailedWorkPanel } from '../failed-work/FailedWorkPanel';
import styles from './AdminDashboardPage.module.css';

export function AdminDashboardPage() {
  const unlocked = useAppSelector((state) => state.adminSession.unlocked);
  if (!unlocked) return <AdminLoginGate />;
  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <H1 className={styles.title}>Admin Dashboard</H1>
      </header>
      <AgentsArea />
      <FailedWorkPanel />
    </main>
  );
}
