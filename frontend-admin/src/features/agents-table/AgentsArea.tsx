import { Card, H4, NonIdealState } from '@blueprintjs/core';
import styles from './AgentsArea.module.css';

/**
 * The agents area of the unlocked admin dashboard. The table (totals, filters, campaign
 * details, Login As) is built in a later issue; until then it shows the spec's empty state.
 */
export function AgentsArea() {
  return (
    <Card className={styles.card}>
      <H4 className={styles.heading}>Agents</H4>
      <NonIdealState title="No agents found" className={styles.empty} />
    </Card>
  );
}
