import { useId, useState, type FormEvent } from 'react';
import { agentOptionLabel, type Agent } from '../agents/agentsApi';
import styles from './AgentSelection.module.css';

export function AgentSelection({ agents, onSelect }: { agents: Agent[]; onSelect: (agentId: string) => void }) {
  const [agentId, setAgentId] = useState('');
  const [warning, setWarning] = useState<string | null>(null);
  const selectId = useId();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!agentId) {
      setWarning('Please select an agent');
      return;
    }
    onSelect(agentId);
  }

  return (
    <section className={styles.card} aria-labelledby={`${selectId}-title`}>
      <h2 id={`${selectId}-title`} className={styles.title}>
        Select Agent
      </h2>
      <p className={styles.hint}>Choose an agent to view their campaigns, leads and results.</p>
      <form className={styles.form} onSubmit={handleSubmit} noValidate>
        <label htmlFor={selectId} className={styles.label}>
          Select Agent
        </label>
        <select
          id={selectId}
          className={styles.select}
          value={agentId}
          aria-invalid={warning ? true : undefined}
          aria-describedby={warning ? `${selectId}-warning` : undefined}
          onChange={(event) => {
            setAgentId(event.target.value);
            setWarning(null);
          }}
        >
          <option value="">Choose an agent...</option>
          {agents.map((agent) => (
            <option key={agent.id} value={String(agent.id)}>
              {agentOptionLabel(agent)}
            </option>
          ))}
        </select>
        {warning && (
          <p id={`${selectId}-warning`} className={styles.warning} role="alert">
            {warning}
          </p>
        )}
        {agents.length === 0 && <p className={styles.hint}>No agents are available for this session yet.</p>}
        <button type="submit" className={styles.button}>
          View Dashboard
        </button>
      </form>
    </section>
  );
}
