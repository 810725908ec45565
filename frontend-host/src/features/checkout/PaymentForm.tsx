import { checkoutTermsSchema } from '@app/contracts';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { buttonStyles as buttons } from '@app/ui';
import { LockIcon } from '../../components/Icons';
import { useToast } from '../toast/useToast';
import styles from './Checkout.module.css';
import { PAYMENT_TOASTS } from './paymentMessages';

export type PaymentPhase = 'idle' | 'paying' | 'authenticating' | 'redirecting';

const BUSY_LABEL: Record<Exclude<PaymentPhase, 'idle'>, string> = {
  paying: 'Processing payment…',
  authenticating: 'Waiting for authentication…',
  redirecting: 'Payment complete — redirecting…',
};

interface PaymentFormProps {
  /** The provider's inputs (the local card form or Stripe's PaymentElement). */
  fields: ReactNode;
  /** "$299". */
  amountLabel: string;
  phase: PaymentPhase;
  /** False while the payment is not set up yet (or failed to be): paying is impossible. */
  ready: boolean;
  /** Called on submit once the terms are accepted and nothing is in progress. */
  onPay: () => void;
}

/**
 * The part of the payment form both providers share: their fields, the terms checkbox with the
 * consent text (spec 000 §2), and the pay button. The button is disabled until the terms are ticked
 * (spec §5), and the spec's Terms Required message says why beside it meanwhile. While a payment runs
 * it is disabled too: a payment cannot be started twice.
 */
export function PaymentForm({ fields, amountLabel, phase, ready, onPay }: PaymentFormProps) {
  const { toast, dismiss } = useToast();
  const termsToast = useRef<string | null>(null);
  const [accepted, setAccepted] = useState(false);
  const [termsError, setTermsError] = useState(false);
  const checkboxRef = useRef<HTMLInputElement>(null);
  const termsId = useId();
  const consentId = useId();
  const termsErrorId = useId();
  const termsHintId = useId();

  const busy = phase !== 'idle';
  const blocked = !accepted;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !ready) return;
    if (!checkoutTermsSchema.safeParse({ acceptedTerms: accepted }).success) {
      setTermsError(true);
      termsToast.current = toast({ ...PAYMENT_TOASTS.termsRequired, variant: 'destructive' }).id;
      checkboxRef.current?.focus();
      return;
    }
    // A new attempt: the previous attempt's message (a decline, say) no longer applies.
    dismiss();
    onPay();
  };

  return (
    <form className={styles.paymentForm} onSubmit={submit} noValidate aria-busy={busy}>
      {fields}

      <div className={styles.terms} data-invalid={termsError || undefined}>
        <label className={styles.termsLabel} htmlFor={termsId}>
          <input
            ref={checkboxRef}
            id={termsId}
            type="checkbox"
            className={styles.checkbox}
            checked={accepted}
            disabled={busy}
            aria-invalid={termsError || undefined}
            aria-describedby={`${consentId}${termsError ? ` ${termsErrorId}` : ''}`}
            onChange={(event) => {
              setAccepted(event.target.checked);
              if (event.target.checked) {
                setTermsError(false);
                if (termsToast.current) dismiss(termsToast.current);
                termsToast.current = null;
              }
            }}
          />
          <span>
            I agree to the <strong>Terms of Service</strong> and <strong>Privacy Policy</strong>.
          </span>
        </label>
        {termsError && (
          <p id={termsErrorId} className={styles.termsError}>
            {PAYMENT_TOASTS.termsRequired.title}: {PAYMENT_TOASTS.termsRequired.description}
          </p>
        )}
        {/* Outside the label (a click there ticks the box); new tabs keep the checkout where it is. */}
        <p className={styles.consent}>
          Read the{' '}
          <a href="/terms" target="_blank" rel="noopener">
            Terms of Service
          </a>{' '}
          and the{' '}
          <a href="/privacy" target="_blank" rel="noopener">
            Privacy Policy
          </a>
          .
        </p>
        <p id={consentId} className={styles.consent}>
          By paying, you authorize Listing Ads to charge your card {amountLabel} for this campaign, and you agree that
          Listing Ads may contact you about your campaign and related marketing services by email, phone call and text
          message, including by automated means, at the contact details you provided. Consent is not a condition of
          purchase. Message and data rates may apply; reply STOP to opt out.
        </p>
      </div>

      <button
        type="submit"
        className={styles.payButton}
        disabled={busy || !ready || blocked}
        aria-describedby={blocked ? termsHintId : undefined}
        data-blocked={blocked || undefined}
      >
        {busy ? (
          <>
            <span className={buttons.spinner} aria-hidden="true" />
            {BUSY_LABEL[phase]}
          </>
        ) : (
          <>
            <LockIcon width={18} height={18} />
            Pay {amountLabel}
          </>
        )}
      </button>
      {blocked && (
        <p id={termsHintId} className={styles.payHint}>
          {PAYMENT_TOASTS.termsRequired.description}
        </p>
      )}
    </form>
  );
}
