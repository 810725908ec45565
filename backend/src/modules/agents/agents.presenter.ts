import type { AgentAccessLevel, AgentView } from '@app/contracts';
import type { Agent } from './agent.model';
import { withDraft, type DraftFields } from './drafts';
import { publicProfileOf } from './public-agent';

/**
 * The agent on the wire: no password hash, no secrets. What it shows depends on who asks (DESIGN §3):
 * - signed in as the agent: the agent's own row, and a login email waiting for its link (`pendingEmail`);
 * - a wizard browser (draft access): the public profile merged with this browser's own branding draft, so the
 *   wizard previews what it typed at once, while nothing of it reaches the agent.
 */
export function presentAgent(a: Agent, opts: { access: AgentAccessLevel; draft?: DraftFields | null; pendingEmail?: string | null }): AgentView {
  const profile =
    opts.access === 'signed_in'
      ? { name: a.name, email: a.email, phone: a.phone, brokerage: a.brokerage, profileImageUrl: a.profileImageUrl, logoUrl: a.logoUrl }
      : withDraft(publicProfileOf(a), opts.draft ?? null);
  return {
    id: a.id,
    ...profile,
    name: profile.name ?? a.name,
    state: a.state,
    mlsId: a.mlsId,
    hasPassword: a.hasPassword,
    verified: a.verified,
    access: opts.access,
    ...(opts.access === 'signed_in' ? { pendingEmail: opts.pendingEmail ?? null } : {}),
    createdAt: new Date(a.createdAt).toISOString(),
  };
}

export type { AgentView };
