import type { Page } from '@playwright/test';
import { expect, requestFailures, test } from './fixtures';
import { linkTokenTo } from './accounts';
import { makePng } from './png';

interface Created {
  agent: { id: number };
  listing: { id: number; mlsId: string };
  campaign: { id: number };
}

/** Uploads a listing photo as the wizard does (signed URL, then PUT) and answers its stored path. */
async function uploadPhoto(page: Page, baseURL: string | undefined): Promise<string> {
  const signed = await page.request.post('/api/objects/upload', { headers: { origin: baseURL! } });
  expect(signed.ok(), await signed.text()).toBe(true);
  const { uploadURL } = (await signed.json()) as { uploadURL: string };
  const put = await page.request.put(uploadURL, {
    data: makePng(640, 480, [37, 99, 235]),
    headers: { 'content-type': 'image/png', origin: baseURL! },
  });
  expect(put.ok(), await put.text()).toBe(true);
  // Spec 000 §7: the stored path is /objects/uploads/{last URL segment without query}.
  return `/objects/uploads/${new URL(uploadURL).pathname.split('/').pop()}`;
}

/**
 * The wizard's result, made through the API in the page's own browser context (so this session owns
 * the agent, listing and campaign): a manual agent, an active listing in Tampa and a $299 draft.
 * The ad gets an uploaded photo: the server refuses a draft with no picture (an ad needs one).
 */
