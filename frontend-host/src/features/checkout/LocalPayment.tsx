import { VisuallyHidden, fieldStyles as fieldUi } from '@app/ui';
import { useRef, useState, type ReactNode } from 'react';
import { CardIcon } from '../../components/Icons';
import { isApiError } from '../../store/api';
import { useToast } from '../toast/useToast';
import {
  cardBrand,
  cardErrorsFromServer,
  digitsOnly,
  EMPTY_CARD,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  parseExpiry,
  validateCard,
  type CardErrors,
  type CardField,
  type CardInput,
} from './cardFields';
import { useAuthenticateLocalPaymentMutation, useConfirmLocalPaymentMutation, type PaymentIntent } from './checkoutApi';
import styles from './Checkout.module.css';
import { AUTHENTICATION_DECLINED, GENERIC_DECLINE, PAYMENT_TOASTS } from './paymentMessages';
import { PaymentForm, type PaymentPhase } from './PaymentForm';
import { ThreeDSecureDialog } from './ThreeDSecureDialog';

interface LocalPaymentProps {
  intent: PaymentIntent | null;
  amountLabel: string;
  /** Sends the browser to the success screen, as Stripe's redirect would. */
  onSucceeded: (clientSecret: string) => void;
  /** The server says the campaign is paid already (409). */
  onAlreadyPaid: () => void;
  /** Saving a card (a SetupIntent's client secret) instead of paying: the button's words and the authorization. */
  submitLabel?: string;
  authorization?: ReactNode;
}

const FIELD_ORDER: CardField[] = ['number', 'expiry', 'cvc'];

/**
 * The local test payment provider: a card form (Stripe's test numbers), POST
 * /api/payments/local/confirm, and its 3-D Secure step (POST /api/payments/local/authenticate).
 */
