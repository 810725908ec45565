import Router from '@koa/router';
import { mlsLoadSchema, mlsSearchSchema } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { rateLimit } from '../../platform/http/rate-limit';
import { actorOf } from '../../platform/auth/actor';
import type { AppDeps } from '../../platform/deps';
import { getAccessibleAgent, rememberFoundMlsMember } from '../agents';
import { createMlsProvider, type MlsProvider } from './providers';
import { loadListingsForAgent, searchAgent } from './mls.service';
import { serveDemoPhoto } from './demo-photos';

const Search = { body: mlsSearchSchema };
const Load = { body: mlsLoadSchema };

/** Agent searches per client IP per minute (DESIGN §3: MLS search is rate limited). */
export const SEARCH_RATE_LIMIT = { points: 20, durationSeconds: 60 };

export function mlsRouter({ config, db, logger }: AppDeps, provider: MlsProvider = createMlsProvider(config, logger)): Router {
  const router = new Router();

  router.post('/api/mls/search-agent', rateLimit({ name: 'mls-search', ...SEARCH_RATE_LIMIT }), validate(Search), async (ctx) => {
    const { name, state } = inputOf(ctx, Search).body;
    const member = await searchAgent(provider, name, state, ctx.state.log);
    // Remember it: POST /api/agents creates an MLS agent only for a member this session found.
    rememberFoundMlsMember(ctx, { ...member, system: config.mlsSystem });
    ctx.body = { name: member.name, state: member.state, email: member.email, mlsId: member.mlsId };
  });

  router.post('/api/mls/load', validate(Load), async (ctx) => {
    const { agentId, mlsId } = inputOf(ctx, Load).body;
    // The wizard's draft access is enough: loading refreshes the member's listings from the MLS, nothing else.
    const agent = await getAccessibleAgent(actorOf(ctx), agentId, 'draft');
    ctx.body = await loadListingsForAgent({ db, provider, agent, mlsId, log: ctx.state.log });
  });

  router.get('/demo-mls/photos/:file', serveDemoPhoto);

  return router;
}
