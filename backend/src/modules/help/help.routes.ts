import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { HELP_FOLLOW_UP_TOPIC, helpFirstRequestSchema, helpFollowUpRequestSchema, helpRequestSchema, helpResponseSchema, type HelpResponse } from '@app/contracts';
import { configured, defineRoutes, route } from '../../platform/http/route';
import { rateLimit } from '../../platform/http/rate-limit';
import { actorOf } from '../../platform/auth/actor';
import type { AppDeps } from '../../platform/deps';
import { getAccessibleAgent } from '../agents';
import { integrationState, type IntegrationState } from '../notifications';
import { createHelpProvider, type HelpProvider } from './providers';

/** The help assistant (spec 001 §2, §7). */
export const helpRoutes = defineRoutes({
  ask: {
    method: 'post', path: '/api/ai-help', auth: 'agent-optional', tag: 'help', summary: 'Ask the help assistant (first request or follow-up), answered in Markdown',
    description: "First: {topic, context}. Follow-up: {topic: 'follow-up', context: {...original, originalTopic, previousMessages (last 2), followUpQuestion}}. Grounded in the agent's integration state (never its secrets).",
    body: z.union([helpFirstRequestSchema, helpFollowUpRequestSchema]), ok: { 200: helpResponseSchema }, errors: [400, 404, 429, 502],
  },
});

/** Help answers per browser session per minute, and per IP (a session is cheap to make; an IP is not). */
export const HELP_PER_SESSION_PER_MINUTE = 20;
export const HELP_PER_IP_PER_MINUTE = 60;

function sessionKey(ctx: Context): string {
  const session = ctx.session as { isNew?: boolean; externalKey?: string } | null;
  return session && !session.isNew && session.externalKey ? `s:${session.externalKey}` : 'anonymous';
}

/** The agent the answer is grounded in: context.agentId if this session may open it, else the logged-in agent. */
async function groundingOf(deps: AppDeps, ctx: Context, context: Record<string, unknown>): Promise<IntegrationState | null> {
  const actor = actorOf(ctx);
  const asked = Number(context.agentId);
  // An id outside PostgreSQL's integer range is no agent (and must not reach the query as a 500).
  const agentId = Number.isInteger(asked) && asked > 0 && asked <= 2_147_483_647 ? asked : actor.loggedInAgentId;
  if (!agentId) return null;
  // Someone else's agent is refused like elsewhere (404), so the help route cannot probe settings; the
  // integration state is the signed-in agent's business (a wizard browser hears 403 "please sign in").
  const agent = await getAccessibleAgent(actor, agentId, 'signed_in');
  return integrationState(deps, agent.id);
}

export function helpRouter(deps: AppDeps, provider: HelpProvider = createHelpProvider(deps.config, deps.logger)): Router {
  const router = new Router();
  const perIp = rateLimit({ name: 'help-ip', points: HELP_PER_IP_PER_MINUTE, durationSeconds: 60 });
  const perSession = rateLimit({ name: 'help-session', points: HELP_PER_SESSION_PER_MINUTE, durationSeconds: 60, key: sessionKey });

  // Validated with the schema that picks the branch by `topic` (its messages are about that branch only).
  route(router, configured(helpRoutes.ask, { body: helpRequestSchema }), perIp, perSession, async (ctx, { body }) => {
    const followUp = body.topic === HELP_FOLLOW_UP_TOPIC ? (body.context as { originalTopic: string; followUpQuestion: string; previousMessages: { content: string; isUser: boolean }[] }) : null;
    const integration = await groundingOf(deps, ctx, body.context as Record<string, unknown>);
    const answer: HelpResponse = {
      response: await provider.answer({
        topic: followUp ? followUp.originalTopic : body.topic,
        question: followUp ? followUp.followUpQuestion : null,
        previousMessages: followUp ? followUp.previousMessages.map((m) => ({ content: m.content, isUser: m.isUser })) : [],
        integration,
      }),
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer;
  });

  return router;
}
