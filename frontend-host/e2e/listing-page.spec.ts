import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, requestFailures, test } from './fixtures';
import { makePng } from './png';
import { signedInAgent } from './accounts';

/** Sarah Johnson's demo MLS listings, loaded the way the wizard does it; returns the agent's id. */
async function loadDemoListings(request: APIRequestContext, origin: string): Promise<number> {
  const headers = { origin };
  const found = await request.post('/api/mls/search-agent', { data: { name: 'Sarah Johnson', state: 'FL' }, headers });
  expect(found.ok(), await found.text()).toBe(true);
  const member = await found.json();
  const agent = await request.post('/api/agents', { data: member, headers });
  expect(agent.ok(), await agent.text()).toBe(true);
  const { id } = await agent.json();
  const loaded = await request.post('/api/mls/load', { data: { agentId: id, mlsId: member.mlsId }, headers });
  expect(loaded.ok(), await loaded.text()).toBe(true);
  return id;
}

/** The listing FL2600100 has 6 photos in the demo MLS. */
const MLS_ID = 'FL2600100';

async function expectNoSeriousA11yViolations(page: Page) {
  // The OpenStreetMap frame is someone else's page (and offline here).
  const results = await new AxeBuilder({ page }).exclude('iframe').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

// Whole journeys with an MLS load and axe scans: more than the default 30 s on a busy 2-core machine.
test.describe.configure({ timeout: 90_000 });

// The map is an OpenStreetMap frame: offline in tests, so its load may fail.
test.use({ expectedRequestFailures: requestFailures({ url: /openstreetmap\.org/ }) });

test.describe('public listing page, desktop', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('gallery: open, wrap, keys, close; lead form: validation, send, "Thank you!"', async ({ page, baseURL }) => {
    const agentId = await loadDemoListings(page.request, baseURL!);
    const response = await page.goto(`/listing/${MLS_ID}`);
    expect(response!.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('FL');
    await expect(page.getByText('+1 more')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'About This Property' })).toBeVisible();
    await expect(page.getByText('Equal Housing Opportunity.')).toBeVisible();

    // Gallery
    await page.getByRole('button', { name: 'Open photo 1 of 6' }).click();
    const gallery = page.getByRole('dialog', { name: 'Photo gallery' });
    await expect(gallery).toBeVisible();
    await expect(gallery.getByText('1 / 6')).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(gallery.getByText('2 / 6')).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(gallery.getByText('6 / 6')).toBeVisible();
    await gallery.getByRole('button', { name: 'Next photo' }).click();
    await expect(gallery.getByText('1 / 6')).toBeVisible();
    // Focus stays inside while it is open.
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      expect(await gallery.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(gallery).toBeHidden();

    // Lead form
    await page.getByRole('button', { name: 'Contact Agent' }).click();
    const form = page.getByRole('dialog', { name: 'Contact Agent' });
    await expect(form).toBeVisible();
    await expect(form.getByText(/autodialer or prerecorded voice/)).toBeVisible();
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('Required fields missing')).toBeVisible();
    await expect(page.getByText('Please provide your name and email address')).toBeVisible();
    await form.getByLabel('Name').fill('Jordan Buyer');
    await form.getByLabel('Email').fill('jordan@example.com');
    await form.getByLabel('Message').fill('Can I see it Saturday?');
    await form.getByLabel("I'd like to schedule a tour").check();
    const sent = page.waitForResponse((r) => r.url().endsWith(`/api/listings/${MLS_ID}/leads`) && r.request().method() === 'POST');
    await form.getByRole('button', { name: 'Send' }).click();
    const answer = await sent;
    expect(answer.status()).toBe(201);
    const { id: leadId } = await answer.json();
    await expect(page.getByText('Thank you!')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText('Your information has been sent to the agent. They will contact you soon.')).toBeVisible();
    await expect(form).toBeHidden();

    // One listing row per MLS listing, the listing agent's: the page's agent is the member this browser found, and
    // the lead is that agent's. Its leads are the signed-in agent's: this wizard browser is not shown them.
    const { agent } = await (await page.request.get(`/api/listings/${MLS_ID}`)).json();
    expect(agent.id).toBe(agentId);
    expect(leadId).toEqual(expect.any(Number));
    expect((await page.request.get(`/api/agents/${agentId}/leads`)).status()).toBe(403);
  });

  test.describe('a sold home', () => {
    test.use({ expectedRequestFailures: requestFailures({ url: /openstreetmap\.org/ }, { url: /\/demo-mls\/photos\//, status: 404 }) });

    test('says Sold, offers no tour, writes the listed date as the footer does; a broken photo under "+1 more" is a plain tile', async ({ page, baseURL }) => {
      await loadDemoListings(page.request, baseURL!);
      // Every photo fails to load: each tile falls back to the placeholder.
      await page.route(/\/demo-mls\/photos\//, (route) => route.fulfill({ status: 404, body: 'gone' }));
      await page.goto('/listing/FL2600396');
      await expect(page.locator('.lp-price').getByText('Sold', { exact: true })).toBeVisible();
      const card = page.getByRole('complementary', { name: 'Sarah Johnson' });
      await expect(card.getByRole('button', { name: 'Contact Agent' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Schedule a Tour' })).toHaveCount(0);
      const overview = page.getByRole('region', { name: 'Overview' });
      await expect(overview).toContainText('ListedJune 20, 2026');
      await expect(overview).not.toContainText('2026-06-20');
      await expect(page.getByText(/^Data updated [A-Z][a-z]+ \d{1,2}, \d{4}$/)).toBeVisible();

      const last = page.getByRole('button', { name: /^Open photo 5 of 6/ });
      await expect(last.getByRole('img', { name: 'No photo yet: just sold' })).toBeVisible();
      await expect(last).toHaveText('Open photo 5 of 6+1 more');
      // The large photo's fallback still says it.
      await expect(page.getByRole('button', { name: /^Open photo 1 of 6/ })).toContainText('just sold');
    });
  });

  test('axe: no serious or critical violations on the listing page and the open lead form', async ({ page, baseURL }) => {
    test.setTimeout(150_000);
    await loadDemoListings(page.request, baseURL!);
    await page.goto(`/listing/${MLS_ID}`);
    await expect(page.getByRole('heading', { name: 'Schools' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Schedule a Tour' }).click();
    await expect(page.getByRole('dialog', { name: 'Schedule a Tour' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('the app starts on the first interaction: a tap before it is live is replayed; the map loads when scrolled near', async ({ page, baseURL }) => {
    await loadDemoListings(page.request, baseURL!);
    // Hold the app's chunk back: the page must already be complete, and the tap must wait for the app, not vanish.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/listing-assets\/hydrate-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/listing/${MLS_ID}`);
    const map = page.getByTitle(/^Map of /);
    await expect(map).toHaveCount(1);
    expect(await map.getAttribute('src')).toBeNull();
    await page.getByRole('button', { name: 'Open photo 2 of 6' }).click();
    const gallery = page.getByRole('dialog', { name: 'Photo gallery' });
    await expect(gallery).toBeHidden();
    release();
    await expect(gallery.getByText('2 / 6')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(gallery).toBeHidden();
    await map.scrollIntoViewIfNeeded();
    await expect(map).toHaveAttribute('src', /^https:\/\/www\.openstreetmap\.org\/export\/embed\.html\?bbox=/);
  });

  test.describe('a missing listing', () => {
    test.use({ expectedRequestFailures: requestFailures({ url: /\/listing\/NOPE404$/, status: 404 }) });
    test('shows "Property Not Found" with a 404', async ({ page }) => {
      const response = await page.goto('/listing/NOPE404');
      expect(response!.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Property Not Found' })).toBeVisible();
      await expect(page.getByText("The listing you're looking for could not be found.")).toBeVisible();
      await page.getByRole('link', { name: 'Return Home' }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  });
});

test.describe('public listing pages, phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('1 + 2 photos with "+N more", swipe through the gallery', async ({ page, baseURL }) => {
    await loadDemoListings(page.request, baseURL!);
    await page.goto(`/listing/${MLS_ID}`);
    await expect(page.getByText('+3 more')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open photo 4 of 6' })).toBeHidden();
    await page.getByRole('button', { name: 'Open photo 3 of 6' }).click();
    const gallery = page.getByRole('dialog', { name: 'Photo gallery' });
    await expect(gallery.getByText('3 / 6')).toBeVisible();
    const swipe = async (fromX: number, toX: number) => {
      await gallery.dispatchEvent('touchstart', { touches: [{ identifier: 1, clientX: fromX, clientY: 400 }] });
      await gallery.dispatchEvent('touchend', { changedTouches: [{ identifier: 1, clientX: toX, clientY: 400 }] });
    };
    await swipe(300, 100);
    await expect(gallery.getByText('4 / 6')).toBeVisible();
    await swipe(100, 300);
    await swipe(100, 300);
    await expect(gallery.getByText('2 / 6')).toBeVisible();
    await gallery.getByRole('button', { name: 'Close gallery' }).click();
    await expect(gallery).toBeHidden();
  });

  test('Call and Contact Agent stay at hand in a bar at the bottom that covers no content, clear of the safe area', async ({ page, baseURL }) => {
    await loadDemoListings(page.request, baseURL!);
    await page.goto(`/listing/${MLS_ID}`);
    const bar = page.getByRole('region', { name: 'Contact the agent' });
    await expect(bar).toBeVisible();
    await expect(bar.getByRole('link', { name: 'Call' })).toHaveAttribute('href', 'tel:+18135550142');
    const viewport = page.viewportSize()!;
    const box = (await bar.boundingBox())!;
    expect(Math.round(box.y + box.height)).toBe(viewport.height);
    // The page can always scroll its last content clear of the bar.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const footerEnd = await page.locator('.lp-footer').evaluate((el) => el.getBoundingClientRect().bottom);
    expect(footerEnd).toBeLessThanOrEqual(box.y + 1);
    expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toContain('viewport-fit=cover');
    expect(await bar.evaluate((el) => [...document.styleSheets].some((sheet) => [...sheet.cssRules].some((r) => r.cssText.includes('.lp-contactbar') && r.cssText.includes('safe-area-inset-bottom'))))).toBe(true);

    await bar.getByRole('button', { name: 'Contact Agent' }).click();
    await expect(page.getByRole('dialog', { name: 'Contact Agent' })).toBeVisible();
  });

  test('a manual listing: /listing/MANUAL-… redirects, "Get More Information" sends a lead without the TCPA notice', async ({ page, baseURL }) => {
    const headers = { origin: baseURL! };
    // The agent is signed in in this browser (its email verified by the link), so its contact is public and its leads its own.
    const agent = await signedInAgent(page.request, baseURL!, { name: 'Dana Whitfield' });
    expect((await page.request.put(`/api/agents/${agent.id}`, { data: { phone: '8135550142' }, headers })).ok()).toBe(true);
    const created = await page.request.post('/api/listings', {
      data: { agentId: agent.id, address: '7 Harbor View Dr', city: 'Naples', state: 'FL', price: '615000', bedrooms: 4, bathrooms: '3.0', squareFeet: 2400, status: 'sold', images: [] },
      headers,
    });
    expect(created.ok(), await created.text()).toBe(true);
    const listing = await created.json();

    await page.goto(`/listing/${listing.mlsId}`);
    await expect(page).toHaveURL(new RegExp(`/manual-listing/${listing.mlsId}$`));
    await expect(page.getByText('$615,000')).toBeVisible();
    await expect(page.getByText('just sold')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Email Agent' })).toHaveAttribute('href', `mailto:${agent.email}`);
    await expect(page.getByRole('link', { name: '(813) 555-0142' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // On a phone the contact bar at the bottom holds the same button (and Call).
    const bar = page.getByRole('region', { name: 'Contact the agent' });
    await expect(bar.getByRole('link', { name: 'Call' })).toHaveAttribute('href', 'tel:+18135550142');
    await bar.getByRole('button', { name: 'Get More Information' }).click();
    const form = page.getByRole('dialog', { name: 'Get More Information' });
    await expect(form.getByText(/autodialer/)).toHaveCount(0);
    await form.getByLabel('Name').fill('Sam Buyer');
    await form.getByLabel('Email').fill('sam@example.com');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('Thank you!')).toBeVisible({ timeout: 15_000 });
    const { leads } = await (await page.request.get(`/api/agents/${agent.id}/leads`)).json();
    expect(leads).toEqual([expect.objectContaining({ name: 'Sam Buyer', interest: 'General' })]);
  });
});

test.describe('manual listing hero', () => {
  test.use({ viewport: { width: 1000, height: 800 } });

  test('is served from srcset at the size it is shown, not a 640 px photo stretched across the page', async ({ page, baseURL }) => {
    const headers = { origin: baseURL! };
    const agent = await (await page.request.post('/api/agents', { data: { name: 'Dana Whitfield', state: 'FL', manualEntry: true }, headers })).json();
    const signed = await (await page.request.post('/api/objects/upload', { headers })).json();
    expect((await page.request.put(signed.uploadURL, { data: makePng(1600, 1200, [37, 99, 235]), headers: { 'content-type': 'image/png', ...headers } })).ok()).toBe(true);
    const photo = `/objects/uploads/${new URL(signed.uploadURL).pathname.split('/').pop()}`;
    const listing = await (
      await page.request.post('/api/listings', {
        data: { agentId: agent.id, address: '7 Harbor View Dr', city: 'Naples', state: 'FL', price: '615000', bedrooms: 4, bathrooms: '3.0', squareFeet: 2400, status: 'active', images: [photo], imageUrl: photo },
        headers,
      })
    ).json();
    await page.goto(`/manual-listing/${listing.mlsId}`);
    const hero = page.locator('.lp-manual-large img');
    await expect(hero).toHaveAttribute('srcset', /\?w=1280 1280w/);
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\?w=1280$/);
    const shown = await hero.evaluate((img: HTMLImageElement) => img.clientWidth);
    expect(shown).toBeGreaterThan(640);
  });
});

test.describe('from the success screen', () => {
  test.use({
    viewport: { width: 1280, height: 900 },
    expectedRequestFailures: requestFailures({ url: /openstreetmap\.org/ }, { url: /\/api\/auth\/me$/, status: 401 }),
  });

  test('"View Property Page" opens the manual listing page with the paid campaign\'s description and photo', async ({ page, baseURL, context }) => {
    test.setTimeout(150_000);
    const headers = { origin: baseURL! };
    const post = async (url: string, data: Record<string, unknown>) => {
      const response = await page.request.post(url, { data, headers });
      expect(response.ok(), `${url}: ${response.status()} ${await response.text()}`).toBe(true);
      return response.json();
    };
    // Upload slots go only to a browser that owns an agent: the agent first, as the wizard does.
    const agent = await post('/api/agents', { name: 'Pat Seller', state: 'FL', manualEntry: true });
    const signed = await post('/api/objects/upload', {});
    const put = await page.request.put(signed.uploadURL, { data: makePng(640, 480, [37, 99, 235]), headers: { 'content-type': 'image/png', origin: baseURL! } });
    expect(put.ok()).toBe(true);
    const imageUrl = `/objects/uploads/${new URL(signed.uploadURL).pathname.split('/').pop()}`;
    const listing = await post('/api/listings', {
      agentId: agent.id, address: '2417 Bayshore Blvd', city: 'Tampa', state: 'FL', price: '450000', bedrooms: 3, bathrooms: '2.0', squareFeet: 1800, status: 'active', images: [imageUrl], imageUrl, mlsId: '',
    });
    const campaign = await post('/api/campaigns', {
      agentId: agent.id, listingId: listing.id, templateType: 'just-listed', adFormat: 'single', headline: 'Amazing Property in Tampa',
      description: 'Bright 3 bed home on the bay.', subtitle: 'Looking to buy, rent or sell?', callToAction: 'Learn more',
      targetAudience: 'Local Home Buyers (25-55)', price: '299', status: 'draft', imageUrl, carouselImages: [], link: null,
    });

    await page.goto(`/checkout/${campaign.id}`);
    await page.getByLabel('Card number').fill('4242424242424242');
    await page.getByLabel('Expiry (MM/YY)').fill(`12${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`);
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('checkbox', { name: 'I agree to the Terms of Service and Privacy Policy.' }).check();
    await page.getByRole('button', { name: /^Pay \$299$/ }).click();
    await expect(page.getByRole('heading', { name: 'Payment Successful!', level: 1 })).toBeVisible({ timeout: 15_000 });

    // The agent has no password yet: the account setup dialog opens first.
    const setup = page.getByRole('dialog', { name: 'Complete Your Account Setup' });
    await expect(setup).toBeVisible();
    await setup.getByRole('button', { name: 'Maybe later' }).click();
    const opened = context.waitForEvent('page');
    await page.getByRole('link', { name: 'View Property Page' }).click();
    const property = await opened;
    await property.waitForLoadState();
    await expect(property).toHaveURL(new RegExp(`/manual-listing/${listing.mlsId}$`));
    await expect(property.getByRole('heading', { level: 1 })).toHaveText('2417 Bayshore Blvd, Tampa, FL');
    await expect(property.getByText('$450,000')).toBeVisible();
    await expect(property.getByText('Bright 3 bed home on the bay.')).toBeVisible();
    // The photo comes through the upload variants, with its box sized before it loads.
    const photo = property.locator('.lp-manual-large img');
    await expect(photo).toHaveAttribute('srcset', `${imageUrl}?w=320 320w, ${imageUrl}?w=640 640w, ${imageUrl}?w=1280 1280w`);
    await expect(photo).toHaveAttribute('width', '1280');
    await expect(photo).toHaveAttribute('height', '960');
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await property.close();
  });
});
