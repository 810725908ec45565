import fs from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import { z } from 'zod';
import {
  CRM_INTEGRATIONS,
  deliveriesQuerySchema,
  deliveryParamsSchema,
  idParam,
  makeNotificationSettingsSchema,
  testWebhookSchema,
} from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { consumeRateLimit } from '../../platform/http/rate-limit';
import { actorOf, isImpersonating } from '../../platform/auth/actor';
import { impersonationRefused } from '../../platform/errors';
import type { AppDeps } from '../../platform/deps';
import { outboxDir } from '../../platform/email/mailer';
import { getAccessibleAgent } from '../agents';
import { loadSettings, presentSettings, saveSettings } from './settings/settings.service';
import { listDeliveries, replayDelivery, sendTestDelivery } from './delivery/deliveries.service';
import { deliveryTransports } from './delivery/delivery-deps';
import { countWaitingEmails } from './delivery/agent-identity';

const AgentIdParams = z.object({ id: idParam });
const TEST_WEBHOOK_LIMIT = { name: 'notifications.test-webhook', points: 10, durationSeconds: 60 };

export function notificationsRouter(deps: AppDeps): Router {
  const router = new Router();
  const transports = () => deliveryTransports(deps.config);
  const Settings = { params: AgentIdParams, body: makeNotificationSettingsSchema({ allowPlainHttp: deps.config.OUTBOUND_ALLOW_LOOPBACK }) };
  const TestWebhook = { params: AgentIdParams, body: testWebhookSchema };
  const Deliveries = { params: AgentIdParams, query: deliveriesQuerySchema };

  router.get('/api/crm-integrations', (ctx) => {
    ctx.body = CRM_INTEGRATIONS;
  });

  router.get('/api/agents/:id/notification-settings', validate({ params: AgentIdParams }), async (ctx) => {
    const agent = await getAccessibleAgent(actorOf(ctx), inputOf(ctx, { params: AgentIdParams }).params.id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentSettings(await loadSettings(deps.db, agent.id), await countWaitingEmails(deps.db, agent.id));
  });

  router.put('/api/agents/:id/notification-settings', validate(Settings), async (ctx) => {
    const { params, body } = inputOf(ctx, Settings);
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    // Login As (DESIGN §6): the admin may change the agent's settings, never its secrets.
    if (isImpersonating(ctx)) {
      if (body.webhookSecret != null || body.crmApiKey != null || body.clearWebhookSecret || body.clearCrmApiKey) throw impersonationRefused();
      // A webhook URL on an agent without a secret would generate one and show it, once, to the admin.
      if (body.webhookUrl && !presentSettings(await loadSettings(deps.db, agent.id)).hasWebhookSecret) throw impersonationRefused();
    }
    // The answer may carry a generated secret, shown this once.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await saveSettings(deps.db, transports().box, agent.id, body);
  });

  router.post('/api/agents/:id/test-webhook', validate(TestWebhook), async (ctx) => {
    const { params, body } = inputOf(ctx, TestWebhook);
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    // Each test makes an outbound request on the agent's behalf: 10 a minute per agent, counted after the
    // ownership check so nobody else can spend the agent's budget.
    await consumeRateLimit(deps.db, TEST_WEBHOOK_LIMIT, `agent:${agent.id}`);
    ctx.body = await sendTestDelivery({ ...deps, ...transports() }, agent.id, body.webhookType);
  });

  router.get('/api/agents/:id/deliveries', validate(Deliveries), async (ctx) => {
    const { params, query } = inputOf(ctx, Deliveries);
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    ctx.body = await listDeliveries(deps, agent.id, query);
  });

  router.post('/api/agents/:id/deliveries/:deliveryId/replay', validate({ params: deliveryParamsSchema }), async (ctx) => {
    const { params } = inputOf(ctx, { params: deliveryParamsSchema });
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    ctx.status = 202;
    ctx.body = await replayDelivery(deps, agent.id, params.deliveryId);
  });

  // The embedded email outbox, for development: what would have been sent, as .eml files.
  if (deps.config.NODE_ENV !== 'production' && deps.config.providers.email === 'outbox') {
    const dir = outboxDir(deps.config);
    router.get('/dev/outbox', async (ctx) => {
      const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort().reverse().slice(0, 200);
      const rows = await Promise.all(
        files.map(async (f) => {
          const head = (await fs.readFile(path.join(dir, f), 'utf8')).slice(0, 4000);
          const subject = /^Subject: (.*)$/m.exec(head)?.[1] ?? '';
          const to = /^To: (.*)$/m.exec(head)?.[1] ?? '';
          return { f, subject, to };
        }),
      );
      const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
      ctx.type = 'html';
      ctx.body = `<!doctype html><meta charset="utf-8"><title>Outbox</title><h1>Email outbox (development)</h1><p>${esc(dir)}: newest first. Open an .eml file in any mail client.</p><table border="1" cellpadding="4"><tr><th>File</th><th>To</th><th>Subject</th></tr>${rows
        .map((r) => `<tr><td><a href="/dev/outbox/${encodeURIComponent(r.f)}">${esc(r.f)}</a></td><td>${esc(r.to)}</td><td>${esc(r.subject)}</td></tr>`)
        .join('')}</table>`;
    });
    router.get('/dev/outbox/:file', async (ctx) => {
      const file = String(ctx.params.file);
      if (!/^[\w.-]+\.eml$/.test(file)) return;
      const content = await fs.readFile(path.join(dir, file)).catch(() => null);
      if (!content) return;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = content;
    });
  }

  return router;
}
