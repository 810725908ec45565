import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { buttonStyles as buttons, Spinner } from '@app/ui';
import type { CardSetup, SavedCard } from '@app/contracts';
import { PageShell } from '../../components/PageShell';
import { isApiError } from '../../store/api';
import { LocalPayment } from '../checkout/LocalPayment';
import styles from './Autopilot.module.css';
import { useConfirmCardSetupMutation, useGetSavedCardQuery, useStartCardSetupMutation } from './autopilotApi';

const StripeCardSetup = lazy(() => import('./StripeCardSetup'));

const AUTHORIZATION =
  'By saving this card, you authorize Listing Ads to charge it for each autopilot ad you do not skip, at the budget you chose, when the ad launches. Nothing is charged now, and nothing during an ad’s veto window.';

const label = (card: SavedCard) => `${card.brand[0].toUpperCase()}${card.brand.slice(1)} •••• ${card.last4}`;

/** `/autopilot-card?agent=…`: save the card autopilot charges (a SetupIntent with usage off_session). The agent's own session. */
export default function SaveCardPage() {
  const [params] = useSearchParams();
  const agentId = Number(params.get('agent'));
  const valid = Number.isInteger(agentId) && agentId > 0;
  const current = useGetSavedCardQuery(agentId, { skip: !valid });
  const [start, started] = useStartCardSetupMutation();
  const [confirm, confirmed] = useConfirmCardSetupMutation();
  const [setup, setSetup] = useState<CardSetup | null>(null);
  const once = useRef(false);

  useEffect(() => {
    if (!valid || once.current) return;
    once.current = true;
    void start(agentId).then((r) => r.data && setSetup(r.data));
  }, [agentId, start, valid]);

  const dashboard = `/dashboard?agent=${agentId}`;
  if (!valid) return <PageShell title="Add a card">This link is incomplete.</PageShell>;
  if (confirmed.data?.card) {
    return (
      <PageShell title="Card saved">
        <p className={styles.text} role="status">
          <span className={styles.saved} data-testid="saved-card">{label(confirmed.data.card)}</span> is saved. Autopilot charges it when your ads launch.
        </p>
        <Link className={buttons.primary} to={dashboard}>
          Back to Dashboard
        </Link>
      </PageShell>
    );
  }
  const failed = started.error ?? current.error ?? confirmed.error;
  if (failed) {
    return (
      <PageShell title="Add a card">
        <p className={styles.text} role="alert">
          {(isApiError(failed) && failed.serverMessage) || 'Something went wrong. Please try again.'}
        </p>
        <Link className={buttons.primary} to={dashboard}>
          Back to Dashboard
        </Link>
      </PageShell>
    );
  }
  const saved = () => setup && void confirm({ agentId, setupIntentId: setup.setupIntentId });
  return (
    <PageShell title="Add a card">
      <div className={styles.card}>
        {current.data?.card && (
          <p className={styles.text}>
            Saved now: <span className={styles.saved}>{label(current.data.card)}</span>. A new card replaces it.
          </p>
        )}
        <p className={styles.text}>Autopilot charges this card when an ad launches, after its veto window. You can skip any ad before then.</p>
        {!setup || confirmed.isLoading ? (
          <Spinner label="Loading..." />
        ) : setup.provider === 'stripe' && setup.publishableKey ? (
          <Suspense fallback={<Spinner label="Loading..." />}>
            <StripeCardSetup clientSecret={setup.clientSecret} publishableKey={setup.publishableKey} returnUrl={window.location.href} authorization={AUTHORIZATION} onSaved={saved} />
          </Suspense>
        ) : (
          <LocalPayment
            intent={{ clientSecret: setup.clientSecret, provider: 'local', amountCents: 1, creditAppliedCents: 0, publishableKey: null }}
            amountLabel="a card check"
            submitLabel="Save card"
            authorization={AUTHORIZATION}
            onSucceeded={saved}
            onAlreadyPaid={saved}
          />
        )}
        <p className={styles.muted}>
          <Link to={dashboard}>Back to Dashboard</Link>
        </p>
      </div>
    </PageShell>
  );
}
