import { expect, test as base, type ConsoleMessage } from '@playwright/test';

/**
 * A request a test expects to fail. Chromium logs every failed resource load as a console
 * error ("Failed to load resource: the server responded with a status of 401 ..."), including
 * deliberate ones such as GET /api/auth/me when logged out; only these declared ones are let through.
 */
export interface ExpectedRequestFailure {
  /** Full URL, or a pattern matched against it. */
  url: string | RegExp;
  /** HTTP status; omit for a network error (connection refused and the like). */
  status?: number;
}

const FAILED_RESOURCE = /^Failed to load resource: (?:the server responded with a status of (\d{3})|net::)/;

/**
 * The value to give `test.use({ expectedRequestFailures })`. Playwright reads an array option whose second item is
 * an object as a `[value, fixtureOptions]` pair, so a bare list of two or more failures would lose all but the first
 * (and `expected.some` would not be a function); this always hands Playwright the pair.
 */
export function requestFailures(...failures: ExpectedRequestFailure[]): [ExpectedRequestFailure[], { scope: 'test' }] {
  return [failures, { scope: 'test' }];
}

function isExpected(message: ConsoleMessage, expected: ExpectedRequestFailure[]): boolean {
  const match = FAILED_RESOURCE.exec(message.text());
  if (!match) return false;
  const url = message.location().url;
  const status = match[1] ? Number(match[1]) : undefined;
  return expected.some(
    (failure) =>
      (typeof failure.url === 'string' ? failure.url === url : failure.url.test(url)) && failure.status === status,
  );
}

interface Fixtures {
  /** Set with `test.use({ expectedRequestFailures: requestFailures(...) })`. */
  expectedRequestFailures: ExpectedRequestFailure[];
  /** Fails the test on any console error or uncaught page error not declared above. */
  strictConsole: void;
}

export const test = base.extend<Fixtures>({
  expectedRequestFailures: [[], { option: true }],
  strictConsole: [
    async ({ page, expectedRequestFailures }, use) => {
      // A bare list given to test.use arrives here as its first item (see requestFailures): say so at once,
      // not at the first console error, which may come only on a busy machine.
      if (!Array.isArray(expectedRequestFailures)) {
        throw new Error('expectedRequestFailures must be a list: write test.use({ expectedRequestFailures: requestFailures(...) })');
      }
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error' || isExpected(message, expectedRequestFailures)) return;
        problems.push(`console error: ${message.text()} (at ${message.location().url || 'unknown'})`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      await use();
      expect(problems, 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Resolves with the response for a path on the app's origin, e.g. '/remotes/admin/remoteEntry.js'. */
export function pathnameIs(pathname: string) {
  return (response: { url(): string }) => new URL(response.url()).pathname === pathname;
}
