import '@app/ui/tokens.css';
import './listing.css';

/**
 * The listing page's only script at load, a few hundred bytes. The server's HTML is the whole page: photos,
 * facts, map, agent, footer, all readable and all links working without JavaScript. Buyers arrive from an
 * ad on a phone and most only look, so React and the page's app (hydrate.tsx, ~100 KiB gzip) are not run
 * at load: the browser fetches them while idle after load, and runs them when the buyer
 * starts to interact (a touch, a pointer press or hover, a key, focus). A tap on a button (a photo, Contact
 * Agent, Schedule a Tour) that comes before the app is live is held and replayed once it is, so it is never
 * lost. An image that fails before then is re-reported, so React swaps in the placeholder.
 */
const root = document.getElementById('root')!;
const held: HTMLElement[] = [];
const failed: HTMLImageElement[] = [];
let live = false;
let starting: Promise<void> | null = null;

const TRIGGERS = ['pointerdown', 'pointerover', 'touchstart', 'keydown', 'focusin'] as const;

function start(): Promise<void> {
  starting ??= import('./hydrate')
    .then(({ hydrate }) => hydrate(root))
    .then(() => {
      live = true;
      document.removeEventListener('click', holdClick, true);
      document.removeEventListener('error', noteFailure, true);
      for (const img of failed.splice(0)) if (img.isConnected) img.dispatchEvent(new Event('error'));
      for (const el of held.splice(0)) if (el.isConnected) el.click();
    })
    .catch((err: unknown) => {
      // The app did not load (a dropped connection): the held taps are dropped, and the next tap tries again.
      held.length = 0;
      starting = null;
      console.error('the listing page app did not start', err);
    });
  return starting;
}

function holdClick(event: MouseEvent) {
  if (live) return;
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  if (!button || !root.contains(button)) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  if (!held.includes(button)) held.push(button);
  void start();
}

function noteFailed(img: HTMLImageElement) {
  if (live || !root.contains(img)) return;
  failed.push(img);
  void start();
}

function noteFailure(event: Event) {
  if (event.target instanceof HTMLImageElement) noteFailed(event.target);
}

document.addEventListener('click', holdClick, true);
document.addEventListener('error', noteFailure, true);
for (const type of TRIGGERS) document.addEventListener(type, () => void start(), { capture: true, once: true, passive: true });

// An image that failed while the HTML was still being parsed (before this script ran) is reported too.
for (const img of root.querySelectorAll('img')) {
  if (img.complete && img.naturalWidth === 0 && img.getAttribute('src')) noteFailed(img);
}

// The map embed (data-src) loads only when the buyer scrolls near it; it is far below the first screen.
const maps = document.querySelectorAll<HTMLIFrameElement>('iframe[data-src]');
if (maps.length && 'IntersectionObserver' in window) {
  const seen = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        const frame = e.target as HTMLIFrameElement;
        frame.src = frame.dataset.src!;
        seen.unobserve(frame);
      }
    },
    { rootMargin: '400px 0px' },
  );
  maps.forEach((m) => seen.observe(m));
} else {
  maps.forEach((m) => (m.src = m.dataset.src!));
}

// Fetch the app into the HTTP cache while the browser is idle after load. A prefetch only downloads: compiling
// (which modulepreload would do now, on the main thread) waits for the first interaction.
function prefetch() {
  for (const href of (document.querySelector<HTMLScriptElement>('script[data-app]')?.dataset.app ?? '').split(' ').filter(Boolean)) {
    const link = document.createElement('link');
    link.rel = 'prefetch';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
}
const whenIdle = (fn: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(fn, { timeout: 2000 }) : setTimeout(fn, 200));
if (document.readyState === 'complete') whenIdle(prefetch);
else window.addEventListener('load', () => whenIdle(prefetch), { once: true });
