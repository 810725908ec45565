import { buttonStyles as buttons } from '@app/ui';
import styles from './Success.module.css';

/** The link is on its way: where it went, what it does, and another link or another address. */
export function LinkSent({
  sentTo,
  resent,
  busy,
  canChangeEmail,
  onChangeEmail,
  onResend,
  onClose,
}: {
  sentTo: string;
  resent: boolean;
  busy: boolean;
  /** Account setup may use another address; a sign-in link only goes to the agent's own. */
  canChangeEmail: boolean;
  onChangeEmail: () => void;
  onResend: () => void;
  onClose: () => void;
}) {
  return (
    <div className={styles.setupForm} data-testid="account-setup-sent">
      <p role="status">
        <strong>Check your email.</strong> We sent a link to <strong>{sentTo}</strong>. Open it in this browser or on your phone:
        it signs you in to your Agent Dashboard. The link works once, for 30 minutes.
      </p>
      <p>This page opens your dashboard as soon as you open the link in this browser.</p>
      {resent && <p role="status">We sent a new link.</p>}
      <div className={styles.dialogActions}>
        {canChangeEmail && (
          <button type="button" className={buttons.ghost} onClick={onChangeEmail} disabled={busy}>
            Use a different email
          </button>
        )}
        <button type="button" className={buttons.ghost} onClick={onResend} disabled={busy}>
          {busy ? 'Sending...' : 'Resend email'}
        </button>
        <button type="button" className={buttons.primary} onClick={onClose} disabled={busy}>
          Close
        </button>
      </div>
    </div>
  );
}
