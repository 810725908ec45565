import { visuallyHidden } from '@app/ui';
import { useEffect, useId, useRef, useState, type PointerEvent } from 'react';
import { LinkFoot, SafeImage } from './FeedParts';
import styles from './AdPreview.module.css';

/** What a carousel shows of the ad: its photos, and the headline, line and button under each. */
export interface CarouselAd {
  images: string[];
  photoAlt: string;
  headline: string;
  linkDescription: string;
  callToAction: string;
}

/** The carousel viewer: one card at a time with a peek of the next; previous and next wrap around (spec 000 §4). */
export function AdCarousel({ ad }: { ad: CarouselAd }) {
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
              <LinkFoot className={styles.cardFoot} headlineClassName={styles.cardHeadline} ad={ad} />
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
