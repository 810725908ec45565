import { z } from 'zod';
import { isoDateTimeSchema } from './common.js';

/**
 * How the browser that asks may use an agent (DESIGN §3): `signed_in` (password, Google, an opened email link
 * or an admin's Login As) reaches the dashboard and everything of the agent; `draft` is the wizard's access of
 * a browser that found the member (or made the manual agent): the public profile merged with this browser's
 * own branding draft, listings, and its own campaigns.
 */
export const AGENT_ACCESS_LEVELS = ['signed_in', 'draft'] as const;
export type AgentAccessLevel = (typeof AGENT_ACCESS_LEVELS)[number];

/**
 * An agent as GET/POST/PUT /api/agents… answer it: no password hash, no secrets. `hasPassword` tells whether an
 * account with a password exists; `verified` whether someone opened a link sent to the agent's email (the
 * identity then has an owner, and its public pages show its own branding).
 */
export const agentViewSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  state: z.string(),
  brokerage: z.string().nullable(),
  mlsId: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  logoUrl: z.string().nullable(),
  hasPassword: z.boolean(),
  verified: z.boolean(),
  access: z.enum(AGENT_ACCESS_LEVELS),
  /** Signed in only: a new login email waiting for its link to be opened (emails go to `email` until then). */
  pendingEmail: z.string().nullable().optional(),
  createdAt: isoDateTimeSchema,
});
export type AgentView = z.infer<typeof agentViewSchema>;

/**
 * POST /api/auth/login and GET /api/auth/me: who is logged in. `impersonatedBy` only on an admin's Login As (GET /api/auth/me): such a session cannot change notification secrets.
 */
export const authAgentSchema = z.object({ id: z.number().int().positive(), name: z.string(), impersonatedBy: z.literal('admin').optional() });
export type AuthAgent = z.infer<typeof authAgentSchema>;

/** POST /api/mls/search-agent: the MLS member found for a name and state. */
export const mlsAgentMatchSchema = z.object({
  name: z.string(),
  state: z.string(),
  email: z.string().nullable(),
  mlsId: z.string(),
});
export type MlsAgentMatch = z.infer<typeof mlsAgentMatchSchema>;

/** POST /api/mls/load: how many of the member's listings were stored, and how many were left out. */
export const mlsLoadResultSchema = z.object({
  loaded: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
});
export type MlsLoadResult = z.infer<typeof mlsLoadResultSchema>;
