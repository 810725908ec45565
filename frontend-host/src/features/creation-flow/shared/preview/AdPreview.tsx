import { useState } from 'react';
import type { AdCopyPhase } from '../../draft/adCopyRules';
import { AdCarousel } from './AdCarousel';
import { Avatar, Engagement, GlobeIcon, LinkFoot, SafeImage } from './FeedParts';
import styles from './AdPreview.module.css';

// The preview's photo, for the other places that show the ad's photos.
export { SafeImage };

export interface AdPreviewModel {
  /** The agent's name: the page the ad runs as. */
  pageName: string;
  /** Shown next to "Sponsored" when known: several states require the brokerage in the ad. */
  brokerage: string | null;
  avatarUrl: string | null;
  text: string;
  textPhase: AdCopyPhase;
  headline: string;
  /** The line under the headline, exactly as the launch sends it (adLinkDescription: advertiser — subtitle). */
  linkDescription: string;
  callToAction: string;
  link: string;
  format: 'single' | 'carousel';
  /** Single: the one image (or none); carousel: its images in order. */
  images: string[];
  /** Alt text base for the photos, e.g. the listing's address. */
  photoAlt: string;
}

export interface AdPreviewProps {
  ad: AdPreviewModel;
  /** 'pane': the desktop side pane; 'full': the mobile modal. */
  variant?: 'pane' | 'full';
}

/** A Facebook-style feed ad built from the campaign draft (spec 000 §2). Purely presentational. */
export function AdPreview({ ad, variant = 'pane' }: AdPreviewProps) {
  return (
    <article className={styles.ad} data-variant={variant} aria-label="Facebook ad preview" data-testid="ad-preview">
      <header className={styles.head}>
        <Avatar url={ad.avatarUrl} name={ad.pageName} />
        <div className={styles.who}>
          <p className={styles.page}>{ad.pageName || 'Your name'}</p>
          <p className={styles.meta}>
            {ad.brokerage && (
              <>
                <span className={styles.brokerage}>{ad.brokerage}</span>
                <span aria-hidden="true"> · </span>
              </>
            )}
            <span>Sponsored</span>
            <span aria-hidden="true"> · </span>
            <GlobeIcon />
          </p>
        </div>
        <span className={styles.more} aria-hidden="true">
          •••
        </span>
      </header>

      <PrimaryText text={ad.text} phase={ad.textPhase} />

      {ad.format === 'carousel' && ad.images.length > 1 ? (
        <AdCarousel ad={ad} />
      ) : (
        <>
          <SafeImage src={ad.images[0] ?? null} alt={`Photo of ${ad.photoAlt}`} className={styles.singleImage} />
          <LinkFoot className={styles.linkBar} headlineClassName={styles.headline} domain={<p className={styles.domain}>{domainOf(ad.link)}</p>} ad={ad} />
        </>
      )}

      <Engagement />
    </article>
  );
}

function PrimaryText({ text, phase }: { text: string; phase: AdCopyPhase }) {
  const [expanded, setExpanded] = useState(false);
  const long = text.length > 220;
  if (phase === 'generating' || phase === 'regenerating') {
    return (
      <p className={`${styles.text} ${styles.pending}`} role="status" data-testid="ad-primary-text">
        <span className={styles.dotSpinner} aria-hidden="true" />
        {text}
      </p>
    );
  }
  if (phase === 'failed' || !text) {
    return (
      <p className={`${styles.text} ${styles.pending}`} data-testid="ad-primary-text">
        Your ad text will appear here.
      </p>
    );
  }
  return (
    <div className={styles.textWrap}>
      <p className={styles.text} data-clamped={long && !expanded ? 'true' : undefined} data-testid="ad-primary-text">
        {text}
      </p>
      {long && (
        <button type="button" className={styles.seeMore} onClick={() => setExpanded((v) => !v)} aria-expanded={expanded}>
          {expanded ? 'See less' : 'See more'}
        </button>
      )}
    </div>
  );
}

/** "LISTINGADS.EXAMPLE" as Facebook shows a link's site above the headline. */
export function domainOf(link: string): string {
  try {
    return new URL(link).host.replace(/^www\./, '').toUpperCase();
  } catch {
    return '';
  }
}

