import type { Locator, Page, Response } from '@playwright/test';
import { expect, requestFailures, test } from './fixtures';
import { makePng } from './png';

/**
 * The creation wizard's steps 2–6 (spec 000 §2–§9), driven from the MLS path of step 1 with the demo
 * MLS (Sarah Johnson, FL, whose listings have several photos and descriptions) and the built-in
 * providers (copywriter, reach model, local uploads).
 */

const GENERATING = 'Generating optimized ad copy...';

/** The wizard's browser storage (sessionStorage), parsed. */
async function storedWizard(page: Page) {
  return page.evaluate(() => {
    const read = (key: string) => {
      const raw = sessionStorage.getItem(key);
      return raw === null ? null : raw.startsWith('{') ? JSON.parse(raw) : raw;
    };
    return {
      agent: read('wizard-agent'),
      listing: read('wizard-listing'),
      path: read('wizard-path'),
      campaign: read('wizard-campaign'),
    };
  });
}

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const previewPane = (page: Page) => page.getByRole('complementary', { name: 'Ad preview' });
const bottomBar = (page: Page) => page.getByRole('region', { name: 'Step action' });

function isApi(method: string, pattern: RegExp) {
  return (response: Response) => response.request().method() === method && pattern.test(new URL(response.url()).pathname);
}

/** Step 1's MLS path: Sarah Johnson (FL), then the first row of a group. Ends on step 2. */
async function pickMlsListing(page: Page, group: 'Just Listed' | 'Just Sold' = 'Just Listed', via: 'form' | 'bottom bar' = 'form') {
  await page.goto('/');
  // On a phone the fixed bottom bar mirrors this button: take the one in the page's main content.
  await page.getByRole('main').getByRole('button', { name: 'Find my listings', exact: true }).click();
  await page.getByLabel('Full Name').fill('Sarah Johnson');
  await page.getByLabel('State').selectOption({ label: 'Florida' });
  const scope = via === 'form' ? page.locator('form') : bottomBar(page);
  await scope.getByRole('button', { name: 'Find My Listings', exact: true }).click();
  await expect(heading(page, 'Select the listing you want to boost')).toBeVisible();
  await page.getByRole('region', { name: group }).getByRole('button').first().click();
  await expect(page).toHaveURL(/\/\?step=2$/);
  await expect(heading(page, 'Choose Ad Format')).toBeVisible();
}

/** Waits for the automatic ad copy to replace the placeholder; answers the stored description. */
async function adCopyReady(page: Page): Promise<string> {
  await expect.poll(async () => (await storedWizard(page)).campaign?.description ?? GENERATING).not.toBe(GENERATING);
  const description: string = (await storedWizard(page)).campaign.description;
  expect(description.length).toBeGreaterThan(40);
  return description;
}

/** The reach figure of step 5 once it is a number of people. */
async function readReach(reach: Locator): Promise<string> {
  await expect(reach).toHaveText(/^[\d,]+ people$/);
  return (await reach.textContent()) ?? '';
}

test.describe('creation wizard, double-clicks', () => {
  test('a double-click on a listing row, Continue or Approve Ad adds one history entry: Back goes back one step', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('main').getByRole('button', { name: 'Find my listings', exact: true }).click();
    await page.getByLabel('Full Name').fill('Sarah Johnson');
    await page.getByLabel('State').selectOption({ label: 'Florida' });
    await page.locator('form').getByRole('button', { name: 'Find My Listings', exact: true }).click();
    await expect(heading(page, 'Select the listing you want to boost')).toBeVisible();
    const historyLength = () => page.evaluate(() => history.length);
    const before = await historyLength();

    await page.getByRole('region', { name: 'Just Listed' }).getByRole('button').first().dblclick();
    await expect(heading(page, 'Choose Ad Format')).toBeVisible();
    await adCopyReady(page);
    await page.getByRole('button', { name: 'Continue', exact: true }).dblclick();
    await expect(heading(page, 'Boom! Your Property is Ready to Promote!')).toBeVisible();
    await page.getByRole('button', { name: 'Approve Ad', exact: true }).dblclick();
    await expect(heading(page, 'Add Your Branding')).toBeVisible();
    expect(await historyLength()).toBe(before + 3);

    await page.goBack();
    await expect(page).toHaveURL(/\/\?step=3$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/\?step=2$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/\?step=1$/);
  });
});

