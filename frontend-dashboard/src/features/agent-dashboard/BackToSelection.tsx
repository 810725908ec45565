import { Link } from 'react-router-dom';
import styles from './AgentDashboard.module.css';

/** Back to the agent picker: same path, no ?agent=, and no auto-select of the logged-in agent. */
export function BackToSelection() {
  return (
    <Link to={{ search: '' }} state={{ chooseAgent: true }} className={styles.back}>
      ← Back to agent selection
    </Link>
  );
}
