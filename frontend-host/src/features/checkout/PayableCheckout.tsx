import { formatCents, formatUsd } from '@app/contracts';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { buttonStyles as buttons, panelStyles as panels, Spinner } from '@app/ui';
import { AlertIcon, ArrowLeftIcon } from '../../components/Icons';
import { isApiError } from '../../store/api';
import { useGetRuntimeConfigQuery } from '../runtime-config/runtimeConfigApi';
import { useToast } from '../toast/useToast';
import { successPath, type Campaign } from './campaignTypes';
import styles from './Checkout.module.css';
import { useCreatePaymentIntentMutation, type PaymentIntent } from './checkoutApi';
import { LocalPayment } from './LocalPayment';
import { OrderSummary } from './OrderSummary';
import { PAYMENT_TOASTS, paymentIntentId } from './paymentMessages';
import { TestModeNotice } from './TestModeNotice';

// Stripe Elements (and Stripe.js) are downloaded only when Stripe is the payment provider.
const StripePayment = lazy(() => import('./StripePayment'));

/**
 * A campaign that can be paid: one PaymentIntent per page view, then the running provider's payment form
 * (Stripe Elements, or the local test card form) beside the order summary.
 */
export function PayableCheckout({ campaign, refetch }: { campaign: Campaign; refetch: () => unknown }) {
  const { toast } = useToast();
  const config = useGetRuntimeConfigQuery();
  const [createIntent, intentState] = useCreatePaymentIntentMutation();
  const requestedFor = useRef<number | null>(null);
  const [stripeUnavailable, setStripeUnavailable] = useState(false);

  const stripeLoadFailed = useCallback(() => {
    setStripeUnavailable(true);
    toast({ ...PAYMENT_TOASTS.setupError, variant: 'destructive' });
  }, [toast]);

  const requestIntent = useCallback(async () => {
    setStripeUnavailable(false);
    const result = await createIntent({ amount: Number(campaign.price), campaignId: campaign.id });
    if (!result.error) return;
    if (isApiError(result.error) && result.error.status === 409 && result.error.code === 'payments.already_paid') {
      void refetch();
      return;
    }
    toast({ ...PAYMENT_TOASTS.setupError, variant: 'destructive' });
  }, [campaign.id, campaign.price, createIntent, refetch, toast]);

  // One PaymentIntent per campaign and page view (the ref also absorbs StrictMode's second effect run).
  useEffect(() => {
    if (requestedFor.current === campaign.id) return;
    requestedFor.current = campaign.id;
    void requestIntent();
  }, [campaign.id, requestIntent]);

  const intent: PaymentIntent | null = intentState.data ?? null;
  // What the card is charged: the budget less any account credit the server applied.
  const amountLabel = intent ? formatCents(intent.amountCents) : formatUsd(campaign.price);
  const configuredProvider = config.data?.providers.payments === 'stripe' ? 'stripe' : 'local';
  const provider = intent?.provider ?? configuredProvider;
  const stripeKey = config.data?.stripePublishableKey ? (intent?.publishableKey ?? config.data.stripePublishableKey) : null;
  const settingUp = intentState.isLoading || intentState.isUninitialized || config.isLoading;
  const setupFailed = intentState.isError || stripeUnavailable || (provider === 'stripe' && !settingUp && !stripeKey);

  const goToSuccess = (clientSecret: string) => {
    // A full navigation, as Stripe's redirect is: the success screen starts fresh either way.
    window.location.assign(
      successPath(campaign, { payment_intent: paymentIntentId(clientSecret), redirect_status: 'succeeded' }),
    );
  };

  let payment;
  if (setupFailed) {
    payment = (
      <div className={styles.setupError} role="alert">
        <AlertIcon />
        <div>
          <p className={styles.setupErrorTitle}>{PAYMENT_TOASTS.setupError.title}</p>
          <p>{PAYMENT_TOASTS.setupError.description}</p>
          <button type="button" className={buttons.secondary} onClick={() => void requestIntent()}>
            Try again
          </button>
        </div>
      </div>
    );
  } else if (provider === 'stripe') {
    payment =
      intent && stripeKey ? (
        <Suspense fallback={<Spinner label="Loading secure payment form..." />}>
          <StripePayment
            intent={intent}
            publishableKey={stripeKey}
            amountLabel={amountLabel}
            returnUrl={new URL(successPath(campaign), window.location.origin).href}
            onLoadError={stripeLoadFailed}
          />
        </Suspense>
      ) : (
        <Spinner label="Setting up payment..." />
      );
  } else {
    payment = (
      <LocalPayment intent={intent} amountLabel={amountLabel} onSucceeded={goToSuccess} onAlreadyPaid={() => void refetch()} />
    );
  }

  const testMode = provider === 'local' || (stripeKey?.startsWith('pk_test_') ?? false);

  return (
    <div className={styles.layout}>
      <div className={styles.intro}>
        <Link to="/?step=6" className={styles.back}>
          <ArrowLeftIcon width={18} height={18} /> Back to pricing
        </Link>
        <h1 className={styles.pageTitle}>Checkout</h1>
        <p className={styles.pageSubtitle}>Review your order and pay to launch your ad on Facebook and Instagram.</p>
      </div>

      <div className={styles.grid}>
        <section className={`${panels.panel} ${styles.paymentCard}`} aria-labelledby="payment-title">
          <div className={styles.cardHead}>
            <h2 id="payment-title" className={styles.cardTitle}>
              Payment details
            </h2>
            <span className={styles.providerBadge} data-provider={provider}>
              {provider === 'stripe' ? 'Stripe' : 'Local test payments'}
            </span>
          </div>

          {testMode && <TestModeNotice provider={provider} />}

          {payment}
        </section>

        <OrderSummary campaign={campaign} creditAppliedCents={intent?.creditAppliedCents ?? 0} />
      </div>
    </div>
  );
}
