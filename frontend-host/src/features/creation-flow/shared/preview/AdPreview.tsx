import { initials } from '@app/contracts';
import { visuallyHidden } from '@app/ui';
import { useEffect, useId, useRef, useState, type PointerEvent } from 'react';
import type { AdCopyPhase } from '../ad-copy/adCopyRules';
import { LISTING_PLACEHOLDER, thumbnailUrl } from '../ListingPhoto';
import styles from './AdPreview.module.css';

/**
 * Sample engagement shown under every preview. Deliberately fixed (spec 000 §2: "fixed sample
 * engagement numbers"): the ad has not run, so there are no real reactions to show, and numbers
 * that changed between renders would suggest there were.
 */
export const SAMPLE_ENGAGEMENT = { reactions: 24, comments: 5, shares: 3 } as const;

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
        <Carousel ad={ad} />
      ) : (
        <>
          <SafeImage src={ad.images[0] ?? null} alt={`Photo of ${ad.photoAlt}`} className={styles.singleImage} />
          <div className={styles.linkBar}>
            <div className={styles.linkText}>
              <p className={styles.domain}>{domainOf(ad.link)}</p>
              <p className={styles.headline}>{ad.headline || 'Your headline'}</p>
              {ad.linkDescription && (
                <p className={styles.subtitle} data-testid="ad-link-description">
                  {ad.linkDescription}
                </p>
              )}
            </div>
            <span className={styles.cta}>{ad.callToAction || 'Learn more'}</span>
          </div>
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

/** The carousel viewer: one card at a time with a peek of the next; previous and next wrap around (spec 000 §4). */
function Carousel({ ad }: { ad: AdPreviewModel }) {
  const [index, setIndex] = useState(0);
  const count = ad.images.length;
  const current = Math.min(index, count - 1);
  const statusId = useId();
  const swipe = useRef<{ x: number; id: number } | null>(null);

  // Fewer images than before (edited in step 3): stay on a card that exists.
  useEffect(() => {
    if (index > count - 1) setIndex(Math.max(0, count - 1));
  }, [count, index]);

  const go = (delta: number) => setIndex((i) => (((Math.min(i, count - 1) + delta) % count) + count) % count);

  const onPointerDown = (event: PointerEvent) => {
    swipe.current = { x: event.clientX, id: event.pointerId };
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = swipe.current;
    swipe.current = null;
    if (!start || start.id !== event.pointerId) return;
    const dx = event.clientX - start.x;
    if (Math.abs(dx) > 40) go(dx < 0 ? 1 : -1);
  };

  return (
    <div className={styles.carousel} role="group" aria-roledescription="carousel" aria-label="Ad photos">
      <div className={styles.viewport} onPointerDown={onPointerDown} onPointerUp={onPointerUp}>
        <ul className={styles.track} style={{ ['--index' as string]: current }}>
          {ad.images.map((src, i) => (
            <li
              key={`${src}-${i}`}
              className={styles.card}
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${count}`}
              aria-hidden={i !== current}
              data-testid="carousel-card"
              data-active={i === current ? 'true' : 'false'}
            >
              <SafeImage src={src} alt={`Photo ${i + 1} of ${ad.photoAlt}`} className={styles.cardImage} />
              <div className={styles.cardFoot}>
                <div className={styles.linkText}>
                  <p className={styles.cardHeadline}>{ad.headline || 'Your headline'}</p>
                  {ad.linkDescription && (
                    <p className={styles.subtitle} data-testid="ad-link-description">
                      {ad.linkDescription}
                    </p>
                  )}
                </div>
                <span className={styles.cta}>{ad.callToAction || 'Learn more'}</span>
              </div>
            </li>
          ))}
        </ul>
        <button type="button" className={`${styles.arrow} ${styles.prev}`} onClick={() => go(-1)} aria-label="Previous photo" aria-controls={statusId}>
          ‹
        </button>
        <button type="button" className={`${styles.arrow} ${styles.next}`} onClick={() => go(1)} aria-label="Next photo" aria-controls={statusId}>
          ›
        </button>
      </div>
      <div className={styles.dots} aria-hidden="true">
        {ad.images.map((src, i) => (
          <span key={`${src}-${i}`} className={styles.dot} data-active={i === current ? 'true' : undefined} />
        ))}
      </div>
      <p id={statusId} className={visuallyHidden} aria-live="polite" data-testid="carousel-status">
        Photo {current + 1} of {count}
      </p>
    </div>
  );
}

function Engagement() {
  const { reactions, comments, shares } = SAMPLE_ENGAGEMENT;
  return (
    <footer className={styles.engagement}>
      <div className={styles.counts} title="Sample engagement: your ad has not run yet">
        <span className={styles.reactions}>
          <span className={styles.like} aria-hidden="true">
            <ThumbIcon />
          </span>
          <span className={styles.love} aria-hidden="true">
            ♥
          </span>
          <span>{reactions}</span>
        </span>
        <span>
          {comments} comments · {shares} shares
        </span>
      </div>
      <div className={styles.actions} aria-hidden="true">
        <span>
          <ThumbIcon /> Like
        </span>
        <span>
          <CommentIcon /> Comment
        </span>
        <span>
          <ShareIcon /> Share
        </span>
      </div>
    </footer>
  );
}

function Avatar({ url, name }: { url: string | null; name: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (url && failed !== url) {
    return <img className={styles.avatar} src={thumbnailUrl(url)} alt="" onError={() => setFailed(url)} />;
  }
  return (
    <span className={`${styles.avatar} ${styles.initials}`} aria-hidden="true">
      {initials(name) || '•'}
    </span>
  );
}

/** An image that becomes the stock placeholder when it is missing or fails to load (spec 000 §2). */
export function SafeImage({ src, alt, className }: { src: string | null; alt: string; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const usable = src && failed !== src ? thumbnailUrl(src, 640) : LISTING_PLACEHOLDER;
  return (
    <img
      src={usable}
      alt={alt}
      className={className}
      decoding="async"
      draggable={false}
      data-placeholder={usable === LISTING_PLACEHOLDER ? 'true' : undefined}
      onError={() => {
        if (src && usable !== LISTING_PLACEHOLDER) setFailed(src);
      }}
    />
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

const GlobeIcon = () => (
  <svg className={styles.globe} viewBox="0 0 16 16" width="12" height="12" aria-label="Public" role="img">
    <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
    <path d="M1.5 8h13M8 1.5c2 2.2 2 10.8 0 13M8 1.5c-2 2.2-2 10.8 0 13" fill="none" stroke="currentColor" strokeWidth="1.2" />
  </svg>
);

const ThumbIcon = () => (
  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
    <path
      d="M5 7l2.6-5c1 0 1.7.8 1.5 1.8L8.6 6H13c.8 0 1.4.8 1.2 1.6l-1.2 5.2c-.1.7-.7 1.2-1.4 1.2H5V7zM1.5 7H4v7H1.5z"
      fill="currentColor"
    />
  </svg>
);

const CommentIcon = () => (
  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
    <path d="M8 2C4.1 2 1.5 4.4 1.5 7.3c0 1.6.8 3 2.1 4l-.5 2.7 2.8-1.5c.7.2 1.4.3 2.1.3 3.9 0 6.5-2.4 6.5-5.5S11.9 2 8 2z" fill="none" stroke="currentColor" strokeWidth="1.4" />
  </svg>
);

const ShareIcon = () => (
  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
    <path d="M9.5 2.5L14 7l-4.5 4.5V9C6 9 3.5 10.2 2 13c.5-4 2.8-7 7.5-7.5V2.5z" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
  </svg>
);
