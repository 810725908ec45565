import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { ListingApp } from './ListingApp';
import { PAGE_DATA_ID, type ListingPageData } from './pageData';
import { makeListingStore } from './store';
import '@app/ui/tokens.css';
import './listing.css';

// The server rendered the page from this data; the same data seeds RTK Query so hydration matches.
const page = JSON.parse(document.getElementById(PAGE_DATA_ID)!.textContent!) as ListingPageData;
const store = makeListingStore(page);

// Hydrating inside a transition lets React yield to the browser every few milliseconds instead of one long
// task: the page is already painted from the server's HTML, and a tap during hydration is replayed by React.
startTransition(() => {
  hydrateRoot(
    document.getElementById('root')!,
    <StrictMode>
      <Provider store={store}>
        <ListingApp page={page} />
      </Provider>
    </StrictMode>,
  );
});
