import { useAdCopy } from '../shared/ad-copy/useAdCopy';
import styles from './Customize.module.css';

/** Asks for new ad copy (spec 000 §4): disabled while any copy is on its way, so one refresh at a time. */
export function RefreshAdCopyButton() {
  const { phase, busy, refresh } = useAdCopy();
  return (
    <button type="button" className={styles.refresh} onClick={() => void refresh()} disabled={busy} aria-busy={phase === 'regenerating'}>
      <span className={styles.refreshIcon} data-spinning={busy || undefined} aria-hidden="true">
        ↻
      </span>
      {phase === 'regenerating' ? 'Regenerating...' : 'Refresh ad copy'}
    </button>
  );
}
