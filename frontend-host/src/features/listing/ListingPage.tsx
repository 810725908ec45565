import { Navigate, useParams } from 'react-router-dom';
import { PageShell } from '../../components/PageShell';

/** `/listing/:mlsId`; manually entered listings live at `/manual-listing/:mlsId`. */
export default function ListingPage() {
  const { mlsId = '' } = useParams();
  if (mlsId.startsWith('MANUAL-')) {
    return <Navigate to={`/manual-listing/${encodeURIComponent(mlsId)}`} replace />;
  }
  return <PageShell title="Property Listing" />;
}