async function createDraftCampaign(page: Page, baseURL: string | undefined): Promise<Created> {
  const headers = { origin: baseURL! };
  const post = async <T,>(url: string, data: Record<string, unknown>): Promise<T> => {
    const response = await page.request.post(url, { data, headers });
    expect(response.ok(), `${url}: ${response.status()} ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  };
  const agent = await post<Created['agent']>('/api/agents', { name: 'Pat Buyer', state: 'FL', manualEntry: true });
  // Upload slots go to a session that owns an agent.
  const imageUrl = await uploadPhoto(page, baseURL);
  const listing = await post<Created['listing']>('/api/listings', {
    agentId: agent.id,
    address: '2417 Bayshore Blvd',
    city: 'Tampa',
    state: 'FL',
    price: '450000',
    bedrooms: 3,
    bathrooms: '2.0',
    squareFeet: 1800,
    status: 'active',
    images: [],
    imageUrl: null,
    mlsId: '',
  });
  const campaign = await post<Created['campaign']>('/api/campaigns', {
    agentId: agent.id,
    listingId: listing.id,
    templateType: 'just-listed',
    adFormat: 'single',
    headline: 'Amazing Property in Tampa',
    description: 'Bright 3 bed home.',
    subtitle: 'Looking to buy, rent or sell?',
    callToAction: 'Learn more',
    targetAudience: 'Local Home Buyers (25-55)',
    price: '299',
    status: 'draft',
    imageUrl,
    carouselImages: [],
    link: null,
  });
  return { agent, listing, campaign };
}

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const payButton = (page: Page) => page.getByRole('button', { name: /^Pay \$299$/ });
const termsBox = (page: Page) => page.getByRole('checkbox', { name: 'I agree to the Terms of Service and Privacy Policy.' });

/** A year that is always in the future, as the form's two digits. */
const EXPIRY = `12/${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`;

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill(EXPIRY.replace('/', ''));
  await page.getByLabel('CVC').fill('123');
}

const SUCCESS_URL = /\/\?payment=success&campaignId=\d+&listingId=\d+&payment_intent=[^&]+&redirect_status=succeeded$/;

test.describe('checkout and success screen', () => {
  // While the emailed link waits to be opened, the success screen asks who this browser is (auth/me: 401 until
  // then). Opening the link ends every other session's access to the agent and signs this browser in under a new
  // session id; a read of the agent that the success screen sends while that happens may be answered as a
  // stranger's (404), and the next one, with the new id, succeeds.
  // (Wrapped as [value, options]: a bare two-element array would be read as such a fixture tuple.)
  test.use({
    expectedRequestFailures: requestFailures(
      { url: /\/api\/auth\/me$/, status: 401 },
      { url: /\/api\/agents\/\d+$/, status: 404 },
    ),
  });

  test('4242 pays, the campaign goes live, and the agent sets up an account', async ({ page, baseURL, context }) => {
    test.setTimeout(90_000);
    const { agent, listing, campaign } = await createDraftCampaign(page, baseURL);
    const stripeRequests: string[] = [];
    page.on('request', (request) => {
      if (/stripe/i.test(request.url())) stripeRequests.push(request.url());
    });

    await page.goto(`/checkout/${campaign.id}`);
    await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary.getByText('Instant Listings Impressions Campaign')).toBeVisible();
    await expect(summary.getByText('15,000 impressions')).toBeVisible();
    await expect(summary.getByText('Facebook Ad Campaign')).toBeVisible();
    await expect(summary.getByText('Total due')).toBeVisible();
    await expect(summary.getByTestId('total-due')).toHaveText('$299');
    await expect(page.getByText('Test mode — local test payments: use 4242 4242 4242 4242')).toBeVisible();
    await expect(page.getByText(/Consent is not a condition of purchase/)).toBeVisible();

    // The card number is grouped by 4 as it is typed; the expiry gets its slash.
    await page.getByLabel('Card number').fill('4242424242424242');
    await expect(page.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill(EXPIRY.replace('/', ''));
    await expect(page.getByLabel('Expiry (MM/YY)')).toHaveValue(EXPIRY);
    await page.getByLabel('CVC').fill('123');

    await termsBox(page).check();
    await expect(payButton(page)).toBeEnabled();
    await payButton(page).click();

    await expect(page).toHaveURL(SUCCESS_URL, { timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('campaignId')).toBe(String(campaign.id));
    // The local provider never downloads Stripe Elements or Stripe.js.
    expect(stripeRequests).toEqual([]);
    await expect(page.getByRole('heading', { name: 'Payment Successful!', level: 1 })).toBeVisible();
    await expect(page.getByText('Your Facebook ad campaign has been created and will start running shortly.')).toBeVisible();
    await expect(toasts(page).getByText('Campaign Created!')).toBeVisible();
    await expect(toasts(page).getByText('Your Facebook ad is now live and running!')).toBeVisible();
    await expect(page.getByRole('heading', { name: "What's Next?" })).toBeVisible();

    const propertyPage = page.getByRole('link', { name: 'View Property Page' });
    await expect(propertyPage).toHaveAttribute('target', '_blank');
    await expect(propertyPage).toHaveAttribute(
      'href',
      new RegExp(`^/(listing/${listing.id}|manual-listing/${listing.mlsId})$`),
    );
    const another = page.getByRole('link', { name: 'Create Another Campaign' });
    await expect(another).toHaveAttribute('href', '/');
    await expect(another).toHaveAttribute('target', '_blank');

    // The agent has no password yet: the setup dialog opens by itself, once.
    const dialog = page.getByRole('dialog', { name: 'Complete Your Account Setup' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAttribute('aria-modal', 'true');
    await expect(dialog.getByRole('textbox', { name: 'Email' })).toBeFocused();
    // Focus stays in the dialog however far one tabs, either way.
    for (let i = 0; i < 7; i++) await page.keyboard.press('Tab');
    await expect(dialog.locator(':focus')).toHaveCount(1);
    for (let i = 0; i < 7; i++) await page.keyboard.press('Shift+Tab');
    await expect(dialog.locator(':focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await page.mouse.click(8, 8);
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Maybe later' }).click();
    await expect(dialog).toBeHidden();

    // The sandbox ad platform launches within seconds; the screen follows it by polling.
    const status = page.getByTestId('launch-status');
    await expect(status).toContainText('Live', { timeout: 45_000 });

    // The dashboard buttons read the agent: nobody has set it up, so the dialog again. The password is optional,
    // but checked when typed.
    await page.getByRole('button', { name: 'Agent Dashboard' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
    await dialog.getByLabel('Password (optional)').fill('abc');
    await dialog.getByLabel('Confirm Password').fill('abd');
    await dialog.getByRole('button', { name: 'Complete Setup' }).click();
    await expect(dialog.getByText('Please enter a valid email address')).toBeVisible();
    await expect(dialog.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(dialog.getByText("Passwords don't match")).toBeVisible();

    const email = `pat.buyer.${Date.now()}@example.com`;
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
    await dialog.getByLabel('Password (optional)').fill('sunny-tampa-1');
    await dialog.getByLabel('Confirm Password').fill('sunny-tampa-1');
    await dialog.getByRole('button', { name: 'Complete Setup' }).click();
    // The dialog says where the one-time link went and waits for it.
    await expect(dialog.getByText(`We sent a link to ${email}`, { exact: false })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Resend email' })).toBeVisible();

    // The agent opens the emailed link in this browser: one click signs it in and opens the dashboard. Meanwhile the
    // success screen, watching who this browser is, may already open its own dashboard tab: every new tab is kept.
    const tabs: Page[] = [];
    context.on('page', (p) => tabs.push(p));
    const token = await linkTokenTo(email);
    const verifyTab = await context.newPage();
    await verifyTab.goto(`/verify-email?token=${token}`);
    await verifyTab.getByRole('button', { name: 'Confirm and sign in' }).click();
    await verifyTab.waitForURL((url) => url.pathname === '/dashboard' && url.searchParams.get('agent') === String(agent.id));
    await expect(verifyTab.getByText('Welcome, Pat Buyer')).toBeVisible({ timeout: 30_000 });
    await verifyTab.close();

    // The success screen watches who this browser is (auth/me): signed in now, it says so and opens the dashboard.
    await expect(toasts(page).getByText('Account Setup Complete!')).toBeVisible({ timeout: 15_000 });
    await expect(dialog).toBeHidden();
    // Opened without a fresh click, the new tab may be blocked: then the toast's button opens it.
    const open = toasts(page).getByRole('button', { name: 'Open Dashboard' });
    if (await open.isVisible()) await open.click();
    await expect.poll(() => tabs.filter((t) => t !== verifyTab).length).toBeGreaterThan(0);
    const tab = tabs.find((t) => t !== verifyTab)!;
    await tab.waitForURL((url) => url.pathname === '/dashboard');
    expect(new URL(tab.url()).searchParams.get('agent')).toBe(String(agent.id));
    await tab.close();

    // Signed in, this browser reaches the dashboard directly.
    await page.goto('/dashboard');
    await expect(page.getByText('Welcome, Pat Buyer')).toBeVisible();

    // The dashboard: the paid campaign's listing, its progress, the tiles, no leads yet.
    const property = page.getByRole('region', { name: 'Property' });
    await expect(property.getByRole('button', { name: 'View Property Details' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Campaign Progress' }).getByText(/Progress to Goal|Goal Achieved!/)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Engagements' })).toContainText('estimated');
    await expect(page.getByRole('region', { name: 'Your Leads' })).toContainText('No leads yet.');

    // A buyer sends a lead from the listing page; the agent sees it after a reload.
    const listingTab = context.waitForEvent('page');
    await property.getByRole('button', { name: 'View Property Details' }).click();
    const buyer = await listingTab;
    // An MLS listing asks "Contact Agent", a manual one "Get More Information".
    const ask = /^(Contact Agent|Get More Information)$/;
    await buyer.getByRole('button', { name: ask }).click();
    const form = buyer.getByRole('dialog', { name: ask });
    await form.getByLabel('Name').fill('Jordan Buyer');
    await form.getByLabel('Email').fill('jordan@example.com');
    await form.getByLabel('Message').fill('Can I see it Saturday?');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(buyer.getByText('Thank you!')).toBeVisible({ timeout: 15_000 });
    await buyer.close();
    await page.reload();
    const leads = page.getByRole('region', { name: 'Your Leads' });
    await expect(leads.getByRole('heading', { name: 'Your Leads (1)' })).toBeVisible();
    await expect(leads).toContainText('Jordan Buyer');

    // Profile edit: the dialog checks the fields, then saves.
    await page.getByRole('region', { name: 'Contact Card' }).getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Contact Information' });
    await edit.getByLabel('Full Name').fill('');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(edit.getByText('Name is required')).toBeVisible();
    await edit.getByLabel('Full Name').fill('Pat Q. Buyer');
    await edit.getByLabel('Brokerage').fill('Sunshine Realty');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Profile Updated')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Contact Card' })).toContainText('Sunshine Realty');

    // The theme is kept across a reload.
    const theme = () => page.locator('[data-theme]').first().getAttribute('data-theme');
    const before = await theme();
    await page.getByRole('button', { name: /theme|dark|light/i }).first().click();
    await expect.poll(theme).not.toBe(before);
    const after = await theme();
    await page.reload();
    await expect.poll(theme).toBe(after);

    // Logout: the toast, then the login page; the dashboard is closed to this browser again.
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByText('You have been logged out successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    // The password chosen with the setup (the link was opened in this browser) logs in from now on.
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByLabel('Password', { exact: true }).fill('sunny-tampa-1');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('Welcome, Pat Q. Buyer')).toBeVisible();
  });

  test('a declined card shows Payment Failed, and the agent can pay with another card', async ({ page, baseURL }) => {
    const { campaign } = await createDraftCampaign(page, baseURL);
    await page.goto(`/checkout/${campaign.id}`);
    await fillCard(page, '4000 0000 0000 0002');
    await termsBox(page).check();
    await payButton(page).click();

    const failure = toasts(page).getByRole('alert');
    await expect(failure).toContainText('Payment Failed');
    await expect(failure).toContainText('Your card was declined.');
    await expect(page).toHaveURL(new RegExp(`/checkout/${campaign.id}$`));
    // The reason stays beside the form after the toast has gone, until the card is changed.
    await expect(page.getByTestId('payment-declined')).toHaveText('Payment Failed. Your card was declined.');

    // The form is usable again, terms still ticked: a good card goes through.
    await expect(termsBox(page)).toBeChecked();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await expect(page.getByTestId('payment-declined')).toHaveCount(0);
    await payButton(page).click();
    await expect(page).toHaveURL(SUCCESS_URL, { timeout: 15_000 });
    await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  });

  test('a card that needs 3-D Secure asks to confirm the payment; approving it pays', async ({ page, baseURL }) => {
    const { campaign } = await createDraftCampaign(page, baseURL);
    await page.goto(`/checkout/${campaign.id}`);
    await fillCard(page, '4000 0027 6000 3184');
    await termsBox(page).check();
    await payButton(page).click();

    const challenge = page.getByRole('dialog', { name: 'Confirm your payment' });
    await expect(challenge).toBeVisible();
    await expect(challenge).toHaveAttribute('aria-modal', 'true');
    await expect(challenge).toContainText('$299');
    await expect(challenge).toContainText('3184');
    // It must be answered: Escape does not close it, and the pay button shows the wait.
    await page.keyboard.press('Escape');
    await expect(challenge).toBeVisible();
    await expect(page.getByRole('button', { name: 'Waiting for authentication…' })).toBeDisabled();

    await challenge.getByRole('button', { name: 'Approve' }).click();
    await expect(page).toHaveURL(SUCCESS_URL, { timeout: 15_000 });
    await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
    await expect(toasts(page).getByText('Campaign Created!')).toBeVisible();

    // Paid: the checkout no longer takes a payment, and points to the campaign's status.
    await page.goto(`/checkout/${campaign.id}`);
    await expect(page.getByRole('heading', { name: 'This campaign is already paid' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0);

    // The /success route is the same screen; reporting the payment again is harmless.
    await page.goto(`/success?campaignId=${campaign.id}`);
    await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
    await expect(toasts(page).getByText('Campaign Created!')).toBeVisible();
  });

  test('declining the 3-D Secure step fails the payment', async ({ page, baseURL }) => {
    const { campaign } = await createDraftCampaign(page, baseURL);
    await page.goto(`/checkout/${campaign.id}`);
    await fillCard(page, '4000 0027 6000 3184');
    await termsBox(page).check();
    await payButton(page).click();

    const challenge = page.getByRole('dialog', { name: 'Confirm your payment' });
    await challenge.getByRole('button', { name: 'Decline' }).click();
    await expect(challenge).toBeHidden();
    await expect(toasts(page).getByRole('alert')).toContainText('Payment Failed');
    await expect(page).toHaveURL(new RegExp(`/checkout/${campaign.id}$`));
    await expect(payButton(page)).toBeEnabled();
  });

  test('the pay button stays disabled until the terms are ticked, and says why', async ({ page, baseURL }) => {
    const { campaign } = await createDraftCampaign(page, baseURL);
    await page.goto(`/checkout/${campaign.id}`);
    await fillCard(page, '4242 4242 4242 4242');

    // Spec 000 §5: disabled until ticked (really disabled: a click or Enter pays nothing), and the message says why.
    await expect(payButton(page)).toBeDisabled();
    await expect(payButton(page)).toHaveJSProperty('disabled', true);
    await expect(payButton(page)).toHaveAccessibleDescription('Please agree to the Terms of Service and Privacy Policy to continue.');
    await page.getByLabel('CVC').press('Enter');
    await payButton(page).click({ force: true });
    await expect(page).toHaveURL(new RegExp(`/checkout/${campaign.id}$`));
    await expect(page.getByText('Processing payment…')).toHaveCount(0);

    await termsBox(page).check();
    await expect(payButton(page)).toBeEnabled();
    await expect(payButton(page)).toHaveJSProperty('disabled', false);
    await expect(page.getByText('Please agree to the Terms of Service and Privacy Policy to continue.')).toHaveCount(0);
  });

  test('the card form checks the card before sending it', async ({ page, baseURL }) => {
    const { campaign } = await createDraftCampaign(page, baseURL);
    await page.goto(`/checkout/${campaign.id}`);
    await page.getByLabel('Card number').fill('4242 4242 4242 4241');
    await page.getByLabel('Expiry (MM/YY)').fill('13');
    await termsBox(page).check();
    await payButton(page).click();
    await expect(page.getByText('Your card number is invalid.')).toBeVisible();
    await expect(page.getByText("Your card's expiration date is incomplete.")).toBeVisible();
    await expect(page.getByText("Your card's security code is incomplete.")).toBeVisible();
    await expect(page.getByLabel('Card number')).toBeFocused();
  });
});

test.describe('success screen without a confirmed payment', () => {
  test.use({ expectedRequestFailures: requestFailures({ url: /\/api\/webhook\/payment-success$/, status: 402 }) });

  test('an unpaid campaign is not launched: Campaign Issue, and a way back to the checkout', async ({ page, baseURL }) => {
    const { campaign, listing } = await createDraftCampaign(page, baseURL);
    await page.goto(`/?payment=success&campaignId=${campaign.id}&listingId=${listing.id}`);
    await expect(toasts(page).getByRole('alert')).toContainText('Campaign Issue');
    await expect(toasts(page).getByRole('alert')).toContainText(
      'Payment completed but there was an issue creating the campaign. Please contact support.',
    );
    await expect(page.getByRole('heading', { name: 'Payment Not Confirmed' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Return to checkout' })).toHaveAttribute('href', `/checkout/${campaign.id}`);
  });

  test('a payment the provider reports as failed is not called a success', async ({ page, baseURL }) => {
    const { campaign, listing } = await createDraftCampaign(page, baseURL);
    await page.goto(`/?payment=success&campaignId=${campaign.id}&listingId=${listing.id}&redirect_status=failed`);
    await expect(page.getByRole('heading', { name: 'Payment not completed' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toHaveCount(0);
  });
});

test.describe('success screen when its launch call fails but the payment went through', () => {
  test.use({ expectedRequestFailures: requestFailures({ url: /\/api\/webhook\/payment-success$/, status: 500 }) });

  test("shows the campaign's real state: no Campaign Issue beside Live, and an h1", async ({ page, baseURL }) => {
    const { campaign } = await createDraftCampaign(page, baseURL);
    // The screen's own call fails; the payment provider's event still pays the campaign, which launches.
    await page.route('**/api/webhook/payment-success', (route) => route.fulfill({ status: 500, json: { message: 'Internal error', code: 'internal' } }));
    await page.goto(`/checkout/${campaign.id}`);
    await fillCard(page, '4242 4242 4242 4242');
    await termsBox(page).check();
    await payButton(page).click();
    await expect(page).toHaveURL(SUCCESS_URL, { timeout: 15_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeVisible();
    await expect(toasts(page).getByText('Campaign Created!')).toBeVisible();
    // The state it waits on: the launch settles (Live), not a clock.
    await expect(page.getByTestId('launch-status')).toContainText('Live', { timeout: 45_000 });
    await expect(page.getByText('Campaign Issue')).toHaveCount(0);
    await expect(page.getByText(/contact support/i)).toHaveCount(0);
  });
});

test.describe('checkout of a campaign that does not exist', () => {
  test.use({ expectedRequestFailures: requestFailures({ url: /\/api\/campaigns\/999999$/, status: 404 }) });

  test('/checkout/999999 shows Campaign Not Found', async ({ page }) => {
    await page.goto('/checkout/999999');
    await expect(page.getByRole('heading', { name: 'Campaign Not Found' })).toBeVisible();
    await expect(page.getByText('The requested campaign could not be found.')).toBeVisible();
  });
});

test.describe('checkout with Stripe as the payment provider', () => {
  // No network here: Stripe.js cannot load, which is the failure this test is about.
  test.use({ expectedRequestFailures: requestFailures({ url: /^https:\/\/js\.stripe\.com\// }) });

  test('Stripe.js is loaded only when Stripe runs, and a failure to load it is a Payment Setup Error', async ({ page, baseURL }) => {
    const { campaign } = await createDraftCampaign(page, baseURL);
    // The server as it answers with STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY set.
    await page.route('**/api/runtime-config', async (route) => {
      const config = await (await route.fetch()).json();
      await route.fulfill({
        json: { ...config, providers: { ...config.providers, payments: 'stripe' }, stripePublishableKey: 'pk_test_e2e' },
      });
    });
    await page.route('**/api/create-payment-intent', (route) =>
      route.fulfill({
        json: { clientSecret: 'pi_e2e_secret_e2e', provider: 'stripe', amountCents: 29900, publishableKey: 'pk_test_e2e' },
      }),
    );
    const stripeJs = page.waitForRequest(/^https:\/\/js\.stripe\.com\//);
    await page.route(/^https:\/\/js\.stripe\.com\//, (route) => route.abort());

    await page.goto(`/checkout/${campaign.id}`);
    await stripeJs;
    await expect(page.getByText('Test mode — Stripe: use 4242 4242 4242 4242')).toBeVisible();
    await expect(page.getByText('Stripe', { exact: true })).toBeVisible();
    await expect(toasts(page).getByRole('alert')).toContainText('Payment Setup Error');
    await expect(toasts(page).getByRole('alert')).toContainText('Failed to set up payment. Please refresh and try again.');
    await expect(page.getByLabel('Card number')).toHaveCount(0);
  });
});


test.describe('checkout opened in another browser', () => {
  // Another browser is answered 404, as for a missing campaign (the id reveals nothing): the page explains both.
  test.use({ expectedRequestFailures: requestFailures({ url: /\/api\/campaigns\/\d+$/, status: 404 }) });

  test('explains that the checkout belongs to the browser that created it, and offers login', async ({ page, baseURL, browser }) => {
    const { campaign } = await createDraftCampaign(page, baseURL);
    const other = await browser.newContext({ baseURL });
    try {
      const elsewhere = await other.newPage();
      await elsewhere.goto(`/checkout/${campaign.id}`);
      await expect(elsewhere.getByRole('heading', { name: 'Campaign Not Found' })).toBeVisible();
      await expect(elsewhere.getByText('stays with the browser that created it')).toBeVisible();
      await elsewhere.getByRole('link', { name: 'Log in', exact: true }).click();
      await expect(elsewhere).toHaveURL(/\/login$/);
    } finally {
      await other.close();
    }
  });
});

test.describe('terms and privacy', () => {
  test('the checkout links its Terms of Service and Privacy Policy, real pages of this product', async ({ page, baseURL }) => {
    const { campaign } = await createDraftCampaign(page, baseURL);
    await page.goto(`/checkout/${campaign.id}`);
    const terms = page.getByRole('link', { name: 'Terms of Service', exact: true });
    const privacy = page.getByRole('link', { name: 'Privacy Policy', exact: true });
    await expect(terms).toHaveAttribute('href', '/terms');
    await expect(privacy).toHaveAttribute('href', '/privacy');

    // A new tab: the checkout stays where it is.
    const [termsTab] = await Promise.all([page.context().waitForEvent('page'), terms.click()]);
    await expect(termsTab.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
    for (const section of ['3. Payment', '4. Impressions guarantee', '5. Refunds and cancellation', '6. Housing ads and fair housing', '7. Leads and your data']) {
      await expect(termsTab.getByRole('heading', { level: 2, name: section })).toBeVisible();
    }
    await termsTab.close();
    await expect(termsBox(page)).not.toBeChecked();

    await page.goto('/privacy');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Who we share it with' })).toBeVisible();
    await expect(page.getByText('We do not sell personal data.')).toBeVisible();
  });
});
