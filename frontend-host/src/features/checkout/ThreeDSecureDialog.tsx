import { useRef } from 'react';
import { buttonStyles as buttons } from '@app/ui';
import { Dialog } from '../../components/Dialog';
import { ShieldIcon } from '../../components/Icons';
import styles from './Checkout.module.css';

interface ThreeDSecureDialogProps {
  open: boolean;
  amountLabel: string;
  cardLast4: string;
  /** Which answer is being sent. */
  pending: 'approve' | 'decline' | null;
  onApprove: () => void;
  onDecline: () => void;
}

/**
 * The local provider's 3-D Secure step: what a card issuer's authentication page asks. It must be
 * answered (Approve or Decline); neither Escape nor a click outside closes it.
 */
export function ThreeDSecureDialog({ open, amountLabel, cardLast4, pending, onApprove, onDecline }: ThreeDSecureDialogProps) {
  const approveRef = useRef<HTMLButtonElement>(null);
  const busy = pending !== null;
  return (
    <Dialog
      open={open}
      size="sm"
      testId="three-d-secure"
      initialFocusRef={approveRef}
      title="Confirm your payment"
      description={
        <>
          Your bank needs to confirm this payment of <strong>{amountLabel}</strong> to <strong>Listing Ads</strong>
          {cardLast4 ? <> with the card ending in {cardLast4}</> : null}.
        </>
      }
      header={
        <div className={styles.bankBand}>
          <ShieldIcon width={22} height={22} />
          <div>
            <div className={styles.bankName}>Test Bank · 3-D Secure</div>
            <div className={styles.bankSub}>Local test payments — no real bank is contacted</div>
          </div>
        </div>
      }
    >
      <dl className={styles.bankFacts}>
        <div>
          <dt>Merchant</dt>
          <dd>Listing Ads</dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd>{amountLabel}</dd>
        </div>
        {cardLast4 && (
          <div>
            <dt>Card</dt>
            <dd>•••• {cardLast4}</dd>
          </div>
        )}
      </dl>
      <div className={styles.bankActions}>
        <button type="button" className={buttons.secondary} disabled={busy} onClick={onDecline}>
          {pending === 'decline' && <span className={buttons.spinnerDark} aria-hidden="true" />}
          Decline
        </button>
        <button ref={approveRef} type="button" className={buttons.primary} disabled={busy} onClick={onApprove}>
          {pending === 'approve' && <span className={buttons.spinner} aria-hidden="true" />}
          Approve
        </button>
      </div>
    </Dialog>
  );
}
