import { Tooltip } from './Tooltip';
import styles from './HelpAssistant.module.css';

/** The round button: 'Open Help Assistant' when closed, the restore button when minimised. */
export function HelpLauncher({ minimised, onClick }: { minimised: boolean; onClick: () => void }) {
  const label = minimised ? 'Restore Help Assistant' : 'Open Help Assistant';
  return (
    <Tooltip content={label}>
      <button type="button" className={styles.launcher} aria-label={label} onClick={onClick}>
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M12 2C6.48 2 2 5.92 2 10.75c0 2.64 1.35 5 3.47 6.6L4.5 22l4.63-2.53c.92.22 1.88.33 2.87.33 5.52 0 10-3.92 10-8.75S17.52 2 12 2Zm1 13h-2v-2h2v2Zm1.6-5.3-.9.92c-.5.5-.7.9-.7 1.88h-2v-.5c0-.9.3-1.72.9-2.3l1.24-1.26A1.5 1.5 0 1 0 10.5 7.6h-2a3.5 3.5 0 1 1 6.1 2.1Z"
          />
        </svg>
      </button>
    </Tooltip>
  );
}
