import Router from '@koa/router';
import { z } from 'zod';
import { mlsAgentMatchSchema, mlsLoadResultSchema, mlsLoadSchema, mlsSearchSchema } from '@app/contracts';
import { defineRoutes, route } from '../../platform/http/route';
import { rateLimit } from '../../platform/http/rate-limit';
import { actorOf } from '../../platform/auth/actor';
import type { AppDeps } from '../../platform/deps';
import { getAccessibleAgent, rememberFoundMlsMember } from '../agents';
import { createMlsProvider, type MlsProvider } from './providers';
import { loadListingsForAgent, searchAgent } from './mls.service';
import { serveDemoPhoto } from './demo-photos';
import { createDemoODataServer } from './demo/demo-odata-server';
import { seedDemoMls } from './demo/demo-feed';

export const mlsRoutes = defineRoutes({
  searchAgent: {
    method: 'post', path: '/api/mls/search-agent', auth: 'agent-optional', tag: 'mls', summary: 'Find an MLS member by name and state',
    body: mlsSearchSchema, ok: { 200: mlsAgentMatchSchema }, errors: [404, 429, 502],
  },
  load: { method: 'post', path: '/api/mls/load', auth: 'agent', tag: 'mls', summary: "Load the member's listings from the MLS", body: mlsLoadSchema, ok: { 200: mlsLoadResultSchema }, errors: [403, 404, 502] },
  demoPhoto: {
    method: 'get', path: '/demo-mls/photos/:file', auth: 'public', tag: 'mls', summary: 'A demo MLS listing photo', params: z.object({ file: z.string() }),
    ok: { 200: { contentType: 'image/*', schema: z.string().meta({ format: 'binary' }), description: 'The image bytes' } }, errors: [404],
  },
  demoOData: {
    method: 'get', path: '/demo-mls/odata/:resource', auth: 'public', tag: 'mls', summary: "The demo MLS's RESO Web API (mounted while the demo MLS runs)",
    description: "`Property`, `Member` or `Property('KEY')` with OData's `$filter`, `$orderby`, `$top`, `$skip` (at most 10,000), `$count`, `$select`, `$expand=Media`; pages of 500 with `@odata.nextLink`. Errors are OData error bodies (`{ error: { code, message } }`).",
    params: z.object({ resource: z.string() }),
    ok: { 200: z.looseObject({ value: z.array(z.record(z.string(), z.unknown())).optional(), '@odata.nextLink': z.string().optional(), '@odata.count': z.number().optional() }) },
  },
});

/** Agent searches per client IP per minute (DESIGN §3: MLS search is rate limited). */
export const SEARCH_RATE_LIMIT = { points: 20, durationSeconds: 60 };

export function mlsRouter({ config, db, logger }: AppDeps, provider: MlsProvider = createMlsProvider(config, db, logger)): Router {
  const router = new Router();

  route(router, mlsRoutes.searchAgent, rateLimit({ name: 'mls-search', ...SEARCH_RATE_LIMIT }), async (ctx, { body: { name, state } }) => {
    const member = await searchAgent(provider, name, state, ctx.state.log);
    // Remember it: POST /api/agents creates an MLS agent only for a member this session found.
    rememberFoundMlsMember(ctx, { ...member, system: config.mlsSystem });
    ctx.body = { name: member.name, state: member.state, email: member.email, mlsId: member.mlsId };
  });

  route(router, mlsRoutes.load, async (ctx, { body: { agentId, mlsId } }) => {
    // The wizard's draft access is enough: loading refreshes the member's listings from the MLS, nothing else.
    const agent = await getAccessibleAgent(actorOf(ctx), agentId, 'draft');
    ctx.body = await loadListingsForAgent({ db, provider, agent, mlsId, log: ctx.state.log });
  });

  route(router, mlsRoutes.demoPhoto, (ctx) => serveDemoPhoto(ctx));
  // The demo MLS's Web API over HTTP too (the app itself asks it in-process): `curl '…/demo-mls/odata/Property?$top=5'`.
  if (config.providers.mls === 'demo') {
    const demo = createDemoODataServer(db);
    route(router, mlsRoutes.demoOData, async (ctx) => {
      await seedDemoMls(db);
      const res = await demo.handle(new URL(ctx.href));
      ctx.status = res.status;
      ctx.type = 'application/json';
      ctx.body = await res.text();
    });
  }

  return router;
}