test.describe('creation wizard, steps 2–6', () => {
  test('single image: format, ad copy, approve, branding, targeting, pricing at $499, then checkout with the draft saved', async ({
    page,
  }) => {
    await pickMlsListing(page);
    const { listing, agent } = await storedWizard(page);

    // Step 2: single image by default, carousel offered (the listing has several photos).
    await expect(page.getByRole('radio', { name: /^Single Image/ })).toBeChecked();
    await expect(page.getByRole('radio', { name: /^Carousel/ })).toBeEnabled();
    await expect(page.getByText('Just Listed ad')).toBeVisible();

    // The live preview on the left: the agent's page, Sponsored, the brokerage, the copy, fixed sample engagement.
    const pane = previewPane(page);
    await expect(pane).toBeVisible();
    await expect(pane).toContainText('Sarah Johnson');
    await expect(pane).toContainText('Sponsored');
    await expect(pane).toContainText('Bayshore Realty Group');
    await expect(pane).toContainText(`Amazing Property in ${listing.city}`);
    await expect(pane).toContainText('Looking to buy, rent or sell?');
    await expect(pane).toContainText('Learn more');
    await expect(pane).toContainText('24');
    await expect(pane).toContainText('5 comments · 3 shares');
    const description = await adCopyReady(page);
    await expect(pane.getByTestId('ad-primary-text')).toHaveText(description);
    await expect(pane.getByTestId('ad-primary-text')).not.toContainText(GENERATING);
    await expect(pane.getByRole('img', { name: `Photo of ${listing.address}` })).toBeVisible();

    await page.getByRole('button', { name: 'Continue', exact: true }).click();

    // Step 3: the overview, approved as it is.
    await expect(page).toHaveURL(/\/\?step=3$/);
    await expect(heading(page, 'Boom! Your Property is Ready to Promote!')).toBeVisible();
    await expect(page.getByTestId('ad-copy')).toHaveText(description);
    await expect(previewPane(page)).toBeVisible();
    await page.getByRole('button', { name: 'Approve Ad', exact: true }).click();

    // Step 4: branding, with the contact card preview instead of the ad.
    await expect(page).toHaveURL(/\/\?step=4$/);
    await expect(heading(page, 'Add Your Branding')).toBeVisible();
    await expect(previewPane(page)).toHaveCount(0);
    const card = page.getByTestId('contact-card');
    await expect(card).toContainText('Sarah Johnson');
    await expect(card).toContainText(`MLS ID ${agent.mlsId}`);
    await expect(card.getByRole('button', { name: 'Contact Agent' })).toBeDisabled();
    await expect(card.getByRole('button', { name: 'Schedule a Tour' })).toBeDisabled();
    await expect(card.getByRole('img', { name: 'Sarah Johnson (initials)' })).toHaveText('SJ');
    await page.getByLabel('Phone', { exact: true }).fill('8135550199');
    await expect(card).toContainText('(813) 555-0199');
    await page.getByLabel('Profile photo').setInputFiles({
      name: 'headshot.png',
      mimeType: 'image/png',
      buffer: makePng(240, 240, [124, 58, 237]),
    });
    await expect(card.getByRole('img', { name: 'Photo of Sarah Johnson' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Remove profile photo' })).toBeVisible();
    const branded = page.waitForResponse(isApi('PUT', new RegExp(`^/api/agents/${agent.id}$`)));
    await page.getByRole('button', { name: 'Complete Setup', exact: true }).click();
    expect((await branded).status()).toBe(200);

    // Step 5: targeting from the listing's city and state, 25 miles; the reach follows the radius.
    await expect(page).toHaveURL(/\/\?step=5$/);
    await expect(heading(page, 'Target Your Ideal Buyers')).toBeVisible();
    const stored4 = await storedWizard(page);
    expect(stored4.agent.phone).toBe('8135550199');
    expect(stored4.agent.profileImageUrl).toMatch(/^\/objects\/uploads\//);
    await expect(page.getByLabel('City', { exact: true })).toHaveValue(listing.city);
    await expect(page.getByLabel('State', { exact: true })).toHaveValue(listing.state);
    await expect(page.getByLabel('Radius', { exact: true })).toHaveValue('25');
    await expect(page.getByLabel('Radius', { exact: true }).locator('option')).toHaveText([
      '15 miles',
      '25 miles',
      '35 miles',
      '50 miles',
    ]);
    for (const name of ['General Audience', 'Active Home Buyers', 'Real Estate Investors', 'Financing & Mortgages']) {
      await expect(page.getByRole('radio', { name: new RegExp(`^${name}`) })).toBeVisible();
    }
    await expect(page.getByText('targeting by age, gender or other demographics is not offered')).toBeVisible();
    // Housing ads: nothing to target by age, gender, ZIP code or exclusions.
    await expect(page.getByLabel(/\b(age|gender|zip|postal|exclu)/i)).toHaveCount(0);
    const reach = page.getByTestId('estimated-reach');
    const reachAt25 = await readReach(reach);
    const preview50 = page.waitForResponse(isApi('POST', /^\/api\/targeting\/preview$/));
    await page.getByLabel('Radius', { exact: true }).selectOption('50');
    expect((await preview50).request().postDataJSON()).toMatchObject({ radius: 50, city: listing.city });
    await expect(reach).not.toHaveText(reachAt25);
    const reachAt50 = await readReach(reach);
    expect(Number(reachAt50.replace(/\D/g, ''))).toBeGreaterThan(Number(reachAt25.replace(/\D/g, '')));
    // An interest switched off stays off.
    const firstInterest = page.getByRole('list', { name: 'Interests' }).getByRole('checkbox').first();
    await firstInterest.uncheck();

    const created = page.waitForResponse(isApi('POST', /^\/api\/campaigns$/));
    await page.getByRole('button', { name: 'Continue to Pricing', exact: true }).click();
    expect((await created).status()).toBe(201);
    await expect(toasts(page)).toContainText('Facebook Campaign Created!');

    // Step 6: the budget slider and what it buys.
    await expect(page).toHaveURL(/\/\?step=6$/);
    const { campaign: draft5 } = await storedWizard(page);
    expect(draft5.campaignId).toEqual(expect.any(Number));
    const slider = page.getByRole('slider', { name: 'Budget' });
    await expect(slider).toHaveAttribute('min', '99');
    await expect(slider).toHaveAttribute('max', '999');
    await expect(slider).toHaveAttribute('step', '50');
    await expect(slider).toHaveValue('399');
    await expect(page.getByTestId('impressions')).toHaveText('20,000');
    await expect(page.getByRole('button', { name: 'Recommended: $299' })).toBeVisible();
    await slider.fill('499');
    await expect(page.getByTestId('impressions')).toHaveText('25,000');
    await expect(page.getByTestId('timeframe')).toHaveText('14-21 days');
    await expect(page.getByTestId('estimated-reach')).toHaveText('15,000–17,500');

    const saved = page.waitForResponse(isApi('PATCH', new RegExp(`^/api/campaigns/${draft5.campaignId}$`)));
    const firstIntent = page.waitForResponse(isApi('POST', /^\/api\/create-payment-intent$/));
    await page.getByRole('button', { name: 'Proceed to Checkout', exact: true }).click();
    expect((await saved).status()).toBe(200);
    await expect(toasts(page)).toContainText('Campaign created! Redirecting to checkout...');
    await expect(page).toHaveURL(new RegExp(`/checkout/${draft5.campaignId}$`));

    // The draft as the server has it: the budget, what it buys, the ad and the targeting.
    const response = await page.request.get(`/api/campaigns/${draft5.campaignId}`);
    expect(response.status()).toBe(200);
    const campaign = await response.json();
    // The checkout page starts the payment as soon as it loads (draft → pending_payment): either may be read here.
    expect(['draft', 'pending_payment']).toContain(campaign.status);
    expect(campaign).toMatchObject({
      id: draft5.campaignId,
      listingId: listing.id,
      agentId: agent.id,
      price: '499',
      impressions: 25000,
      adFormat: 'single',
      templateType: 'just-listed',
      description,
      headline: `Amazing Property in ${listing.city}`,
      callToAction: 'Learn more',
      carouselImages: [],
      targetingLocation: { city: listing.city, state: listing.state, radius: 50 },
    });
    expect(campaign.imageUrl).toBe(listing.imageUrl ?? listing.images[0]);
    expect(campaign.targetingInterests[0].enabled).toBe(false);

    // Back from checkout, a new budget, proceed again: the same campaign and the same payment intent, at the new amount.
    const first = await (await firstIntent).json();
    expect(first.amountCents).toBe(49900);
    await page.getByRole('link', { name: 'Back to pricing' }).click();
    await expect(heading(page, 'Choose Your Budget')).toBeVisible();
    await page.getByRole('slider', { name: 'Budget' }).fill('599');
    const resaved = page.waitForResponse(isApi('PATCH', new RegExp(`^/api/campaigns/${draft5.campaignId}$`)));
    const secondIntent = page.waitForResponse(isApi('POST', /^\/api\/create-payment-intent$/));
    await page.getByRole('button', { name: 'Proceed to Checkout', exact: true }).click();
    expect((await resaved).status()).toBe(200);
    await expect(page).toHaveURL(new RegExp(`/checkout/${draft5.campaignId}$`));
    expect(await (await secondIntent).json()).toMatchObject({ clientSecret: first.clientSecret, amountCents: 59900 });
    expect(await (await page.request.get(`/api/campaigns/${draft5.campaignId}`)).json()).toMatchObject({ price: '599', status: 'pending_payment' });
  });

  test('carousel: the viewer wraps both ways, the 2-photo minimum is enforced, and the draft keeps the chosen photos', async ({
    page,
  }) => {
    await pickMlsListing(page);
    const { listing } = await storedWizard(page);
    const photos = [listing.imageUrl, ...listing.images].filter((p, i, all) => p && all.indexOf(p) === i);
    expect(photos.length).toBeGreaterThanOrEqual(3);

    await page.getByRole('radio', { name: /^Carousel/ }).check();
    const pane = previewPane(page);
    const status = pane.getByTestId('carousel-status');
    const count = Math.min(photos.length, 10);
    await expect(status).toHaveText(`Photo 1 of ${count}`);
    await expect(pane.getByTestId('carousel-card')).toHaveCount(count);
    await pane.getByRole('button', { name: 'Previous photo' }).click();
    await expect(status).toHaveText(`Photo ${count} of ${count}`);
    await expect(pane.getByTestId('carousel-card').nth(count - 1)).toHaveAttribute('data-active', 'true');
    await pane.getByRole('button', { name: 'Next photo' }).click();
    await expect(status).toHaveText(`Photo 1 of ${count}`);
    await pane.getByRole('button', { name: 'Next photo' }).click();
    await expect(status).toHaveText(`Photo 2 of ${count}`);
    expect((await storedWizard(page)).campaign).toMatchObject({ adFormat: 'carousel', carouselImages: photos.slice(0, 10) });
    await adCopyReady(page);

    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(heading(page, 'Boom! Your Property is Ready to Promote!')).toBeVisible();
    await expect(page.getByText(`Carousel · ${count} photos`)).toBeVisible();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(heading(page, 'Customize Your Promotion Ad')).toBeVisible();

    // Down to one photo: the spec's message, and Confirm Preview does not go on.
    const picker = page.getByRole('group', { name: 'Carousel photos' });
    for (let i = 2; i <= count; i++) await picker.getByRole('checkbox', { name: `Photo ${i}`, exact: true }).uncheck();
    await expect(page.getByText('Carousel ads require at least 2 images')).toBeVisible();
    await page.getByRole('button', { name: 'Confirm Preview', exact: true }).click();
    await expect(page).toHaveURL(/\/\?step=3$/);
    await expect(pane.getByTestId('carousel-status')).toHaveCount(0); // one photo is shown as a single image
    // Photos 3 and 2, in that order.
    await picker.getByRole('checkbox', { name: 'Photo 3', exact: true }).check();
    await picker.getByRole('checkbox', { name: 'Photo 2', exact: true }).check();
    await expect(page.getByText('Carousel ads require at least 2 images')).toHaveCount(0);
    await expect(pane.getByTestId('carousel-status')).toHaveText('Photo 1 of 3');
    await page.getByRole('button', { name: 'Confirm Preview', exact: true }).click();

    await expect(heading(page, 'Add Your Branding')).toBeVisible();
    await page.getByRole('button', { name: 'Complete Setup', exact: true }).click();
    await expect(heading(page, 'Target Your Ideal Buyers')).toBeVisible();
    await readReach(page.getByTestId('estimated-reach'));
    await page.getByRole('button', { name: 'Continue to Pricing', exact: true }).click();
    await expect(heading(page, 'Choose Your Budget')).toBeVisible();
    await page.getByRole('button', { name: 'Recommended: $299' }).click();
    await expect(page.getByRole('slider', { name: 'Budget' })).toHaveValue('299');
    await expect(page.getByTestId('impressions')).toHaveText('15,000');
    await expect(page.getByTestId('timeframe')).toHaveText('10-14 days');
    await page.getByRole('button', { name: 'Proceed to Checkout', exact: true }).click();
    await expect(page).toHaveURL(/\/checkout\/\d+$/);

    const id = new URL(page.url()).pathname.split('/').pop();
    const campaign = await (await page.request.get(`/api/campaigns/${id}`)).json();
    expect(campaign).toMatchObject({
      adFormat: 'carousel',
      carouselImages: [photos[0], photos[2], photos[1]],
      price: '299',
      impressions: 15000,
    });
    expect(['draft', 'pending_payment']).toContain(campaign.status);
  });

  test.describe('phone', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('the compact preview opens the Full Ad Preview modal, and the bottom button drives every step to checkout', async ({
      page,
    }) => {
      await pickMlsListing(page, 'Just Listed', 'bottom bar');
      await adCopyReady(page);

      // No side pane on a phone: a compact preview that opens the full-size one.
      await expect(previewPane(page)).toHaveCount(0);
      const compact = page.getByRole('button', { name: /View full ad/ });
      await expect(compact).toBeVisible();
      await compact.click();
      const dialog = page.getByRole('dialog', { name: 'Full Ad Preview' });
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAttribute('aria-modal', 'true');
      await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
      await expect(dialog).toContainText('Sponsored');
      await expect(dialog).toContainText('5 comments · 3 shares');
      await expect(dialog.getByTestId('ad-primary-text')).not.toContainText(GENERATING);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(compact).toBeFocused();

      // The carousel inside the modal, swiped by its buttons.
      await page.getByRole('radio', { name: /^Carousel/ }).check();
      await compact.click();
      await expect(dialog.getByTestId('carousel-status')).toHaveText(/^Photo 1 of \d+$/);
      await dialog.getByRole('button', { name: 'Previous photo' }).click();
      await expect(dialog.getByTestId('carousel-status')).not.toHaveText(/^Photo 1 of/);
      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect(dialog).toHaveCount(0);

      const bar = bottomBar(page);
      await expect(bar.getByRole('button', { name: 'Continue', exact: true })).toBeInViewport();
      await bar.getByRole('button', { name: 'Continue', exact: true }).click();
      await expect(heading(page, 'Boom! Your Property is Ready to Promote!')).toBeVisible();
      await bar.getByRole('button', { name: 'Approve Ad', exact: true }).click();
      await expect(heading(page, 'Add Your Branding')).toBeVisible();
      await expect(page.getByTestId('contact-card')).toBeVisible();
      await bar.getByRole('button', { name: 'Complete Setup', exact: true }).click();
      await expect(heading(page, 'Target Your Ideal Buyers')).toBeVisible();
      await readReach(page.getByTestId('estimated-reach'));
      await bar.getByRole('button', { name: 'Continue to Pricing', exact: true }).click();
      await expect(heading(page, 'Choose Your Budget')).toBeVisible();
      await bar.getByRole('button', { name: 'Proceed to Checkout', exact: true }).click();
      await expect(page).toHaveURL(/\/checkout\/\d+$/);
    });
  });

  test('Back goes one step at a time (and from the edit form to the overview), a second pass saves the same draft, and the guards hold', async ({
    page,
  }) => {
    await pickMlsListing(page, 'Just Sold');
    // A sold listing: no automatic copy, its own description instead of the placeholder.
    const { listing } = await storedWizard(page);
    await expect.poll(async () => (await storedWizard(page)).campaign.description).toBe((listing.description ?? '').trim());
    await expect(previewPane(page).getByTestId('ad-primary-text')).not.toContainText(GENERATING);
    await expect(previewPane(page)).toContainText(`Just Sold in ${listing.city}`);
    await expect(previewPane(page)).toContainText('Wondering what your home is worth?');

    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(heading(page, 'Customize Your Promotion Ad')).toBeVisible();
    await page.getByLabel('Headline', { exact: true }).fill('Sold over asking in two days');
    await page.getByLabel('Link', { exact: true }).fill('not a url');
    await page.getByRole('button', { name: 'Confirm Preview', exact: true }).click();
    await expect(page.getByText('Link must be a valid http or https URL')).toBeVisible();
    await expect(page.getByLabel('Link', { exact: true })).toBeFocused();
    await page.getByLabel('Link', { exact: true }).fill('https://example.com/sold');
    // Back from the form: the overview, with the edits.
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(heading(page, 'Boom! Your Property is Ready to Promote!')).toBeVisible();
    await expect(page.getByText('Sold over asking in two days').first()).toBeVisible();
    await page.getByRole('button', { name: 'Approve Ad', exact: true }).click();
    await page.getByRole('button', { name: 'Complete Setup', exact: true }).click();
    await expect(heading(page, 'Target Your Ideal Buyers')).toBeVisible();
    const created = page.waitForResponse(isApi('POST', /^\/api\/campaigns$/));
    await page.getByRole('button', { name: 'Continue to Pricing', exact: true }).click();
    const firstId = (await (await created).json()).id;
    await expect(heading(page, 'Choose Your Budget')).toBeVisible();

    // Back, one step at a time, down to the listing loader.
    const expected: [string, RegExp][] = [
      ['Target Your Ideal Buyers', /step=5$/],
      ['Add Your Branding', /step=4$/],
      ['Boom! Your Property is Ready to Promote!', /step=3$/],
      ['Choose Ad Format', /step=2$/],
      ['Select the listing you want to boost', /step=1$/],
    ];
    for (const [name, url] of expected) {
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await expect(heading(page, name)).toBeVisible();
      await expect(page).toHaveURL(url);
    }
    // The browser's own back and forward move through the steps too.
    await page.goBack();
    await expect(heading(page, 'Choose Ad Format')).toBeVisible();
    await page.goForward();
    await expect(heading(page, 'Select the listing you want to boost')).toBeVisible();

    // Forward again: step 5's continue updates the draft it made the first time (no duplicate).
    await page.goto('/?step=5');
    await expect(heading(page, 'Target Your Ideal Buyers')).toBeVisible();
    const updated = page.waitForResponse(isApi('PATCH', /^\/api\/campaigns\/\d+$/));
    await page.getByRole('button', { name: 'Continue to Pricing', exact: true }).click();
    const again = await updated;
    expect(again.status()).toBe(200);
    expect((await again.json()).id).toBe(firstId);
    await expect(heading(page, 'Choose Your Budget')).toBeVisible();

    // A reload keeps the step and the draft.
    await page.reload();
    await expect(heading(page, 'Choose Your Budget')).toBeVisible();
    expect((await storedWizard(page)).campaign).toMatchObject({ campaignId: firstId, headline: 'Sold over asking in two days' });

    // Guards: without a listing, step 6 falls back to step 2; without an agent, to step 1.
    await page.evaluate(() => sessionStorage.removeItem('wizard-listing'));
    await page.goto('/?step=6');
    await expect(page).toHaveURL(/\/\?step=2$/);
    await expect(heading(page, 'Choose Ad Format')).toBeVisible();
    await page.evaluate(() => sessionStorage.removeItem('wizard-agent'));
    await page.goto('/?step=5');
    await expect(page).toHaveURL(/\/\?step=1$/);
  });

  test('Fair Housing warnings appear as the agent types, and Use suggestion fixes the text', async ({ page }) => {
    await pickMlsListing(page);
    await adCopyReady(page);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(heading(page, 'Customize Your Promotion Ad')).toBeVisible();

    const adText = page.getByLabel('Ad text', { exact: true });
    const checked = page.waitForResponse(isApi('POST', /^\/api\/ad-copy\/check$/));
    await adText.fill('Perfect for young couples, no children');
    expect((await checked).status()).toBe(200);
    const findings = page.getByTestId('fair-housing-finding');
    await expect(findings).toHaveCount(2);
    await expect(findings.nth(0)).toContainText('Perfect for young couples');
    await expect(findings.nth(0)).toContainText('familial status');
    await expect(findings.nth(0)).toContainText('Suggestion:');
    await expect(findings.nth(1)).toContainText('no children');
    await expect(findings.nth(1)).toContainText('Refusing children is discrimination based on familial status.');

    await findings.nth(1).getByRole('button', { name: /Use suggestion/ }).click();
    await expect(adText).toHaveValue('Perfect for young couples');
    await expect(findings).toHaveCount(1);
    await findings.first().getByRole('button', { name: /Use suggestion/ }).click();
    await expect(adText).toHaveValue('Perfect for entertaining');
    await expect(findings).toHaveCount(0);
    await expect(previewPane(page).getByTestId('ad-primary-text')).toHaveText('Perfect for entertaining');

    // The headline is checked too.
    await page.getByLabel('Headline', { exact: true }).fill('Adults only retreat');
    await expect(page.getByRole('region', { name: /Fair Housing warning in headline/ })).toContainText('Adults only');
    await page.getByRole('button', { name: /Use suggestion for “Adults only”/ }).click();
    await expect(page.getByLabel('Headline', { exact: true })).toHaveValue('Retreat');
  });

  test('Refresh ad copy: one at a time, a new text and the spec toast', async ({ page }) => {
    await pickMlsListing(page);
    const first = await adCopyReady(page);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const copy = page.getByTestId('ad-copy');
    await expect(copy).toHaveText(first);

    // Hold the answer, to see the refresh in progress.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/listings/*/optimize-ad-copy', async (route) => {
      await held;
      await route.fallback();
    });
    const refresh = page.getByRole('button', { name: /Refresh ad copy|Regenerating/ });
    await refresh.click();
    await expect(copy).toHaveText('Regenerating ad copy...');
    await expect(previewPane(page).getByTestId('ad-primary-text')).toHaveText('Regenerating ad copy...');
    await expect(refresh).toBeDisabled();
    release();
    await expect(toasts(page)).toContainText('Ad copy refreshed!');
    await expect(copy).not.toHaveText('Regenerating ad copy...');
    await expect(copy).not.toHaveText(first);
    expect((await storedWizard(page)).campaign.description).toBe(await copy.textContent());
  });

  test.describe('a listing with one broken photo and no description', () => {
    test.use({ expectedRequestFailures: requestFailures({ url: /\/objects\/uploads\/[^/]+\?w=\d+$/, status: 404 }) });

    test('carousel is not offered (and says why), no ad copy is asked for, and the broken photo becomes the placeholder', async ({
      page,
    }) => {
      const optimize: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/optimize-ad-copy')) optimize.push(request.url());
      });
      const photo = '/objects/uploads/00000000-0000-4000-8000-000000000000';
      const agent = { id: 999998, name: 'Jordan Avery', state: 'FL', email: null, phone: null, brokerage: null, mlsId: null };
      const listing = {
        id: 999998,
        agentId: agent.id,
        mlsId: 'MANUAL-1',
        address: '742 Evergreen Terrace',
        city: 'Orlando',
        state: 'FL',
        price: '485000',
        bedrooms: 4,
        bathrooms: '2.5',
        squareFeet: 2150,
        status: 'active',
        imageUrl: photo,
        images: [photo],
        description: null,
      };
      await page.goto('/?step=1');
      await page.evaluate(
        ([a, l]) => {
          sessionStorage.setItem('wizard-agent', JSON.stringify(a));
          sessionStorage.setItem('wizard-listing', JSON.stringify(l));
          sessionStorage.setItem('wizard-path', 'manual');
        },
        [agent, listing] as const,
      );
      await page.goto('/?step=2');
      await expect(heading(page, 'Choose Ad Format')).toBeVisible();

      const carousel = page.getByRole('radio', { name: /^Carousel/ });
      await expect(carousel).toBeDisabled();
      await expect(page.getByText('Carousel ads require at least 2 images: this listing has only 1 photo.')).toBeVisible();
      await expect(page.getByRole('radio', { name: /^Single Image/ })).toBeChecked();

      const pane = previewPane(page);
      await expect(pane.getByTestId('ad-primary-text')).toHaveText('Your ad text will appear here.');
      await expect(pane.getByRole('img', { name: 'Photo of 742 Evergreen Terrace' })).toHaveAttribute(
        'src',
        '/images/listing-placeholder.svg',
      );
      await expect(pane).toContainText('Amazing Property in Orlando');
      // The draft was completed for the listing (targeting defaults too), with an empty ad text.
      const { campaign } = await storedWizard(page);
      expect(campaign).toMatchObject({
        listingId: listing.id,
        description: '',
        adFormat: 'single',
        targetingLocation: { city: 'Orlando', state: 'FL', radius: 25 },
        targetingTemplate: 'general',
      });
      expect(optimize).toEqual([]);
    });
  });

  test.describe('failures', () => {
    test.use({
      expectedRequestFailures: requestFailures(
          { url: /\/api\/listings\/\d+\/optimize-ad-copy$/, status: 502 },
          { url: /\/api\/targeting\/preview$/, status: 500 },
          { url: /\/api\/agents\/\d+$/, status: 500 },
          { url: /\/api\/campaigns(\/\d+)?$/, status: 500 },
      ),
    });

    test('the spec messages for a failed refresh, targeting, branding and campaign save; the draft survives', async ({ page }) => {
      // The automatic copy fails too: the listing's own description takes the placeholder's place.
      await page.route('**/api/listings/*/optimize-ad-copy', (route) =>
        route.fulfill({ status: 502, json: { message: 'The AI provider is unavailable', code: 'ai.provider_unavailable' } }),
      );
      await pickMlsListing(page);
      const { listing } = await storedWizard(page);
      await expect.poll(async () => (await storedWizard(page)).campaign.description).toBe(listing.description.trim());
      await page.getByRole('button', { name: 'Continue', exact: true }).click();
      await page.getByRole('button', { name: 'Refresh ad copy' }).click();
      const toast = toasts(page).getByRole('alert');
      await expect(toast).toContainText('Refresh failed');
      await expect(toast).toContainText('Unable to generate new copy. Please try again.');
      await expect(toast).toHaveAttribute('data-variant', 'destructive');
      // Spec 000 §4: the failure is shown instead of the old copy (which is not kept), as an error: an error text
      // is never ad copy, so the preview shows no text rather than the message.
      await expect(page.getByTestId('ad-copy-error')).toContainText('Unable to generate optimized copy');
      await expect(page.getByTestId('ad-copy')).toHaveCount(0);
      await expect(previewPane(page).getByTestId('ad-primary-text')).toHaveText('Your ad text will appear here.');

      // No ad without text: Approve Ad opens the form and says why.
      await page.getByRole('button', { name: 'Approve Ad', exact: true }).click();
      await expect(heading(page, 'Customize Your Promotion Ad')).toBeVisible();
      const adText = page.getByLabel('Ad text', { exact: true });
      await expect(adText).toHaveValue('');
      await expect(adText).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText('Ad text is required')).toBeVisible();
      await expect(adText).toBeFocused();
      // A second failure says the same; Confirm Preview still refuses an empty text.
      await page.getByRole('button', { name: 'Refresh ad copy' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Unable to generate optimized copy' })).toBeVisible();
      await expect(previewPane(page).getByTestId('ad-primary-text')).toHaveText('Your ad text will appear here.');
      await page.getByRole('button', { name: 'Confirm Preview', exact: true }).click();
      await expect(page).toHaveURL(/\/\?step=3$/);
      await adText.fill('Bright bayfront home with a pool.');
      await expect(previewPane(page).getByTestId('ad-primary-text')).toHaveText('Bright bayfront home with a pool.');
      await page.getByRole('button', { name: 'Confirm Preview', exact: true }).click();

      // Branding: a failed save is only logged; the wizard goes on with what was typed.
      await page.route('**/api/agents/*', (route) =>
        route.request().method() === 'PUT' ? route.fulfill({ status: 500, json: { message: 'boom' } }) : route.fallback(),
      );
      await page.getByLabel('Brokerage', { exact: true }).fill('Gulf Coast Homes');
      await page.getByRole('button', { name: 'Complete Setup', exact: true }).click();
      await expect(heading(page, 'Target Your Ideal Buyers')).toBeVisible();
      expect((await storedWizard(page)).agent.brokerage).toBe('Gulf Coast Homes');

      // Targeting: the spec's destructive toast and the default options.
      await page.route('**/api/targeting/preview', (route) => route.fulfill({ status: 500, json: { message: 'down' } }));
      await page.getByLabel('Radius', { exact: true }).selectOption('35');
      await expect(toasts(page).getByRole('alert')).toContainText('Error Loading Targeting');
      await expect(toasts(page).getByRole('alert')).toContainText('Using default targeting options');
      await expect(page.getByTestId('estimated-reach')).toHaveText('Not available');
      await expect(page.getByRole('radio', { name: /^General Audience/ })).toBeChecked();

      // Campaign creation fails: the spec's toast, and the wizard stays on step 5.
      await page.route('**/api/campaigns', (route) => route.fulfill({ status: 500, json: { message: 'database down' } }));
      await page.getByRole('button', { name: 'Continue to Pricing', exact: true }).click();
      await expect(toasts(page).getByRole('alert')).toContainText('Campaign Creation Failed');
      await expect(toasts(page).getByRole('alert')).toContainText('There was an issue creating the campaign. Please try again.');
      await expect(page).toHaveURL(/\/\?step=5$/);
      await page.unroute('**/api/campaigns');
      await page.getByRole('button', { name: 'Continue to Pricing', exact: true }).click();
      await expect(heading(page, 'Choose Your Budget')).toBeVisible();
      const { campaign } = await storedWizard(page);
      // The text written after the failed refresh is the ad's; the failure message never reaches the server.
      const saved = await (await page.request.get(`/api/campaigns/${campaign.campaignId}`)).json();
      expect(saved.description).toBe('Bright bayfront home with a pool.');

      // Pricing: the server's message in an Error toast; the draft and the step stay.
      await page.route('**/api/campaigns/*', (route) =>
        route.request().method() === 'PATCH'
          ? route.fulfill({ status: 500, json: { message: 'Payments are paused for maintenance' } })
          : route.fallback(),
      );
      await page.getByRole('slider', { name: 'Budget' }).fill('599');
      await page.getByRole('button', { name: 'Proceed to Checkout', exact: true }).click();
      await expect(toasts(page).getByRole('alert')).toContainText('Error');
      await expect(toasts(page).getByRole('alert')).toContainText('Payments are paused for maintenance');
      await expect(page).toHaveURL(/\/\?step=6$/);
      expect((await storedWizard(page)).campaign).toMatchObject({ campaignId: campaign.campaignId, price: '599' });
    });
  });
});
