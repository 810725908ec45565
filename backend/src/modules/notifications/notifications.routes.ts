import fs from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import { z } from 'zod';
import {
  deliveriesQuerySchema,
  deliveryParamsSchema,
  idParam,
  makeNotificationSettingsSchema,
  testWebhookSchema,
} from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { consumeRateLimit } from '../../platform/http/rate-limit';
import { actorOf, isImpersonating } from '../../platform/auth/actor';
import { integrationsReadOnly } from './notifications.errors';
import type { AppDeps } from '../../platform/deps';
import { outboxDir } from '../../platform/email/mailer';
import { getAccessibleAgent } from '../agents';
import { assertCrmAvailable, availableCrmIntegrations, changesIntegrations, loadSettings, presentSettings, saveSettings } from './settings/settings.service';
import { resolvesToPublicAddresses } from '../../platform/outbound/http';
import { listDeliveries, replayDelivery, sendTestDelivery } from './delivery/deliveries.service';
import { deliveryTransports } from './delivery/delivery-deps';
import { addPublicApiRoutes } from './public-api/public-api.routes';
import { addSmsRoutes } from './sms/sms.routes';
import { addLionDeskRoutes } from './crm-oauth/liondesk.routes';
import { smsOutboxDir } from './sms/providers';
import { countWaitingEmails } from './delivery/agent-identity';

const AgentIdParams = z.object({ id: idParam });
const TEST_WEBHOOK_LIMIT = { name: 'notifications.test-webhook', points: 10, durationSeconds: 60 };

export function notificationsRouter(deps: AppDeps): Router {
  const router = new Router();
  const transports = () => deliveryTransports(deps.config);
  const isPublicTarget = (url: string) => resolvesToPublicAddresses(url, { allowLoopback: deps.config.OUTBOUND_ALLOW_LOOPBACK });
  const Settings = { params: AgentIdParams, body: makeNotificationSettingsSchema({ allowPlainHttp: deps.config.OUTBOUND_ALLOW_LOOPBACK }) };
  const TestWebhook = { params: AgentIdParams, body: testWebhookSchema };
  const Deliveries = { params: AgentIdParams, query: deliveriesQuerySchema };

  const crmIntegrations = availableCrmIntegrations(deps.config);
  router.get('/api/crm-integrations', (ctx) => {
    ctx.body = crmIntegrations;
  });

  router.get('/api/agents/:id/notification-settings', validate({ params: AgentIdParams }), async (ctx) => {
    const agent = await getAccessibleAgent(actorOf(ctx), inputOf(ctx, { params: AgentIdParams }).params.id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentSettings(await loadSettings(deps.db, agent.id), await countWaitingEmails(deps.db, agent.id));
  });

  router.put('/api/agents/:id/notification-settings', validate(Settings), async (ctx) => {
    const { params, body } = inputOf(ctx, Settings);
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    assertCrmAvailable(deps.config, body.crmType);
    let input = body;
    // Login As (DESIGN §6): the admin may read everything and turn the emails on or off, but change no
    // integration (URL, CRM, secret or key): moving a URL would send the stored key to wherever the admin chose.
    if (isImpersonating(ctx)) {
      if (changesIntegrations(await loadSettings(deps.db, agent.id), body)) throw integrationsReadOnly();
      // What the form sends back unchanged is left alone (saving a URL again would also turn a 410'd channel back on).
      input = {
        emailNotifications: body.emailNotifications,
        instantNotifications: body.instantNotifications,
        webhookUrl: undefined,
        webhookSecret: undefined,
        zapierWebhookUrl: undefined,
        crmType: undefined,
        crmWebhookUrl: undefined,
        crmApiKey: undefined,
      };
    }
    // The answer may carry a generated secret, shown this once.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await saveSettings(deps.db, transports().box, agent.id, input, { isPublicTarget });
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

  addPublicApiRoutes(router, deps);
  addSmsRoutes(router, deps);
  addLionDeskRoutes(router, deps);

  // The embedded outboxes, for development: the emails (.eml files) and texts (.txt files) that would have been sent.
  const emailOutbox = deps.config.providers.email === 'outbox';
  const smsOutbox = deps.config.providers.sms === 'outbox';
  if (deps.config.NODE_ENV !== 'production' && (emailOutbox || smsOutbox)) {
    const dir = outboxDir(deps.config);
    const smsDir = smsOutboxDir(deps.config);
    const newest = async (folder: string, ext: string) => (await fs.readdir(folder).catch(() => [] as string[])).filter((f) => f.endsWith(ext)).sort().reverse().slice(0, 200);
    const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
    router.get('/dev/outbox', async (ctx) => {
      const emails = await Promise.all(
        (emailOutbox ? await newest(dir, '.eml') : []).map(async (f) => {
          const head = (await fs.readFile(path.join(dir, f), 'utf8')).slice(0, 4000);
          const subject = /^Subject: (.*)$/m.exec(head)?.[1] ?? '';
          const to = /^To: (.*)$/m.exec(head)?.[1] ?? '';
          return { f, subject, to };
        }),
      );
      const texts = await Promise.all(
        (smsOutbox ? await newest(smsDir, '.txt') : []).map(async (f) => {
          const content = await fs.readFile(path.join(smsDir, f), 'utf8');
          const [head, ...body] = content.split('\n\n');
          return { f, to: /^To: (.*)$/m.exec(head)?.[1] ?? '', body: body.join('\n\n').trim() };
        }),
      );
      ctx.type = 'html';
      ctx.body =
        `<!doctype html><meta charset="utf-8"><title>Outbox</title>` +
        (emailOutbox
          ? `<h1>Email outbox (development)</h1><p>${esc(dir)}: newest first. Open an .eml file in any mail client.</p><table border="1" cellpadding="4"><tr><th>File</th><th>To</th><th>Subject</th></tr>${emails
              .map((r) => `<tr><td><a href="/dev/outbox/${encodeURIComponent(r.f)}">${esc(r.f)}</a></td><td>${esc(r.to)}</td><td>${esc(r.subject)}</td></tr>`)
              .join('')}</table>`
          : '') +
        (smsOutbox
          ? `<h1>SMS outbox (development)</h1><p>${esc(smsDir)}: newest first.</p><table border="1" cellpadding="4"><tr><th>File</th><th>To</th><th>Text</th></tr>${texts
              .map((r) => `<tr><td><a href="/dev/outbox/${encodeURIComponent(r.f)}">${esc(r.f)}</a></td><td>${esc(r.to)}</td><td>${esc(r.body)}</td></tr>`)
              .join('')}</table>`
          : '');
    });
    router.get('/dev/outbox/:file', async (ctx) => {
      const file = String(ctx.params.file);
      const folder = emailOutbox && /^[\w.-]+\.eml$/.test(file) ? dir : smsOutbox && /^[\w.-]+\.txt$/.test(file) ? smsDir : null;
      if (!folder) return;
      const content = await fs.readFile(path.join(folder, file)).catch(() => null);
      if (!content) return;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = content;
    });
  }

  return router;
}
