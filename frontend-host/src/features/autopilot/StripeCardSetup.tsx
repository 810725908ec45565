import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useState, type ReactNode } from 'react';
import { tokenValue } from '@app/ui';
import { stripeFor } from '../checkout/StripePayment';
import { PaymentForm, type PaymentPhase } from '../checkout/PaymentForm';
import { GENERIC_DECLINE, PAYMENT_TOASTS } from '../checkout/paymentMessages';
import { useToast } from '../toast/useToast';
import styles from '../checkout/Checkout.module.css';

interface Props {
  clientSecret: string;
  publishableKey: string;
  returnUrl: string;
  authorization: ReactNode;
  onSaved: () => void;
}

/** Stripe Elements on a SetupIntent: the card is confirmed with `stripe.confirmSetup` (3-D Secure in Stripe's own frame). */
export default function StripeCardSetup({ clientSecret, publishableKey, returnUrl, authorization, onSaved }: Props) {
  return (
    <Elements
      stripe={stripeFor(publishableKey)}
      options={{ clientSecret, appearance: { theme: 'stripe', variables: { colorPrimary: tokenValue('--ui-color-primary'), borderRadius: '10px', fontFamily: tokenValue('--ui-font') } } }}
    >
      <SetupForm returnUrl={returnUrl} authorization={authorization} onSaved={onSaved} />
    </Elements>
  );
}

function SetupForm({ returnUrl, authorization, onSaved }: Omit<Props, 'clientSecret' | 'publishableKey'>) {
  const stripe = useStripe();
  const elements = useElements();
  const { toast } = useToast();
  const [phase, setPhase] = useState<PaymentPhase>('idle');
  const [ready, setReady] = useState(false);

  const save = async () => {
    if (!stripe || !elements) return;
    setPhase('paying');
    const submitted = await elements.submit();
    if (submitted.error) return setPhase('idle');
    const { error } = await stripe.confirmSetup({ elements, confirmParams: { return_url: returnUrl }, redirect: 'if_required' });
    setPhase('idle');
    if (!error) return onSaved();
    toast({ title: PAYMENT_TOASTS.failedTitle, description: error.message || GENERIC_DECLINE, variant: 'destructive' });
  };

  return (
    <PaymentForm
      fields={
        <div className={styles.stripeElement}>
          <PaymentElement onReady={() => setReady(true)} />
        </div>
      }
      amountLabel=""
      phase={phase}
      ready={!!stripe && !!elements && ready}
      onPay={() => void save()}
      submitLabel="Save card"
      authorization={authorization}
    />
  );
}
