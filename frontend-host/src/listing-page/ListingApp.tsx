import { Spinner } from '@app/ui';
import { ListingView } from './ListingView';
import { ManualListingView } from './ManualListingView';
import { NotFound } from './NotFound';
import { useGetListingCampaignQuery, useGetListingQuery } from './listingApi';
import type { ListingPageData } from './pageData';
import { Toasts } from './Toasts';

/** The page's root: the data comes from RTK Query (already filled from the server's render). */
export function ListingApp({ page }: { page: ListingPageData }) {
  const skip = page.kind === 'not-found';
  const listing = useGetListingQuery(page.mlsId, { skip });
  const campaign = useGetListingCampaignQuery(page.mlsId, { skip: skip || page.kind !== 'manual' });
  let body;
  if (skip || listing.isError) body = <NotFound />;
  else if (!listing.data) body = <Spinner fullPage />;
  else if (page.kind === 'manual') body = <ManualListingView data={listing.data} campaign={campaign.data ?? null} formToken={page.formToken} pageUrl={page.pageUrl} />;
  else body = <ListingView data={listing.data} formToken={page.formToken} pageUrl={page.pageUrl} />;
  return (
    <>
      {body}
      <Toasts />
    </>
  );
}
