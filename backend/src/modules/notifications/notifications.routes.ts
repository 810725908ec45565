import fs from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import { z } from 'zod';
import {
  crmIntegrationSchema,
  deliveriesQuerySchema,
  deliveryPageSchema,
  deliveryParamsSchema,
  deliveryReplaySchema,
  idParam,
  makeNotificationSettingsSchema,
  notificationSettingsSavedSchema,
  notificationSettingsSchema,
  notificationSettingsViewSchema,
  testWebhookResultSchema,
  testWebhookSchema,
} from '@app/contracts';
import { configured, defineRoutes, route } from '../../platform/http/route';
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

export const notificationsRoutes = defineRoutes({
  crmIntegrations: { method: 'get', path: '/api/crm-integrations', auth: 'public', tag: 'notifications', summary: 'The CRMs leads can be delivered to', ok: { 200: z.array(crmIntegrationSchema) } },
  settings: {
    method: 'get', path: '/api/agents/:id/notification-settings', auth: 'agent', tag: 'notifications', summary: "The agent's notification settings (no secrets; credential URLs masked)",
    params: AgentIdParams, ok: { 200: notificationSettingsViewSchema }, errors: [403, 404],
  },
  saveSettings: {
    method: 'put', path: '/api/agents/:id/notification-settings', auth: 'agent', tag: 'notifications', summary: 'Save the notification settings (a generated webhook secret is shown this once)',
    params: AgentIdParams, body: notificationSettingsSchema, ok: { 200: notificationSettingsSavedSchema }, errors: [403, 404, 409],
  },
  testWebhook: {
    method: 'post', path: '/api/agents/:id/test-webhook', auth: 'agent', tag: 'notifications', summary: 'Send a signed test lead to the custom webhook, Zapier or the CRM',
    params: AgentIdParams, body: testWebhookSchema, ok: { 200: testWebhookResultSchema }, errors: [403, 404, 429, 502],
  },
  deliveries: {
    method: 'get', path: '/api/agents/:id/deliveries', auth: 'agent', tag: 'notifications', summary: 'Delivery attempts, newest first (filter by channel and status)',
    params: AgentIdParams, query: deliveriesQuerySchema, ok: { 200: deliveryPageSchema }, errors: [403, 404],
  },
  replay: {
    method: 'post', path: '/api/agents/:id/deliveries/:deliveryId/replay', auth: 'agent', tag: 'notifications',
    summary: 'Send a dead delivery again (a new attempt is queued; 409 while retries are pending or for one delivered; 10 a minute per agent)',
    params: deliveryParamsSchema, ok: { 202: deliveryReplaySchema }, errors: [403, 404, 409, 429],
  },
  outbox: {
    method: 'get', path: '/dev/outbox', auth: 'public', tag: 'pages', summary: 'Development only (embedded email outbox): the emails that would have been sent, newest first',
    ok: { 200: { contentType: 'text/html', description: 'The outbox page' } },
  },
  outboxFile: {
    method: 'get', path: '/dev/outbox/:file', auth: 'public', tag: 'pages', summary: 'Development only: one outbox email as its .eml source',
    ok: { 200: { contentType: 'text/plain', description: 'The raw message (RFC 5322)' }, 404: { contentType: 'text/plain', description: 'No such email' } },
  },
});

export function notificationsRouter(deps: AppDeps): Router {
  const router = new Router();
  const transports = () => deliveryTransports(deps.config);
  const isPublicTarget = (url: string) => resolvesToPublicAddresses(url, { allowLoopback: deps.config.OUTBOUND_ALLOW_LOOPBACK });
  const saveSettingsRoute = configured(notificationsRoutes.saveSettings, { body: makeNotificationSettingsSchema({ allowPlainHttp: deps.config.OUTBOUND_ALLOW_LOOPBACK }) });

  const crmIntegrations = availableCrmIntegrations(deps.config);
  route(router, notificationsRoutes.crmIntegrations, (ctx) => {
    ctx.body = crmIntegrations;
  });

  route(router, notificationsRoutes.settings, async (ctx, { params }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentSettings(await loadSettings(deps.db, agent.id), await countWaitingEmails(deps.db, agent.id));
  });

  route(router, saveSettingsRoute, async (ctx, { params, body }) => {
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

  route(router, notificationsRoutes.testWebhook, async (ctx, { params, body }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    // Each test makes an outbound request on the agent's behalf: 10 a minute per agent, counted after the
    // ownership check so nobody else can spend the agent's budget.
    await consumeRateLimit(deps.db, TEST_WEBHOOK_LIMIT, `agent:${agent.id}`);
    ctx.body = await sendTestDelivery({ ...deps, ...transports() }, agent.id, body.webhookType);
  });

  route(router, notificationsRoutes.deliveries, async (ctx, { params, query }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    ctx.body = await listDeliveries(deps, agent.id, query);
  });

  route(router, notificationsRoutes.replay, async (ctx, { params }) => {
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
    route(router, notificationsRoutes.outbox, async (ctx) => {
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
    route(router, notificationsRoutes.outboxFile, async (ctx) => {
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
