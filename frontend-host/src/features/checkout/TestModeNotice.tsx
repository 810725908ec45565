import styles from './Checkout.module.css';

/** Test mode (local payments, or Stripe with a test key): the card to use, and the ones that fail or ask for 3-D Secure. */
export function TestModeNotice({ provider }: { provider: 'stripe' | 'local' }) {
  return (
    <div className={styles.testMode} role="note">
      <p className={styles.testModeText}>
        <strong>Test mode</strong> — {provider === 'local' ? 'local test payments' : 'Stripe'}: use{' '}
        <code className={styles.code}>4242 4242 4242 4242</code>
      </p>
      <details className={styles.testCards}>
        <summary>More test cards</summary>
        <ul>
          <li>
            <code className={styles.code}>4000 0000 0000 0002</code> declined
          </li>
          <li>
            <code className={styles.code}>4000 0000 0000 9995</code> insufficient funds
          </li>
          <li>
            <code className={styles.code}>4000 0027 6000 3184</code> asks for 3-D Secure
          </li>
        </ul>
        <p>Any future expiry date and any 3-digit CVC work.</p>
      </details>
    </div>
  );
}
