import { useCallback, useRef, useState, type TouchEvent } from 'react';
import { wrapIndex } from '@app/contracts/rules';
import { srcOf, srcSetOf } from './images';
import { useFocusTrap } from './useFocusTrap';

/** Full-screen gallery: previous/next with a wrapping index, "n / total", ←, →, Esc, swipe; focus stays inside. */
export function Gallery({ photos, start, alt, onClose }: { photos: string[]; start: number; alt: string; onClose: () => void }) {
  const [index, setIndex] = useState(start);
  const ref = useRef<HTMLDivElement>(null);
  const touchX = useRef<number | null>(null);
  const total = photos.length;
  const go = useCallback((delta: number) => setIndex((i) => wrapIndex(i + delta, total)), [total]);
  useFocusTrap(ref, true, onClose);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      go(1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go(-1);
    }
  };
  const onTouchStart = (e: TouchEvent) => {
    touchX.current = e.touches[0]?.clientX ?? null;
  };
  const onTouchEnd = (e: TouchEvent) => {
    const from = touchX.current;
    const to = e.changedTouches[0]?.clientX;
    touchX.current = null;
    if (from === null || to === undefined || Math.abs(to - from) < 40) return;
    go(to < from ? 1 : -1);
  };
  const url = photos[index];

  return (
    <div className="lp-gallery" role="dialog" aria-modal="true" aria-label="Photo gallery" ref={ref} tabIndex={-1} onKeyDown={onKeyDown} onTouchStart={onTouchStart} onTouchEnd={onTouchEnd}>
      <div className="lp-gallery-bar">
        <span className="lp-gallery-count" aria-live="polite">
          {index + 1} / {total}
        </span>
        <button type="button" className="lp-gallery-close" aria-label="Close gallery" onClick={onClose} data-autofocus>
          ×
        </button>
      </div>
      <img className="lp-gallery-img" src={srcOf(url)} srcSet={srcSetOf(url)} sizes="100vw" alt={`${alt}, photo ${index + 1} of ${total}`} />
      <button type="button" className="lp-gallery-nav lp-gallery-prev" aria-label="Previous photo" onClick={() => go(-1)}>
        ‹
      </button>
      <button type="button" className="lp-gallery-nav lp-gallery-next" aria-label="Next photo" onClick={() => go(1)}>
        ›
      </button>
    </div>
  );
}
