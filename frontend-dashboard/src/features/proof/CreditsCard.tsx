import type { AgentCredits, CreditMethod } from '@app/contracts';
import { Badge, EmptyState, Panel, Spinner } from '@app/ui';
// The zod-free door: the dashboard keeps zod out of its bundle (see store/api.ts).
import { formatCents } from '@app/contracts/rules';
import { useGetCreditsQuery, useSetCreditPreferenceMutation } from './proofApi';
import styles from './Proof.module.css';

const METHODS: { value: CreditMethod; label: string }[] = [
  { value: 'refund', label: 'Refund to my card' },
  { value: 'account_credit', label: 'Account credit for my next campaign' },
];

const money = (cents: number) => formatCents(cents);
const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

function entries(data: AgentCredits) {
  const refunds = data.credits
    .filter((c) => c.method === 'refund')
    .map((c) => ({ key: `r${c.id}`, at: c.createdAt, text: `Refund for campaign #${c.campaignId}`, amount: money(c.amountCents), status: c.status }));
  const ledger = data.ledger.map((l) => ({
    key: `l${l.id}`,
    at: l.createdAt,
    text: l.kind === 'credit' ? `Credit for campaign #${l.campaignId}` : `Used at checkout for campaign #${l.campaignId}`,
    amount: `${l.amountCents < 0 ? '−' : '+'}${money(Math.abs(l.amountCents))}`,
    status: null as null | string,
  }));
  return [...refunds, ...ledger].sort((a, b) => b.at.localeCompare(a.at));
}

/** Credits (issue 26): the account-credit balance, the refund-or-credit choice, and every refund and ledger entry. */
export function CreditsCard({ agentId, toast }: { agentId: string; toast: (t: { title: string; description: string; tone: 'success' | 'danger' }) => void }) {
  const { data, isLoading, isError } = useGetCreditsQuery(agentId);
  const [setPreference, state] = useSetCreditPreferenceMutation();
  if (isLoading) return <Spinner label="Loading credits..." />;
  if (isError || !data) return null;
  const list = entries(data);
  async function choose(method: CreditMethod) {
    try {
      await setPreference({ id: agentId, method }).unwrap();
      toast({ title: 'Saved', description: method === 'refund' ? 'Shortfalls will be refunded to your card.' : 'Shortfalls will become account credit.', tone: 'success' });
    } catch {
      toast({ title: 'Not saved', description: 'Your choice could not be saved. Please try again.', tone: 'danger' });
    }
  }
  return (
    <Panel title="Credits" aria-label="Credits" className={styles.card}>
      <p className={styles.muted}>Account credit balance</p>
      <p className={styles.balance} data-testid="credit-balance">
        {money(data.balanceCents)}
      </p>
      <p className={styles.muted}>Every impression we guarantee is checked when a campaign ends; a shortfall is credited to the cent.</p>
      <fieldset className={styles.choice} disabled={state.isLoading}>
        <legend>When a campaign falls short</legend>
        {METHODS.map((m) => (
          <label key={m.value}>
            <input type="radio" name="credit-method" value={m.value} checked={data.preference === m.value} onChange={() => void choose(m.value)} /> {m.label}
          </label>
        ))}
      </fieldset>
      {list.length === 0 ? (
        <EmptyState title="No credits yet" />
      ) : (
        <ul className={styles.list} aria-label="Refunds and credits">
          {list.map((e) => (
            <li key={e.key} className={styles.row}>
              <span>
                {e.text} <span className={styles.muted}>· {day(e.at)}</span>
              </span>
              <span>
                {e.amount} {e.status && <Badge tone={e.status === 'succeeded' ? 'success' : e.status === 'failed' ? 'danger' : 'warning'}>{e.status === 'succeeded' ? 'Refunded' : e.status === 'pending' ? 'Pending' : 'Failed'}</Badge>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
