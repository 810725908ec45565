import type { AgentReport } from '@app/contracts';
import { Badge, Button, EmptyState, Panel, Spinner } from '@app/ui';
import { formatCents } from '@app/contracts/rules';
import { useCreateSellerLinkMutation, useGetReportsQuery, useRevokeSellerLinkMutation } from './proofApi';
import styles from './Proof.module.css';

type Toast = (t: { title: string; description: string; tone: 'success' | 'danger' }) => void;
const n = (v: number) => v.toLocaleString('en-US');

function Figures({ r }: { r: AgentReport }) {
  const f = r.figures;
  return (
    <p className={styles.figures}>
      <span>
        <strong>{n(f.delivered)}</strong> of {n(f.promised)} impressions
      </span>
      <span>{n(f.reach)} reached</span>
      <span>{n(f.clicks)} clicks</span>
      <span>{f.ctrPercent.toFixed(2)}% CTR</span>
      <span>{f.frequency.toFixed(2)} frequency</span>
      <span>{n(f.listingPageViews)} page views</span>
      <span>{n(f.leads)} leads</span>
    </p>
  );
}

function Report({ agentId, r, toast }: { agentId: string; r: AgentReport; toast: Toast }) {
  const [revoke, revoking] = useRevokeSellerLinkMutation();
  const [create, creating] = useCreateSellerLinkMutation();
  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Link copied', description: 'Send it to your seller: it opens without a login.', tone: 'success' });
    } catch {
      toast({ title: 'Copy failed', description: 'Select the link and copy it yourself.', tone: 'danger' });
    }
  }
  async function act(what: 'revoke' | 'create') {
    try {
      await (what === 'revoke' ? revoke : create)({ id: agentId, campaignId: r.campaignId }).unwrap();
      toast(what === 'revoke' ? { title: 'Link turned off', description: 'The seller link no longer opens.', tone: 'success' } : { title: 'New link ready', description: 'Copy it and send it to your seller.', tone: 'success' });
    } catch {
      toast({ title: 'Something went wrong', description: 'Please try again.', tone: 'danger' });
    }
  }
  return (
    <li className={styles.report} aria-label={`Report for ${r.listingAddress ?? r.headline ?? `campaign #${r.campaignId}`}`}>
      <div className={styles.row}>
        <strong>{r.listingAddress ?? r.headline ?? `Campaign #${r.campaignId}`}</strong>
        <Badge tone={r.status === 'final' ? 'success' : 'primary'}>{r.status === 'final' ? 'Final report' : 'Running'}</Badge>
      </div>
      <Figures r={r} />
      {r.credit && (
        <p className={styles.muted}>
          {r.credit.method === 'refund' ? 'Refund' : 'Account credit'} of {formatCents(r.credit.amountCents)} for the impressions not delivered
        </p>
      )}
      {r.status === 'final' &&
        (r.sellerUrl ? (
          <div className={styles.link}>
            <span className={styles.linkText} data-testid="seller-link">
              {r.sellerUrl}
            </span>
            <Button variant="secondary" onClick={() => void copy(r.sellerUrl!)}>
              Copy seller link
            </Button>
            <Button variant="ghost" busy={revoking.isLoading} onClick={() => void act('revoke')}>
              Revoke
            </Button>
          </div>
        ) : (
          <div className={styles.link}>
            <span className={styles.muted}>The seller link is turned off.</span>
            <Button variant="secondary" busy={creating.isLoading} onClick={() => void act('create')}>
              New seller link
            </Button>
          </div>
        ))}
      <div className={styles.actions}>
        <a href={r.pdfUrl} download>
          Download PDF
        </a>
      </div>
    </li>
  );
}

/** Reports (issue 26): each campaign's figures, its PDF, and for final reports the seller link to copy or revoke. */
export function ReportsCard({ agentId, toast }: { agentId: string; toast: Toast }) {
  const { data, isLoading, isError } = useGetReportsQuery(agentId);
  if (isLoading) return <Spinner label="Loading reports..." />;
  if (isError || !data) return null;
  return (
    <Panel title="Reports" aria-label="Reports" className={styles.card}>
      {data.length === 0 ? (
        <EmptyState title="No reports yet" />
      ) : (
        <ul className={styles.list}>
          {data.map((r) => (
            <Report key={r.campaignId} agentId={agentId} r={r} toast={toast} />
          ))}
        </ul>
      )}
    </Panel>
  );
}
