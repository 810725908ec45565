import { LEGAL_UPDATED, LegalPage } from './LegalPage';

/** `/terms`: what the agent agrees to at checkout (spec 000 §5: the terms checkbox). */
export default function TermsPage() {
  return (
    <LegalPage title="Terms of Service" updated={LEGAL_UPDATED}>
      <h2>1. The service</h2>
      <p>
        Listing Ads lets a licensed real-estate agent promote one property listing with a paid Facebook and Instagram
        impressions campaign. You choose the listing, the ad format, the ad text, your branding, the area and the budget;
        we create the campaign on Meta's ad platform under the Housing special ad category, run it for the timeframe
        shown at checkout, and report its impressions, reach, clicks and leads on your dashboard.
      </p>

      <h2>2. Your account and your listing</h2>
      <ul>
        <li>You may use the wizard without an account. A campaign started that way belongs to the browser that created it until you set an email and password.</li>
        <li>You confirm that you are licensed to market the listing, that its facts and photos are accurate, and that you have the right to use every photo and logo you upload.</li>
        <li>You are responsible for the ad text you approve. We may refuse or pause an ad that breaks these terms, the law or Meta's advertising policies.</li>
      </ul>

      <h2>3. Payment</h2>
      <ul>
        <li>The price is the budget you choose (from $99 to $999, in US dollars). It is charged once, in full, at checkout, by our card processor Stripe. There is no subscription and no further charge.</li>
        <li>We never see or store your full card number; Stripe processes it under its own terms.</li>
        <li>Your campaign is created only after the payment is confirmed by Stripe.</li>
      </ul>

      <h2>4. Impressions guarantee</h2>
      <ul>
        <li>The number of impressions shown at checkout is guaranteed: the campaign runs until that many impressions are delivered, within the timeframe shown (for example 7–10 days for 5,000 impressions).</li>
        <li>Estimated reach (the number of different people) is an estimate, not a guarantee. So are clicks and leads.</li>
        <li>If the campaign delivers fewer impressions than guaranteed by the end of its timeframe, we refund the undelivered share of the price, in proportion to the shortfall.</li>
      </ul>

      <h2>5. Refunds and cancellation</h2>
      <ul>
        <li>If your campaign cannot be launched (for example Meta rejects the ad and it cannot be corrected), we refund the full price.</li>
        <li>You may cancel a paid campaign before it goes live for a full refund. Once it is live, the impressions already delivered are not refundable; the undelivered share is refunded.</li>
        <li>Refunds go back to the card you paid with, usually within 5–10 business days. Ask for one at any time from your dashboard or by email.</li>
      </ul>

      <h2>6. Housing ads and fair housing</h2>
      <ul>
        <li>Every campaign runs in Meta's Housing special ad category. As that category and the Fair Housing Act require, targeting offers no age, gender, ZIP code or exclusion options, and the area is at least a 15-mile radius.</li>
        <li>Ad text must not state or suggest a preference, limitation or discrimination based on race, color, religion, sex, disability, familial status or national origin (or any other class protected where the listing is). The wizard warns about common problem phrases; the responsibility for the text stays yours.</li>
        <li>Several states require the brokerage's name in real-estate advertising. Your ad carries your name and your brokerage, as the preview shows.</li>
      </ul>

      <h2>7. Leads and your data</h2>
      <p>
        Buyers who answer your ad reach your listing's public page and may send you their contact details. We deliver them
        to you by email and to the webhook, Zapier or CRM you connect. How we handle personal data is described in the{' '}
        <a href="/privacy">Privacy Policy</a>.
      </p>

      <h2>8. Liability</h2>
      <p>
        The service is provided as described above. Our total liability for a campaign is limited to the price you paid
        for it. We are not liable for the outcome of a sale, for the content you approve, or for outages of Meta, Stripe
        or your own systems, beyond the refunds these terms promise.
      </p>

      <h2>9. Changes and contact</h2>
      <p>
        We may update these terms; the version shown at checkout applies to that campaign. Questions:
        support@listingads.example.
      </p>
    </LegalPage>
  );
}
