import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signedInAgent } from './accounts';

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });

async function findSarah(page: Page) {
  await page.goto('/');
  await page.getByRole('main').getByRole('button', { name: 'Find my listings', exact: true }).click();
  await page.getByLabel('Full Name').fill('Sarah Johnson');
  await page.getByLabel('State').selectOption({ label: 'Florida' });
  await page.locator('form').getByRole('button', { name: 'Find My Listings', exact: true }).click();
}

/** Where a toast of up to three lines shows: the notification area's place, 76 px tall. */
async function toastFootprint(page: Page) {
  const region = (await toasts(page).boundingBox())!;
  return { x: region.x, y: region.y, width: region.width, height: 76 };
}

/**
 * Resolves once the page's running CSS animations have finished (a dialog rising into place, say): a control's place
 * is measured where it stays, not mid-animation. Endless ones (a spinner) are not waited for.
 */
function animationsDone(page: Page): Promise<unknown> {
  return page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** The visible controls inside a rectangle of the screen. */
function controlsIn(page: Page, rect: { x: number; y: number; width: number; height: number }): Promise<string[]> {
  return page.evaluate((t) => {
    const region = document.querySelector('[aria-label="Notifications"]')!;
    // With a modal dialog open, only its own controls can be used (the page behind it is covered).
    const scope = document.querySelector('[aria-modal="true"]') ?? document;
    return [...scope.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea, [role="button"], [role="radio"]')]
      .filter((el) => !region.contains(el))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') return false;
        return r.left < t.x + t.width && r.right > t.x && r.top < t.y + t.height && r.bottom > t.y;
      })
      .map((el) => el.getAttribute('aria-label') || el.textContent?.trim() || el.tagName);
  }, rect);
}

test.describe('toasts on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('cover no control: listing rows, the carousel choice, the Full Ad Preview; a tap or a swipe dismisses them', async ({ page }) => {
    await findSarah(page);
    // Where a toast shows, no listing row (nor any other control) is.
    await expect(page.getByRole('region', { name: 'Just Listed' }).getByRole('button').first()).toBeVisible();
    expect(await controlsIn(page, await toastFootprint(page))).toEqual([]);

    await page.getByRole('region', { name: 'Just Listed' }).getByRole('button').first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Choose Ad Format' })).toBeVisible();
    await expect(page.getByRole('radio', { name: /^Carousel/ })).toBeVisible();
    expect(await controlsIn(page, await toastFootprint(page))).toEqual([]);
    await page.getByRole('button', { name: /View full ad/ }).first().click();
    const preview = page.getByRole('dialog', { name: 'Full Ad Preview' });
    await expect(preview.getByRole('button', { name: 'Done' })).toBeVisible();
    // The dialog rises and grows into place (180 ms): its close button ends up just clear of the toasts.
    await animationsDone(page);
    expect(await controlsIn(page, await toastFootprint(page))).toEqual([]);
    await preview.getByRole('button', { name: 'Done' }).click();

    // A tap dismisses a toast (its pointer events sent at once: the toast goes by itself after 5 s, which a busy
    // machine may spend on an action's own checks).
    await page.getByRole('button', { name: 'Continue', exact: true }).last().click();
    await page.getByRole('button', { name: 'Refresh ad copy' }).click();
    const tapped = toasts(page).locator('[data-variant]').first();
    await expect(tapped).toBeVisible();
    await tapped.dispatchEvent('pointerdown', { pointerId: 3, clientX: 300, clientY: 30, isPrimary: true, pointerType: 'touch' });
    await tapped.dispatchEvent('pointerup', { pointerId: 3, clientX: 300, clientY: 30, isPrimary: true, pointerType: 'touch' });
    await expect(tapped).toBeHidden();

    // A swipe sideways dismisses a toast.
    await page.getByRole('button', { name: 'Refresh ad copy' }).click();
    const refreshed = toasts(page).locator('[data-variant]').first();
    await expect(refreshed).toBeVisible();
    const box = (await refreshed.boundingBox())!;
    const y = box.y + box.height / 2;
    await refreshed.dispatchEvent('pointerdown', { pointerId: 7, clientX: box.x + 20, clientY: y, isPrimary: true });
    await refreshed.dispatchEvent('pointermove', { pointerId: 7, clientX: box.x + 140, clientY: y, isPrimary: true });
    await refreshed.dispatchEvent('pointerup', { pointerId: 7, clientX: box.x + 140, clientY: y, isPrimary: true });
    await expect(refreshed).toBeHidden();
  });
});

test.describe('toasts on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('cover no control, the listing chip included; a click dismisses them', async ({ page }) => {
    await findSarah(page);
    await page.getByRole('region', { name: 'Just Listed' }).getByRole('button').first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Choose Ad Format' })).toBeVisible();
    expect(await controlsIn(page, await toastFootprint(page))).toEqual([]);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('button', { name: 'Refresh ad copy' }).click();
    const toast = toasts(page).locator('[data-variant]').first();
    await expect(toast).toBeVisible();
    await toast.click();
    await expect(toast).toBeHidden();
    expect(await controlsIn(page, await toastFootprint(page))).toEqual([]);
  });
});

test.describe('one toast area', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the dashboard's toasts show in the shell's area, the only one on the page", async ({ page, baseURL }) => {
    const agent = await signedInAgent(page.request, baseURL!, { name: 'Toby Marsh' });
    await page.goto(`/dashboard?agent=${agent.id}`);
    await expect(page.getByText('Welcome, Toby Marsh')).toBeVisible({ timeout: 30_000 });
    const card = page.getByRole('region', { name: 'Contact Card' });
    await card.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Contact Information' });
    await dialog.getByLabel('Brokerage').fill('Marsh Realty');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog).toBeHidden();
    // The card's "Profile Updated" is in the shell's Notifications region, and nowhere else on the page.
    await expect(toasts(page).getByText('Profile Updated')).toBeVisible();
    await expect(page.getByText('Profile Updated')).toHaveCount(1);
    // A tap dismisses it there, as every toast of the shell.
    await toasts(page).locator('[data-variant]').first().click();
    await expect(page.getByText('Profile Updated')).toHaveCount(0);
  });
});
