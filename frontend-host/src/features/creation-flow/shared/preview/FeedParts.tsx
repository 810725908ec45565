import { initials } from '@app/contracts';
import { useState, type ReactNode } from 'react';
import { LISTING_PLACEHOLDER, thumbnailUrl } from '../ListingPhoto';
import styles from './AdPreview.module.css';

/**
 * Sample engagement shown under every preview. Deliberately fixed (spec 000 §2: "fixed sample
 * engagement numbers"): the ad has not run, so there are no real reactions to show, and numbers
 * that changed between renders would suggest there were.
 */
const SAMPLE_ENGAGEMENT = { reactions: 24, comments: 5, shares: 3 } as const;

/** The sample reactions, comments and shares, and the feed's Like, Comment and Share row. */
export function Engagement() {
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

/** The bar under an ad's photo: (the site,) the headline, the line under it, and the button. */
export function LinkFoot({
  className,
  headlineClassName,
  domain,
  ad,
}: {
  className: string;
  headlineClassName: string;
  domain?: ReactNode;
  ad: { headline: string; linkDescription: string; callToAction: string };
}) {
  return (
    <div className={className}>
      <div className={styles.linkText}>
        {domain}
        <p className={headlineClassName}>{ad.headline || 'Your headline'}</p>
        {ad.linkDescription && (
          <p className={styles.subtitle} data-testid="ad-link-description">
            {ad.linkDescription}
          </p>
        )}
      </div>
      <span className={styles.cta}>{ad.callToAction || 'Learn more'}</span>
    </div>
  );
}

/** The page's picture: the agent's photo, else their initials. */
export function Avatar({ url, name }: { url: string | null; name: string }) {
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

export const GlobeIcon = () => (
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
