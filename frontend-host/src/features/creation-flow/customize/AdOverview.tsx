import { AD_COPY_PLACEHOLDERS, CAROUSEL_MAX } from '@app/contracts';
import { buttonStyles as buttons, panelStyles as panels } from '@app/ui';
import { useAdCopy } from '../shared/ad-copy/useAdCopy';
import type { CompleteDraft } from '../draft/completeDraft';
import shared from '../shared/steps.module.css';
import { RefreshAdCopyButton } from './RefreshAdCopyButton';
import styles from './Customize.module.css';

/** Step 3's overview: the ad's parts at a glance, with Edit and Approve Ad. */
export function AdOverview({ draft, onEdit, onApprove }: { draft: CompleteDraft; onEdit: () => void; onApprove: () => void }) {
  const adCopy = useAdCopy();
  const format =
    draft.adFormat === 'carousel'
      ? `Carousel · ${Math.min(draft.carouselImages.length, CAROUSEL_MAX)} photos`
      : 'Single image';
  return (
    <div className={`${panels.panel} ${shared.panel}`}>
      <div className={styles.copyHead}>
        <h2 className={shared.panelTitle}>Ad text</h2>
        <RefreshAdCopyButton />
      </div>
      {adCopy.phase === 'failed' ? (
        // An error text is never ad copy: the failure is said as such, and the ad has no text until one is written.
        <p className={styles.copyError} role="alert" data-testid="ad-copy-error">
          {AD_COPY_PLACEHOLDERS.failed}. Write your own with Edit, or try Refresh ad copy again.
        </p>
      ) : (
        <p
          className={styles.copy}
          data-phase={adCopy.phase}
          data-testid="ad-copy"
          role={adCopy.busy ? 'status' : undefined}
        >
          {adCopy.text || 'No ad text yet: write your own with Edit, or let us write it with Refresh ad copy.'}
        </p>
      )}
      <dl className={styles.facts}>
        <div>
          <dt>Headline</dt>
          <dd>{draft.headline}</dd>
        </div>
        <div>
          <dt>Subtitle</dt>
          <dd>{draft.subtitle || '—'}</dd>
        </div>
        <div>
          <dt>Button</dt>
          <dd>{draft.callToAction}</dd>
        </div>
        <div>
          <dt>Format</dt>
          <dd>{format}</dd>
        </div>
        <div className={styles.factWide}>
          <dt>Link</dt>
          <dd className={styles.link}>{draft.link || 'Your listing page'}</dd>
        </div>
      </dl>
      <div className={shared.actions}>
        <button type="button" className={buttons.secondary} onClick={onEdit}>
          Edit
        </button>
        <button type="button" className={buttons.primary} onClick={onApprove}>
          Approve Ad
        </button>
      </div>
    </div>
  );
}
