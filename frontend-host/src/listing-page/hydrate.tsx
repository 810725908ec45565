import { StrictMode, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { ListingApp } from './ListingApp';
import { PAGE_DATA_ID, type ListingPageData } from './pageData';
import { makeListingStore } from './store';

/** Renders nothing; its effect runs once React has committed the hydrated tree. */
function Hydrated({ onDone }: { onDone: () => void }) {
  useEffect(onDone, [onDone]);
  return null;
}

/**
 * Hydrates the server's HTML with the page's React app (entry-client.tsx calls this on the buyer's first
 * interaction). The server rendered the page from the inlined data; the same data seeds RTK Query, so
 * hydration renders exactly what the server did. Resolves once the tree is live (its handlers attached).
 */
export function hydrate(root: HTMLElement): Promise<void> {
  const page = JSON.parse(document.getElementById(PAGE_DATA_ID)!.textContent!) as ListingPageData;
  const store = makeListingStore(page);
  return new Promise((resolve) => {
    hydrateRoot(
      root,
      <StrictMode>
        <Provider store={store}>
          <ListingApp page={page} />
          <Hydrated onDone={resolve} />
        </Provider>
      </StrictMode>,
    );
  });
}
