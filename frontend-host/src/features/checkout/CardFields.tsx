import { Field, TextField, VisuallyHidden, fieldStyles as fieldUi } from '@app/ui';
import type { RefObject } from 'react';
import { CardIcon } from '../../components/Icons';
import { cardBrand, formatCardNumber, formatCvc, formatExpiry, type CardErrors, type CardField, type CardInput } from './cardFields';
import styles from './Checkout.module.css';
import { PAYMENT_TOASTS } from './paymentMessages';

/** The local payment's card fields (Stripe's test numbers): number with its brand, expiry and CVC. */
export function CardFields({
  card,
  errors,
  declined,
  busy,
  inputs,
  update,
}: {
  card: CardInput;
  errors: CardErrors;
  declined: string | null;
  busy: boolean;
  inputs: RefObject<Partial<Record<CardField, HTMLInputElement | null>>>;
  update: (field: CardField, value: string) => void;
}) {
  const brand = cardBrand(card.number);
  // Each card field: its ids (card-<field>), its message (shown; the toast announces the failure) and ref.
  const remember = (field: CardField) => (el: HTMLInputElement | null) => {
    inputs.current[field] = el;
  };
  const own = (field: CardField) => ({ id: `card-${field}`, error: errors[field], announce: 'none' as const, disabled: busy, ref: remember(field) });

  return (
    <fieldset className={styles.cardFields} disabled={busy}>
      <VisuallyHidden as="legend">Card details</VisuallyHidden>
      {declined && (
        <p className={styles.declined} data-testid="payment-declined">
          <strong>{PAYMENT_TOASTS.failedTitle}.</strong> {declined}
        </p>
      )}
      <Field id="card-number" label="Card number" error={errors.number} announce="none">
        {(control) => (
          <div className={styles.adorned}>
            <input
              {...control}
              ref={remember('number')}
              disabled={busy}
              className={`${fieldUi.input} ${styles.cardInput}`}
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
        )}
      </Field>
      <div className={styles.row2}>
        <TextField
          {...own('expiry')}
          label="Expiry (MM/YY)"
          inputClassName={styles.cardInput}
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
        <TextField
          {...own('cvc')}
          label="CVC"
          inputClassName={styles.cardInput}
          name="cvc"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="CVC"
          value={card.cvc}
          onChange={(event) => update('cvc', formatCvc(event.target.value))}
        />
      </div>
    </fieldset>
  );
}
