import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { accountSetupPayloadSchema, agentCreateSchema, agentUpdateSchema, agentViewSchema, idParam, verificationSentSchema } from '@app/contracts';
import { defineRoutes, route } from '../../platform/http/route';
import { accessLevelOf, actorOf, browserKeyOf, grantWizardAccess, hashOf, isImpersonating } from '../../platform/auth/actor';
import { consumeRateLimit, rateLimit } from '../../platform/http/rate-limit';
import { forbidden, impersonationRefused } from '../../platform/errors';
import { audit } from '../../platform/audit';
import type { AppDeps } from '../../platform/deps';
import { getAccessibleAgent, listSignedInAgents } from './agents.service';
import { createManualAgent, identityForMember } from './identity';
import { pendingEmailOf, requestAccountSetup, requestSignInLinkFor, saveBrandingDraft, updateSignedInAgent, type VerificationSentView } from './account.service';
import { loadDraft } from './drafts';
import { VERIFICATION_EMAIL_ADDRESS_RATE_LIMIT, VERIFICATION_EMAIL_IP_RATE_LIMIT, addAuthRoutes } from './auth.routes';
import { addGoogleLoginRoutes } from './google-login.routes';
import { addApiKeyRoutes } from './api-keys.routes';
import { presentAgent } from './agents.presenter';
import { foundMlsMember } from './mls-found';
import type { Agent } from './agent.model';
import { NO_IDENTITY_HOOKS, type IdentityHooks } from './identity-hooks';

const AgentIdParams = z.object({ id: idParam });
const AgentDoc = agentViewSchema.meta({ id: 'Agent' });
const VerificationSent = verificationSentSchema.meta({ id: 'VerificationSent', description: 'A link was emailed; nothing changes until it is opened' });

/** Agent creation per client address: a wizard makes one or two; a flood fills the database. */
export const AGENT_CREATE_RATE_LIMIT = { points: 100, durationSeconds: 10 * 60 } as const;

export const agentsRoutes = defineRoutes({
  create: {
    method: 'post', path: '/api/agents', auth: 'agent-optional', tag: 'agents', summary: "The wizard's agent: the identity of an MLS member this session found (201 the first time, 200 after), or a manual entry",
    description: 'One agent per MLS member, whichever browser finds it. This browser gets the wizard\'s draft access to it (its own branding draft and campaigns), never the account.',
    body: agentCreateSchema, ok: { 201: AgentDoc, 200: AgentDoc }, errors: [403],
  },
  list: { method: 'get', path: '/api/agents', auth: 'agent-optional', tag: 'agents', summary: 'The agent this session is signed in as (the dashboard\'s Select Agent)', ok: { 200: z.array(AgentDoc) } },
  get: {
    method: 'get', path: '/api/agents/:id', auth: 'agent', tag: 'agents', summary: 'One agent, as this browser may see it',
    description: "Signed in: the agent's own profile (`access: signed_in`). A wizard browser: the public profile merged with its own branding draft (`access: draft`). Another session's agent answers 404, like an unknown one.",
    params: AgentIdParams, ok: { 200: AgentDoc }, errors: [403, 404],
  },
  update: {
    method: 'put', path: '/api/agents/:id', auth: 'agent', tag: 'agents', summary: 'Branding and profile edit (signed in: the agent; a wizard browser: its own draft); with a password, the account setup',
    description:
      'Signed in as the agent, the fields are written to it; a new email waits for its link (`pendingEmail`), and an admin\'s Login As may not change it (403). ' +
      'From a wizard browser the fields are that browser\'s draft, answered merged at once and applied only when a signed-in session saves them or this browser opens the verification link. ' +
      'With a password the answer is 202, as for POST /api/agents/{id}/account-setup.',
    params: AgentIdParams, body: agentUpdateSchema, ok: { 200: AgentDoc, 202: VerificationSent }, errors: [403, 404, 409, 429],
  },
  accountSetup: {
    method: 'post', path: '/api/agents/:id/account-setup', auth: 'agent', tag: 'agents', summary: 'Account setup: email a one-time link that verifies the identity and signs in the browser that opens it (password optional)',
    description: "An MLS member's link goes to the email the MLS publishes (the typed email must be it); a manual agent's to the typed one. An identity with an owner gets a sign-in link to its own address (masked in the answer).",
    params: AgentIdParams, body: accountSetupPayloadSchema, ok: { 202: VerificationSent }, errors: [403, 404, 409, 429],
  },
  signInLink: {
    method: 'post', path: '/api/agents/:id/sign-in-link', auth: 'agent', tag: 'agents', summary: "A wizard browser offered sign-in: a one-time link to the identity's own address (masked in the answer)",
    params: AgentIdParams, ok: { 202: VerificationSent }, errors: [404, 409, 429],
  },
});

/** Each of these emails a link: bounded per client and per address (no mail bombing through us). */
async function limitLinkEmails(deps: AppDeps, ctx: Context, address: string | null): Promise<void> {
  await consumeRateLimit(deps.db, { name: 'verification-email-ip', ...VERIFICATION_EMAIL_IP_RATE_LIMIT }, ctx.ip);
  if (address) await consumeRateLimit(deps.db, { name: 'verification-email-address', ...VERIFICATION_EMAIL_ADDRESS_RATE_LIMIT }, address.toLowerCase());
}

