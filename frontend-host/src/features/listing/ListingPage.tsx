import { useEffect } from 'react';
import { Spinner } from '@app/ui';

/**
 * `/listing/:mlsId` and `/manual-listing/:mlsId` are server-rendered by the backend from their own page
 * entry (src/listing-page). Reached by client-side navigation inside the host, the page is loaded from
 * the server, which renders it (and redirects MANUAL- ids).
 */
export default function ListingPage() {
  useEffect(() => {
    window.location.replace(window.location.href);
  }, []);
  return <Spinner fullPage />;
}
