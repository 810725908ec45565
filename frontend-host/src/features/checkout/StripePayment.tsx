import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
// The "pure" entry adds Stripe.js to the page only when loadStripe is called, not on import.
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useEffect, useState } from 'react';
import { useToast } from '../toast/useToast';
import type { PaymentIntent } from './checkoutApi';
import styles from './Checkout.module.css';
import { GENERIC_DECLINE, PAYMENT_TOASTS } from './paymentMessages';
import { PaymentForm, type PaymentPhase } from './PaymentForm';
import { tokenValue } from '@app/ui';

const stripeByKey = new Map<string, Promise<Stripe | null>>();

export function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripeByKey.get(publishableKey);
  if (!stripe) {
    // Resolves to null when Stripe.js cannot be loaded (blocked, offline): the caller reports it.
    stripe = loadStripe(publishableKey).catch(() => {
      stripeByKey.delete(publishableKey); // "Try again" loads it afresh
      return null;
    });
    stripeByKey.set(publishableKey, stripe);
  }
  return stripe;
}

interface StripePaymentProps {
  intent: PaymentIntent;
  publishableKey: string;
  amountLabel: string;
  /** Absolute URL Stripe returns the browser to (it adds payment_intent and redirect_status). */
  returnUrl: string;
  /** Stripe.js or the PaymentElement could not be loaded. */
  onLoadError: () => void;
}

/** Stripe Elements: the PaymentElement for the PaymentIntent, confirmed with `stripe.confirmPayment`. */
export default function StripePayment({ intent, publishableKey, amountLabel, returnUrl, onLoadError }: StripePaymentProps) {
  const stripe = stripeFor(publishableKey);
  useEffect(() => {
    let current = true;
    void stripe.then((loaded) => {
      if (current && !loaded) onLoadError();
    });
    return () => {
      current = false;
    };
  }, [stripe, onLoadError]);

  return (
    <Elements
      stripe={stripe}
      options={{
        clientSecret: intent.clientSecret,
        appearance: {
          theme: 'stripe',
          variables: {
            colorPrimary: tokenValue('--ui-color-primary'),
            colorText: tokenValue('--ui-color-text'),
            colorDanger: tokenValue('--ui-color-danger-text'),
            borderRadius: '10px',
            fontFamily: tokenValue('--ui-font'),
          },
        },
      }}
    >
      <StripeForm amountLabel={amountLabel} returnUrl={returnUrl} onLoadError={onLoadError} />
    </Elements>
  );
}

function StripeForm({ amountLabel, returnUrl, onLoadError }: { amountLabel: string; returnUrl: string; onLoadError: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const { toast } = useToast();
  const [phase, setPhase] = useState<PaymentPhase>('idle');
  const [elementReady, setElementReady] = useState(false);

  const pay = async () => {
    if (!stripe || !elements) return;
    setPhase('paying');
    try {
      const submitted = await elements.submit();
      if (submitted.error) {
        // Incomplete or invalid fields: the PaymentElement shows them where they are.
        setPhase('idle');
        return;
      }
      const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl } });
      // Without an error the browser is on its way to the return URL.
      setPhase('idle');
      if (error.type === 'card_error' || error.type === 'validation_error') {
        toast({ title: PAYMENT_TOASTS.failedTitle, description: error.message || GENERIC_DECLINE, variant: 'destructive' });
      } else {
        toast({ ...PAYMENT_TOASTS.unexpected, variant: 'destructive' });
      }
    } catch {
      setPhase('idle');
      toast({ ...PAYMENT_TOASTS.unexpected, variant: 'destructive' });
    }
  };

  return (
    <PaymentForm
      fields={
        <div className={styles.stripeElement}>
          <PaymentElement options={{ layout: 'tabs' }} onReady={() => setElementReady(true)} onLoadError={onLoadError} />
        </div>
      }
      amountLabel={amountLabel}
      phase={phase}
      ready={!!stripe && !!elements && elementReady}
      onPay={() => void pay()}
    />
  );
}
