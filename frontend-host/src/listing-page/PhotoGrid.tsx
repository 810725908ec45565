import { GALLERY_GRID_DESKTOP, GALLERY_GRID_MOBILE } from '@app/contracts/rules';
import { FULL_WIDTH_SIZES } from './images';
import { Photo } from './Photo';
import { Placeholder } from './Placeholder';

/**
 * Desktop: 1 large + up to 4 small, "+N more" on the last; mobile: 1 large + 2 small (CSS hides the rest),
 * "+N more" on the third. Every tile opens the gallery at its photo.
 */
export function PhotoGrid({ photos, status, alt, onOpen }: { photos: string[]; status: string; alt: string; onOpen: (index: number) => void }) {
  if (!photos.length) return <Placeholder status={status} className="lp-grid-empty" />;
  const shown = photos.slice(0, GALLERY_GRID_DESKTOP);
  const moreDesktop = photos.length - GALLERY_GRID_DESKTOP;
  const moreMobile = photos.length - GALLERY_GRID_MOBILE;
  return (
    <div className={`lp-grid lp-grid-${shown.length}`}>
      {shown.map((url, i) => {
        // Named by its content (hidden text, then the visible "+N more"), so the name contains what is seen.
        return (
        <button key={url + i} type="button" className={`lp-tile lp-tile-${i}`} onClick={() => onOpen(i)}>
          <span className="lp-sr">Open photo {i + 1} of {photos.length}</span>
          <Photo
            url={url}
            alt={i === 0 ? alt : ''}
            status={status}
            sizes={shown.length === 1 ? FULL_WIDTH_SIZES : i === 0 ? '(min-width: 900px) 50vw, 100vw' : '(min-width: 900px) 25vw, 50vw'}
            width={i === 0 ? 1280 : 640}
            height={i === 0 ? 960 : 480}
            priority={i === 0}
            // A small tile's fallback is a plain colour: its "just sold" label would run into "+N more".
            placeholderLabel={i === 0}
          />
          {i === GALLERY_GRID_MOBILE - 1 && moreMobile > 0 && <span className="lp-more lp-more-mobile">+{moreMobile} more</span>}
          {i === GALLERY_GRID_DESKTOP - 1 && moreDesktop > 0 && <span className="lp-more lp-more-desktop">+{moreDesktop} more</span>}
        </button>
        );
      })}
    </div>
  );
}
