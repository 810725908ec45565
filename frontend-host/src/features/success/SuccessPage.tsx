import { PageShell } from '../../components/PageShell';

/** `/success` and `/?payment=success` (built in a later issue). */
export default function SuccessPage() {
  return <PageShell title="Payment Successful!" />;
}
