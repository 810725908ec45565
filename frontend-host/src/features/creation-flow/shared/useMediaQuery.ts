import { useCallback, useSyncExternalStore } from 'react';

/** Where the wizard shows a side pane (the ad preview, the contact card) instead of a compact preview. */
export const DESKTOP_QUERY = '(min-width: 960px)';

/**
 * Whether a media query matches, kept up to date. Used where phone and desktop render different
 * things (not just different styles), so only one of them is in the page at a time.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
