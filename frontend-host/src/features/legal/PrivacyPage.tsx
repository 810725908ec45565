import { LEGAL_UPDATED, LegalPage } from './LegalPage';

/** `/privacy`: what data the product keeps, why, and with whom it is shared. */
export default function PrivacyPage() {
  return (
    <LegalPage title="Privacy Policy" updated={LEGAL_UPDATED}>
      <h2>What we collect</h2>
      <ul>
        <li>
          <strong>About you, the agent:</strong> your name, state, email, phone, brokerage, MLS ID, profile photo and
          logo, and, if you set up an account, a password (stored only as a one-way hash).
        </li>
        <li>
          <strong>About your listing:</strong> the facts and photos loaded from your MLS or entered by you.
        </li>
        <li>
          <strong>About your campaign:</strong> its ad text, targeting, budget, payment status and delivery figures.
        </li>
        <li>
          <strong>About buyers who contact you:</strong> what they send through your listing page (name, email, phone,
          message) with the consent they gave.
        </li>
        <li>
          <strong>Payment:</strong> Stripe processes your card. We keep only the payment's reference, amount and status,
          never the card number.
        </li>
      </ul>

      <h2>How we use it</h2>
      <ul>
        <li>To build, run and report your campaign, and to publish your listing's public page.</li>
        <li>To deliver leads to you and to contact you about your campaign.</li>
        <li>With your consent given at checkout, to tell you about related marketing services. You can opt out at any time.</li>
        <li>To prevent fraud and abuse, and to meet legal obligations (for example tax records of payments).</li>
      </ul>

      <h2>Who we share it with</h2>
      <ul>
        <li>Meta (Facebook and Instagram), to run your ad: the ad text, images, link and targeting area, never buyers' data.</li>
        <li>Stripe, to take the payment.</li>
        <li>Our email provider, to send you messages and leads.</li>
        <li>The webhook, Zapier or CRM you connect yourself, which receive your leads.</li>
      </ul>
      <p>We do not sell personal data.</p>

      <h2>Cookies and browser storage</h2>
      <p>
        We use one session cookie to keep you signed in and to tie a campaign to the browser that created it. The wizard
        keeps its draft (agent, listing, path and campaign) in your browser's session storage until you finish or start
        over. We use no advertising cookies on these pages.
      </p>

      <h2>How long we keep it</h2>
      <p>
        Campaign, payment and lead records are kept while your account exists and as long as tax and advertising rules
        require afterwards. Wizard drafts that are never paid are deleted after 90 days.
      </p>

      <h2>Your choices</h2>
      <p>
        You can see and correct your information from your dashboard, and ask us to export or delete it by writing to
        privacy@listingads.example. Buyers who contacted you can ask the same of us, and of you.
      </p>

      <h2>Security</h2>
      <p>
        Passwords are hashed, secrets you give us (webhook and CRM keys) are encrypted at rest, and every connection is
        encrypted. Access to your data requires your session or your password.
      </p>
    </LegalPage>
  );
}
