import { PageShell } from '../../components/PageShell';

/** `/checkout/:campaignId` (built in a later issue). */
export default function CheckoutPage() {
  return <PageShell title="Checkout" />;
}