/** The agent as this browser sees it: its own row when signed in, else the public profile with its draft. */
async function viewFor(deps: AppDeps, ctx: Context, agent: Agent) {
  const actor = actorOf(ctx);
  if (accessLevelOf(actor, agent.id) === 'signed_in') return presentAgent(agent, { access: 'signed_in', pendingEmail: await pendingEmailOf(deps.db, agent.id) });
  return presentAgent(agent, { access: 'draft', draft: await loadDraft(deps.db, agent.id, actor.browserHash) });
}

export function agentsRouter(deps: AppDeps, hooks: IdentityHooks = NO_IDENTITY_HOOKS): Router {
  const router = new Router();

  /**
   * The wizard's step 1: a member this browser found in the MLS, or an agent entered by hand. A found member is
   * one identity whoever finds it (201 the first time, 200 after); this browser gets the wizard's draft access
   * to it, never the account: an identity with an owner is offered the emailed sign-in link (the answer says
   * `verified`), never refused.
   */
  route(router, agentsRoutes.create, rateLimit({ name: 'agent-create', ...AGENT_CREATE_RATE_LIMIT }), async (ctx, { body: input }) => {
    let agent: Agent;
    let created = true;
    if (input.manualEntry === true) {
      agent = await createManualAgent(input);
    } else {
      // The schema guarantees an mlsId here; it must be one this session found with the MLS search.
      const found = foundMlsMember(ctx, input.mlsId!);
      if (!found) throw forbidden('agents.mls_search_required', 'Please search for your name in the MLS first: this MLS ID was not found in this session.');
      ({ agent, created } = await identityForMember(found));
    }
    if (accessLevelOf(actorOf(ctx), agent.id) !== 'signed_in') grantWizardAccess(ctx, agent.id);
    ctx.status = created ? 201 : 200;
    ctx.body = await viewFor(deps, ctx, agent);
  });

  // The dashboard's Select Agent: the agent this browser is signed in as.
  route(router, agentsRoutes.list, async (ctx) => {
    ctx.body = (await listSignedInAgents(actorOf(ctx))).map((a) => presentAgent(a, { access: 'signed_in' }));
  });

  route(router, agentsRoutes.get, async (ctx, { params }) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await viewFor(deps, ctx, await getAccessibleAgent(actorOf(ctx), params.id, 'draft'));
  });

  /**
   * Branding (wizard step 4) and the dashboard's profile edit. Signed in as the agent: written to the agent (a
   * new email waits for its link). A wizard browser: its own draft, answered merged at once; the agent is left as
   * it is. With a password: the account setup (spec 000's PUT), as POST …/account-setup.
   */
  route(router, agentsRoutes.update, async (ctx, { params, body }) => {
    const actor = actorOf(ctx);
    const agent = await getAccessibleAgent(actor, params.id, 'draft');
    const signedIn = accessLevelOf(actor, agent.id) === 'signed_in';
    if (body.password !== undefined) {
      if (isImpersonating(ctx)) throw impersonationRefused();
      ctx.status = 202;
      ctx.body = await accountSetup(ctx, agent, { email: body.email!, password: body.password });
      return;
    }
    if (signedIn) {
      const changesEmail = !!body.email && body.email.toLowerCase() !== (agent.email ?? '').toLowerCase();
      if (changesEmail && !isImpersonating(ctx)) await limitLinkEmails(deps, ctx, body.email!);
      const result = await updateSignedInAgent(deps, agent, body, { impersonated: isImpersonating(ctx), requesterHash: hashOf(browserKeyOf(ctx)) });
      ctx.body = await viewFor(deps, ctx, result.agent);
      return;
    }
    await saveBrandingDraft(deps, agent, body, hashOf(browserKeyOf(ctx)));
    ctx.body = await viewFor(deps, ctx, agent);
  });

  /** The success screen's account setup: a link to the identity's email (the MLS's own for a member); password optional. */
  async function accountSetup(ctx: Context, agent: Agent, input: { email: string; password?: string }): Promise<VerificationSentView> {
    await limitLinkEmails(deps, ctx, input.email);
    const sent = await requestAccountSetup(deps, agent, input, hashOf(browserKeyOf(ctx)));
    await audit(deps.db, { actorType: 'visitor', action: 'agent.account_setup_requested', targetType: 'agent', targetId: agent.id }, ctx);
    return sent;
  }

  route(router, agentsRoutes.accountSetup, async (ctx, { params, body }) => {
    if (isImpersonating(ctx)) throw impersonationRefused();
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'draft');
    ctx.status = 202;
    ctx.body = await accountSetup(ctx, agent, body);
  });

  /** A wizard browser offered sign-in for an identity that has an owner: a link to the identity's own address. */
  route(router, agentsRoutes.signInLink, async (ctx, { params }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'draft');
    await limitLinkEmails(deps, ctx, `agent:${agent.id}`);
    ctx.status = 202;
    ctx.body = await requestSignInLinkFor(deps, agent, hashOf(browserKeyOf(ctx)));
  });

  addAuthRoutes(router, deps, hooks);
  addGoogleLoginRoutes(router, deps, hooks);
  addApiKeyRoutes(router, deps);

  return router;
}
