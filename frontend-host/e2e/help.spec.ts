import { expect, requestFailures, test } from './fixtures';
import { signedInAgent } from './accounts';

/** An agent this browser is signed in as (the emailed link opened here): it opens /dashboard?agent={id}. */
async function openDashboard(page: import('@playwright/test').Page, baseURL: string) {
  const agent = await signedInAgent(page.request, baseURL, { name: 'Dana Whitfield' });
  await page.goto(`/dashboard?agent=${agent.id}`);
  // Generous: the first load of the dashboard remote on a busy machine.
  await expect(page.getByText('Welcome, Dana Whitfield')).toBeVisible({ timeout: 30_000 });
  return agent;
}

test.describe('help assistant', () => {
  // Not logged in: /api/auth/me answers 401, which the dashboard reads as "no user".
  test.use({ expectedRequestFailures: requestFailures({ url: /\/api\/auth\/me$/, status: 401 }), viewport: { width: 1280, height: 900 } });

  test('opens from a help icon with the title by topic, answers, follows up with Enter, minimises, restores and closes', async ({ page, baseURL }) => {
    // The chat and its Markdown renderer are a lazy chunk: not downloaded until the chat opens.
    const chatChunks: string[] = [];
    page.on('request', (r) => {
      if (/\/HelpChat-[^/]*\.js$/.test(r.url())) chatChunks.push(r.url());
    });
    await openDashboard(page, baseURL!);
    expect(chatChunks).toEqual([]);

    // Hovering shows the icon's tooltip (after the 700 ms open delay).
    const icon = page.getByRole('button', { name: 'Help: Custom Webhook Setup' });
    await icon.hover();
    await expect(page.getByRole('tooltip', { name: 'Help: Custom Webhook Setup' })).toBeVisible();

    await icon.click();
    await expect.poll(() => chatChunks.length).toBe(1);
    const chat = page.getByRole('region', { name: 'Custom Webhook Setup' });
    await expect(chat.getByRole('heading', { name: 'Custom Webhook Setup' })).toBeVisible();

    // The first answer is requested automatically; it is grounded in this agent (nothing set yet).
    const answers = chat.getByTestId('help-answer');
    await expect(answers.first()).toContainText('signed HTTPS POST');
    await expect(answers.first()).toContainText('You have not set a custom webhook URL yet.');
    await expect(chat.getByRole('log')).toHaveAttribute('aria-live', 'polite');

    const input = chat.getByRole('textbox', { name: 'Ask a follow-up question' });
    const send = chat.getByRole('button', { name: 'Send' });
    // Blank: nothing can be sent.
    await input.fill('   ');
    await expect(send).toBeDisabled();

    // Shift+Enter makes a new line and sends nothing.
    await input.fill('How do I verify the signature');
    await input.press('Shift+Enter');
    await input.pressSequentially('in Python?');
    await expect(input).toHaveValue('How do I verify the signature\nin Python?');
    await expect(chat.getByTestId('help-user-message')).toHaveCount(0);

    // Enter sends: 'Thinking...' while the answer loads, then the Python section with a copy button.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/ai-help', async (route) => {
      await held;
      await route.continue();
    });
    await input.press('Enter');
    await expect(chat.getByTestId('help-user-message')).toHaveText('How do I verify the signature\nin Python?');
    await expect(chat.getByRole('status')).toHaveText('Thinking...');
    await expect(input).toBeDisabled();
    release();
    await expect(answers).toHaveCount(2);
    await expect(answers.nth(1).getByRole('heading', { name: 'Verify the signature in Python' })).toBeVisible();
    await expect(answers.nth(1).locator('pre')).toContainText('def verify_webhook(raw_body: bytes, headers: dict, secret: str) -> bool:');
    await expect(answers.nth(1).getByRole('button', { name: 'Copy code' })).toBeVisible();
    await expect(input).toBeEnabled();
    await page.unroute('**/api/ai-help');

    // Minimise to a round button, restore with the conversation kept, then close.
    await chat.getByRole('button', { name: 'Minimize Help Assistant' }).click();
    await expect(chat).toBeHidden();
    await page.getByRole('button', { name: 'Restore Help Assistant' }).click();
    await expect(answers).toHaveCount(2);
    await chat.getByRole('button', { name: 'Close Help Assistant' }).click();
    await expect(chat).toBeHidden();

    // Closed: the round 'Open Help Assistant' button opens general help.
    await page.getByRole('button', { name: 'Open Help Assistant' }).click();
    const general = page.getByRole('region', { name: 'Help Assistant' });
    await expect(general.getByTestId('help-answer').first()).toContainText('Zapier Integration');
  });

  test('each topic icon opens its title', async ({ page, baseURL }) => {
    await openDashboard(page, baseURL!);
    for (const title of ['Zapier Integration', 'CRM Integration', 'Testing Webhooks']) {
      await page.getByRole('button', { name: `Help: ${title}` }).click();
      await expect(page.getByRole('heading', { name: title, level: 2 })).toBeVisible();
      await expect(page.getByTestId('help-answer').first()).toBeVisible();
    }
  });
});

test.describe('help assistant on a phone', () => {
  test.use({ expectedRequestFailures: requestFailures({ url: /\/api\/auth\/me$/, status: 401 }), viewport: { width: 390, height: 844 } });

  test('is hidden', async ({ page, baseURL }) => {
    await openDashboard(page, baseURL!);
    await expect(page.getByRole('button', { name: 'Open Help Assistant' })).toBeHidden();
  });
});

test.describe('help assistant errors', () => {
  test.use({
    expectedRequestFailures: requestFailures(
        { url: /\/api\/auth\/me$/, status: 401 },
        { url: /\/api\/ai-help$/, status: 502 },
    ),
    viewport: { width: 1280, height: 900 },
  });

  test("shows the spec's messages when the first answer and a follow-up fail", async ({ page, baseURL }) => {
    await openDashboard(page, baseURL!);
    await page.route('**/api/ai-help', (route) =>
      route.fulfill({ status: 502, json: { message: 'The help assistant is unavailable right now. Please try again.', code: 'help.provider_unavailable' } }),
    );
    await page.getByRole('button', { name: 'Help: Zapier Integration' }).click();
    const chat = page.getByRole('region', { name: 'Zapier Integration' });
    await expect(chat.getByTestId('help-answer')).toHaveText(['Sorry, I encountered an error while generating help. Please try again.']);
    const input = chat.getByRole('textbox', { name: 'Ask a follow-up question' });
    await input.fill('Which trigger?');
    await input.press('Enter');
    await expect(chat.getByTestId('help-answer').nth(1)).toHaveText('Sorry, I encountered an error. Please try asking again.');
  });
});
