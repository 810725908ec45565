import type { LeadShown } from '@app/contracts';
import { Badge, Button } from '@app/ui';
// The zod-free door: the contracts barrel carries zod, which the dashboard does not load.
import { LEAD_HOLD_REASON_TEXT } from '@app/contracts/rules';
import { failureMessage } from '../../store/api';
import type { CardToast } from '../card-toast';
import { useGetHeldLeadsInfiniteQuery, useReviewLeadMutation } from './dashboardApi';
import styles from './Cards.module.css';

export const HELD_FOR_REVIEW = 'Held for review';

/** Why a lead is held, as the agent reads it: "Held: the page's check was not completed; …". */
export function holdReasonText(lead: Pick<LeadShown, 'holdReasons'>): string {
  return lead.holdReasons.map((r) => LEAD_HOLD_REASON_TEXT[r]).join('; ');
}

/**
 * The leads held for review (a flood of junk leads hit one of the agent's listings: they were stored but not
 * delivered). Release delivers one, as a new lead, on every channel that is on; Discard keeps it undelivered.
 * Shown in the leads card while there are any.
 */
export function HeldLeads({ agentId, count, toast }: { agentId: string; count: number; toast: (t: CardToast) => void }) {
  const held = useGetHeldLeadsInfiniteQuery(agentId);
  const [review, { isLoading, originalArgs }] = useReviewLeadMutation();
  const leads = held.data?.pages.flatMap((p) => p.leads) ?? [];
  const total = held.data?.pages[0]?.total ?? count;

  const act = async (lead: LeadShown, action: 'release' | 'discard') => {
    try {
      await review({ agentId, leadId: lead.id, action }).unwrap();
      toast(
        action === 'release'
          ? { title: 'Lead released', description: `${lead.name}'s lead is being delivered to you like any new lead.`, tone: 'success' }
          : { title: 'Lead discarded', description: `${lead.name}'s lead will not be delivered.`, tone: 'success' },
      );
    } catch (error) {
      toast({ title: action === 'release' ? 'Release failed' : 'Discard failed', description: failureMessage(error) ?? undefined, tone: 'danger' });
    }
  };

  return (
    <section aria-label={HELD_FOR_REVIEW} className={styles.held}>
      <h3 className={styles.heldTitle}>
        {HELD_FOR_REVIEW} ({total})
      </h3>
      <p className={styles.muted}>
        One of your listings received a flood of junk leads. These came in meanwhile and looked like part of it, so they were not delivered. Release
        one to get it like any new lead; Discard it if it is junk.
      </p>
      {leads.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Contact</th>
                <th scope="col">Property</th>
                <th scope="col">Why held</th>
                <th scope="col">Review</th>
              </tr>
            </thead>
            <tbody>
              {leads.map((l) => (
                <tr key={l.id} data-testid="held-lead">
                  <td>
                    <strong>{l.name}</strong>
                    <br />
                    {l.email}
                    {l.message && <p className={styles.message}>{l.message}</p>}
                  </td>
                  <td>{l.listing.address}</td>
                  <td>
                    <Badge tone="warning">Held</Badge> {holdReasonText(l)}
                  </td>
                  <td className={styles.reviewActions}>
                    <Button
                      variant="secondary"
                      onClick={() => void act(l, 'release')}
                      disabled={isLoading}
                      busy={isLoading && originalArgs?.leadId === l.id && originalArgs.action === 'release'}
                      aria-label={`Release the lead from ${l.name}`}
                    >
                      Release
                    </Button>
                    <Button
                      variant="ghost"
                      onClick={() => void act(l, 'discard')}
                      disabled={isLoading}
                      busy={isLoading && originalArgs?.leadId === l.id && originalArgs.action === 'discard'}
                      aria-label={`Discard the lead from ${l.name}`}
                    >
                      Discard
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {held.hasNextPage && (
        <div className={styles.more}>
          <Button variant="secondary" onClick={() => void held.fetchNextPage()} disabled={held.isFetchingNextPage} busy={held.isFetchingNextPage}>
            {held.isFetchingNextPage ? 'Loading...' : `Show more held leads (${leads.length} of ${total} shown)`}
          </Button>
        </div>
      )}
    </section>
  );
}
