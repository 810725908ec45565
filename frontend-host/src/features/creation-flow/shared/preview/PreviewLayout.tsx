import { useRef, useState, type ReactNode } from 'react';
import { Dialog } from '../../../../components/Dialog';
import { DESKTOP_QUERY, useMediaQuery } from '../useMediaQuery';
import { AdPreview, SafeImage, type AdPreviewModel } from './AdPreview';
import { useAdPreviewModel } from './useAdPreviewModel';
import styles from './PreviewLayout.module.css';

export interface SplitLayoutProps {
  /** The desktop side pane's content, and its accessible name. */
  pane: ReactNode;
  paneLabel: string;
  paneTitle: string;
  /** What phones show above the step's content instead of the pane. */
  compact: ReactNode;
  children: ReactNode;
}

/** A step with a preview: a sticky left pane on desktop, a compact preview above the content on phones. */
export function SplitLayout({ pane, paneLabel, paneTitle, compact, children }: SplitLayoutProps) {
  const desktop = useMediaQuery(DESKTOP_QUERY);
  if (!desktop) {
    return (
      <div className={styles.stack}>
        {compact}
        {children}
      </div>
    );
  }
  return (
    <div className={styles.split}>
      <aside className={styles.pane} aria-label={paneLabel}>
        <p className={styles.paneTitle}>
          <span className={styles.liveDot} aria-hidden="true" />
          {paneTitle}
        </p>
        {pane}
      </aside>
      <div className={styles.main}>{children}</div>
    </div>
  );
}

/** Steps 2 and 3 (spec 000 §2): the live Facebook-style ad preview beside (or above) the step. */
export function AdPreviewLayout({ children }: { children: ReactNode }) {
  const ad = useAdPreviewModel();
  return (
    <SplitLayout
      pane={ad && <AdPreview ad={ad} />}
      paneLabel="Ad preview"
      paneTitle="Live ad preview"
      compact={ad && <CompactAdPreview ad={ad} />}
    >
      {children}
    </SplitLayout>
  );
}

/** Phones: a small tappable summary of the ad that opens the full-size preview in a modal (spec 000 §2). */
export function CompactAdPreview({ ad }: { ad: AdPreviewModel }) {
  const [open, setOpen] = useState(false);
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button type="button" className={styles.compact} onClick={() => setOpen(true)} aria-haspopup="dialog">
        <SafeImage src={ad.images[0] ?? null} alt="" className={styles.compactThumb} />
        <span className={styles.compactText}>
          <span className={styles.compactEyebrow}>Ad preview</span>
          <span className={styles.compactHeadline}>{ad.headline || 'Your headline'}</span>
          <span className={styles.compactCopy}>{ad.text || 'Your ad text will appear here.'}</span>
        </span>
        <span className={styles.compactOpen}>
          View full ad <span aria-hidden="true">›</span>
        </span>
      </button>
      <Dialog
        open={open}
        title="Full Ad Preview"
        description="How your ad appears in the Facebook and Instagram feed."
        onEscape={() => setOpen(false)}
        initialFocusRef={closeRef}
        testId="full-ad-preview"
        header={
          <button type="button" ref={closeRef} className={styles.closeX} onClick={() => setOpen(false)} aria-label="Close">
            ×
          </button>
        }
      >
        <div className={styles.modalAd}>
          <AdPreview ad={ad} variant="full" />
        </div>
        <button type="button" className={styles.done} onClick={() => setOpen(false)}>
          Done
        </button>
      </Dialog>
    </>
  );
}
