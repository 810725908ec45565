import { digitsOnly } from './cardFields';
import { CardFields } from './CardFields';
import { PaymentForm } from './PaymentForm';
import { ThreeDSecureDialog } from './ThreeDSecureDialog';
import { useLocalPayment, type LocalPaymentProps } from './useLocalPayment';

/**
 * The local test payment provider: a card form (Stripe's test numbers), POST
 * /api/payments/local/confirm, and its 3-D Secure step (POST /api/payments/local/authenticate).
 */
export function LocalPayment({ intent, amountLabel, onSucceeded, onAlreadyPaid, submitLabel, authorization }: LocalPaymentProps) {
  const { card, errors, phase, declined, challenge, inputs, update, pay, answerChallenge } = useLocalPayment({ intent, onSucceeded, onAlreadyPaid });
  const fields = <CardFields card={card} errors={errors} declined={declined} busy={phase !== 'idle'} inputs={inputs} update={update} />;

  return (
    <>
      <PaymentForm fields={fields} amountLabel={amountLabel} phase={phase} ready={!!intent} onPay={() => void pay()} submitLabel={submitLabel} authorization={authorization} />
      <ThreeDSecureDialog
        open={challenge !== null}
        amountLabel={amountLabel}
        cardLast4={digitsOnly(card.number).slice(-4)}
        pending={challenge === 'approve' || challenge === 'decline' ? challenge : null}
        onApprove={() => void answerChallenge(true)}
        onDecline={() => void answerChallenge(false)}
      />
    </>
  );
}
