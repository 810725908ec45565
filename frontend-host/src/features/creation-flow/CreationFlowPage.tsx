import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Spinner } from '@app/ui';
import { Wizard } from './Wizard';

const SuccessPage = lazy(() => import('../success/SuccessPage'));

/** `/`: the campaign creation wizard; `?payment=success` shows the success screen instead. */
export default function CreationFlowPage() {
  const [params] = useSearchParams();
  if (params.get('payment') === 'success') {
    return (
      <Suspense fallback={<Spinner fullPage />}>
        <SuccessPage />
      </Suspense>
    );
  }
  return <Wizard />;
}
