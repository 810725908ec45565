import { useHelpAssistant } from './HelpAssistantContext';
import { Tooltip } from './Tooltip';
import type { HelpTopic } from './topics';
import styles from './HelpAssistant.module.css';

/** A small icon button that opens the help assistant on a topic. */
export function HelpIcon({ topic, label }: { topic: HelpTopic; label: string }) {
  const { open } = useHelpAssistant();
  return (
    <Tooltip content={label}>
      <button type="button" className={styles.helpIcon} aria-label={label} onClick={() => open(topic)}>
        <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
          <circle cx="10" cy="10" r="8.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <path d="M7.6 7.7a2.4 2.4 0 1 1 3.4 2.2c-.6.3-1 .8-1 1.5v.4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          <circle cx="10" cy="14.4" r="1" fill="currentColor" />
        </svg>
      </button>
    </Tooltip>
  );
}
