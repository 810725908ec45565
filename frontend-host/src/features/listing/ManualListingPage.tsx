import { PageShell } from '../../components/PageShell';

/** `/manual-listing/:mlsId` (built in a later issue). */
export default function ManualListingPage() {
  return <PageShell title="Property Listing" />;
}
