import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageShell } from '../../components/PageShell';
import { Spinner } from '../../components/Spinner';

const SuccessPage = lazy(() => import('../success/SuccessPage'));

/** `/`: the campaign creation wizard (built in a later issue); `?payment=success` shows the success screen. */
export default function CreationFlowPage() {
  const [params] = useSearchParams();
  if (params.get('payment') === 'success') {
    return (
      <Suspense fallback={<Spinner fullPage />}>
        <SuccessPage />
      </Suspense>
    );
  }
  return <PageShell title="Create Your Listing Ad Campaign" />;
}
