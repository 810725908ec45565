import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures';

/** The product's .eml outbox (scripts/e2e-server.mjs writes where its data folder is). */
function outboxDir(): string {
  const port = process.env.E2E_PORT ?? '3210';
  return path.join(fs.readFileSync(path.join(os.tmpdir(), `la-e2e-${port}.datadir`), 'utf8').trim(), 'outbox');
}

/** The emails to `to`, oldest first, their quoted-printable soft breaks and `=3D` undone. */
export function emailsTo(to: string): string[] {
  const dir = outboxDir();
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((eml) => eml.includes(`To: ${to}`));
}

/**
 * The token of the newest emailed link to `to` once there are more than `before` emails to it (the product sends
 * them from a job: the outbox is polled, no clock is waited on).
 */
export async function linkTokenTo(to: string, before = 0): Promise<string> {
  await expect.poll(() => emailsTo(to).length, { timeout: 15_000 }).toBeGreaterThan(before);
  const newest = emailsTo(to).at(-1)!;
  return /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(newest)![1]!;
}

/**
 * An agent signed in in `request`'s browser context the way the product signs one in: a manual agent made in the
 * wizard, its account setup (a one-time link to `email`), and the link opened in that same context. With
 * `page.request`, the page's browser is signed in (cookies are shared).
 */
export async function signedInAgent(
  request: APIRequestContext,
  baseURL: string,
  opts: { name: string; email?: string; state?: string },
): Promise<{ id: number; name: string; email: string }> {
  const headers = { origin: baseURL };
  const email = opts.email ?? `${opts.name.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}@example.com`;
  const created = await request.post('/api/agents', { data: { name: opts.name, state: opts.state ?? 'FL', manualEntry: true }, headers });
  expect(created.ok(), await created.text()).toBe(true);
  const agent = (await created.json()) as { id: number };
  const before = emailsTo(email).length;
  const setup = await request.post(`/api/agents/${agent.id}/account-setup`, { data: { email }, headers });
  expect(setup.status(), await setup.text()).toBe(202);
  const opened = await request.post('/api/auth/verify-email', { data: { token: await linkTokenTo(email, before) }, headers });
  expect(opened.ok(), await opened.text()).toBe(true);
  return { id: agent.id, name: opts.name, email };
}

/**
 * A member of the demo MLS verified by its owner (in an API context of its own: the page's browser stays out of it):
 * found in the MLS, then signed in with the link sent to the email the MLS publishes.
 */
export async function verifiedMember(request: APIRequestContext, baseURL: string, member: { name: string; state: string }): Promise<{ id: number; email: string }> {
  const headers = { origin: baseURL };
  const found = await (await request.post('/api/mls/search-agent', { data: member, headers })).json();
  const created = await request.post('/api/agents', { data: { ...found, brokerage: null, phone: null }, headers });
  expect(created.ok(), await created.text()).toBe(true);
  const agent = (await created.json()) as { id: number; verified: boolean };
  if (agent.verified) return { id: agent.id, email: found.email };
  const before = emailsTo(found.email).length;
  expect((await request.post('/api/auth/sign-in-link', { data: { email: found.email }, headers })).status()).toBe(202);
  const opened = await request.post('/api/auth/verify-email', { data: { token: await linkTokenTo(found.email, before) }, headers });
  expect(opened.ok(), await opened.text()).toBe(true);
  return { id: agent.id, email: found.email };
}
