import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { createTestContext, type TestContext } from '../../../test/helpers';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { leadFormBody, signedInBrowser } from '../../../test/factories';
import { deliverJob } from '../notifications';

/** A local receiver that records what it is sent and answers 204. */
async function startReceiver() {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the webhook was not received in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

// A buyer's lead from the public API to the agent's own webhook, across the leads and notifications modules.
describe('a lead sent on a listing page reaches the agent webhook, signed', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ work: true, jobs: [deliverJob], env: { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'lead-hook-')) } });
  });
  afterAll(() => t.close());

  it('delivers lead.created with the lead and the listing as stored', async () => {
    const rx = await startReceiver();
    try {
      const { session, agent, listing } = await signedInBrowser(t, t.newSession());
      const agentId = agent.id;
      const { id: listingId, mlsId } = listing;
      // The agent's notification settings as the dashboard saves them.
      await session.put(`/api/agents/${agentId}/notification-settings`).send({ webhookUrl: rx.url, webhookSecret: SECRET, emailNotifications: false }).expect(200);

      const res = await t.request
        .post(`/api/listings/${mlsId}/leads`)
        .send(leadFormBody(t.config.SESSION_SECRET!, mlsId, { consentVersion: 'tcpa-2026-11', pageUrl: `https://homes.example.com/listing/${mlsId}` }))
        .expect(201);

      await until(() => rx.received.length > 0, 15000);
      const [hit] = rx.received;
      const body = new Webhook(SECRET).verify(hit.body, hit.headers as Record<string, string>) as {
        type: string;
        data: { agentId: number; lead: { id: number; name: string; interestedInTour: boolean }; listing: { id: number; mlsId: string; price: string; address: string } };
      };
      expect(body.type).toBe('lead.created');
      expect(body.data.agentId).toBe(agentId);
      expect(body.data.lead).toMatchObject({ id: res.body.id, name: 'Jordan Buyer', interestedInTour: true });
      expect(body.data.listing).toMatchObject({ id: listingId, mlsId, price: '450000', address: '12 Palm Ave', city: 'Tampa' });
    } finally {
      await rx.close();
    }
  });
});