export function LocalPayment({ intent, amountLabel, onSucceeded, onAlreadyPaid, submitLabel, authorization }: LocalPaymentProps) {
  const { toast } = useToast();
  const [card, setCard] = useState<CardInput>(EMPTY_CARD);
  const [errors, setErrors] = useState<CardErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [phase, setPhase] = useState<PaymentPhase>('idle');
  /** The last attempt's failure, kept beside the form after its toast has gone. */
  const [declined, setDeclined] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<null | 'open' | 'approve' | 'decline'>(null);
  const inputs = useRef<Partial<Record<CardField, HTMLInputElement | null>>>({});
  const [confirmPayment] = useConfirmLocalPaymentMutation();
  const [authenticate] = useAuthenticateLocalPaymentMutation();

  const update = (field: CardField, value: string) => {
    const next = { ...card, [field]: value };
    setCard(next);
    setDeclined(null);
    // After a first attempt, fields re-check as they are corrected.
    if (submitted) setErrors(validateCard(next));
    else if (errors[field]) setErrors({ ...errors, [field]: undefined });
  };

  const failed = (message: string | null | undefined) => {
    setPhase('idle');
    setDeclined(message || GENERIC_DECLINE);
    toast({ title: PAYMENT_TOASTS.failedTitle, description: message || GENERIC_DECLINE, variant: 'destructive' });
  };

  const unexpected = () => {
    setPhase('idle');
    toast({ ...PAYMENT_TOASTS.unexpected, variant: 'destructive' });
  };

  const requestError = (error: unknown) => {
    if (!isApiError(error)) return unexpected();
    if (error.status === 409 && error.code === 'payments.already_paid') {
      setPhase('idle');
      return onAlreadyPaid();
    }
    if (error.status === 400) {
      const fieldErrors = cardErrorsFromServer(error.fields);
      if (Object.keys(fieldErrors).length > 0) {
        setErrors(fieldErrors);
        inputs.current[FIELD_ORDER.find((f) => fieldErrors[f])!]?.focus();
      }
      return failed(error.serverMessage);
    }
    return unexpected();
  };

  const pay = async () => {
    if (!intent) return;
    setSubmitted(true);
    const found = validateCard(card);
    setErrors(found);
    const firstInvalid = FIELD_ORDER.find((f) => found[f]);
    if (firstInvalid) {
      inputs.current[firstInvalid]?.focus();
      return;
    }
    const expiry = parseExpiry(card.expiry)!;
    setDeclined(null);
    setPhase('paying');
    try {
      const result = await confirmPayment({
        clientSecret: intent.clientSecret,
        cardNumber: digitsOnly(card.number),
        expMonth: expiry.month,
        expYear: expiry.year,
        cvc: digitsOnly(card.cvc),
      });
      if (result.error) return requestError(result.error);
      const { status, message } = result.data;
      if (status === 'succeeded') {
        setPhase('redirecting');
        onSucceeded(intent.clientSecret);
      } else if (status === 'requires_action') {
        setPhase('authenticating');
        setChallenge('open');
      } else {
        failed(message);
      }
    } catch {
      unexpected();
    }
  };

  const answerChallenge = async (approve: boolean) => {
    if (!intent) return;
    setChallenge(approve ? 'approve' : 'decline');
    try {
      const result = await authenticate({ clientSecret: intent.clientSecret, approve });
      setChallenge(null);
      if (result.error) return requestError(result.error);
      if (result.data.status === 'succeeded') {
        setPhase('redirecting');
        onSucceeded(intent.clientSecret);
      } else {
        failed(result.data.message || AUTHENTICATION_DECLINED);
      }
    } catch {
      setChallenge(null);
      unexpected();
    }
  };

  const busy = phase !== 'idle';
  const brand = cardBrand(card.number);

  const fieldProps = (field: CardField) => ({
    ref: (el: HTMLInputElement | null) => {
      inputs.current[field] = el;
    },
    className: `${fieldUi.input} ${styles.cardInput}`,
    disabled: busy,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `card-${field}-error` : undefined,
  });

  const fields = (
    <fieldset className={styles.cardFields} disabled={busy}>
      <VisuallyHidden as="legend">Card details</VisuallyHidden>
      {declined && (
        <p className={styles.declined} data-testid="payment-declined">
          <strong>{PAYMENT_TOASTS.failedTitle}.</strong> {declined}
        </p>
      )}
      <div className={fieldUi.field}>
        <label className={fieldUi.label} htmlFor="card-number">
          Card number
        </label>
        <div className={styles.adorned}>
          <input
            {...fieldProps('number')}
            id="card-number"
            name="cardnumber"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            value={card.number}
            onChange={(event) => update('number', formatCardNumber(event.target.value))}
          />
          <span className={styles.adornment} aria-hidden="true">
            {brand ? <span className={styles.brandTag}>{brand === 'American Express' ? 'AMEX' : brand.toUpperCase()}</span> : <CardIcon />}
          </span>
        </div>
        <FieldError id="card-number-error" message={errors.number} />
      </div>
      <div className={styles.row2}>
        <div className={fieldUi.field}>
          <label className={fieldUi.label} htmlFor="card-expiry">
            Expiry (MM/YY)
          </label>
          <input
            {...fieldProps('expiry')}
            id="card-expiry"
            name="exp-date"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            value={card.expiry}
            onChange={(event) => {
              const raw = event.target.value;
              // Deleting the slash deletes the digit before it, rather than putting the slash straight back.
              const deleting = raw.length < card.expiry.length && card.expiry.endsWith('/') && !raw.includes('/');
              update('expiry', formatExpiry(deleting ? raw.slice(0, -1) : raw));
            }}
          />
          <FieldError id="card-expiry-error" message={errors.expiry} />
        </div>
        <div className={fieldUi.field}>
          <label className={fieldUi.label} htmlFor="card-cvc">
            CVC
          </label>
          <input
            {...fieldProps('cvc')}
            id="card-cvc"
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="CVC"
            value={card.cvc}
            onChange={(event) => update('cvc', formatCvc(event.target.value))}
          />
          <FieldError id="card-cvc-error" message={errors.cvc} />
        </div>
      </div>
    </fieldset>
  );

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

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className={fieldUi.fieldError}>
      {message}
    </p>
  );
}
