import { useRef, useState, type ReactNode } from 'react';
import { isApiError } from '../../store/api';
import { useToast } from '../toast/useToast';
import {
  cardErrorsFromServer,
  digitsOnly,
  EMPTY_CARD,
  parseExpiry,
  validateCard,
  type CardErrors,
  type CardField,
  type CardInput,
} from './cardFields';
import { useAuthenticateLocalPaymentMutation, useConfirmLocalPaymentMutation, type PaymentIntent } from './checkoutApi';
import { AUTHENTICATION_DECLINED, GENERIC_DECLINE, PAYMENT_TOASTS } from './paymentMessages';
import type { PaymentPhase } from './PaymentForm';

export interface LocalPaymentProps {
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
 * The local test payment's state: the card as typed and its field messages, POST
 * /api/payments/local/confirm, its 3-D Secure step (POST /api/payments/local/authenticate), and the
 * failure kept beside the form after its toast has gone.
 */
export function useLocalPayment({ intent, onSucceeded, onAlreadyPaid }: Pick<LocalPaymentProps, 'intent' | 'onSucceeded' | 'onAlreadyPaid'>) {
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

  return { card, errors, phase, declined, challenge, inputs, update, pay, answerChallenge };
}
