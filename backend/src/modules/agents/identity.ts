import type { AgentCreatePayload } from '@app/contracts';
import { Agent } from './agent.model';
import type { FoundMlsMember } from './mls-found';

/**
 * One agent is one person (DESIGN §3): one row per MLS member (`agents_mls_member_unique` on
 * (mls_system, mls_id) where source = 'mls'), whichever browser finds it.
 *
 * The identity of a member this browser found, made the first time (`created`), the same row every time after.
 * One statement, race-free on the unique index. What the MLS publishes (name, email, phone, brokerage) is
 * refreshed on every find; an identity nobody verified shows exactly that, so its own columns follow too.
 */
export async function identityForMember(found: FoundMlsMember): Promise<{ agent: Agent; created: boolean }> {
  const email = found.email ? found.email.trim().toLowerCase() : null;
  const knex = Agent.knex();
  const { rows } = await knex.raw<{ rows: { id: number; created: boolean }[] }>(
    `insert into agents (name, state, email, phone, brokerage, mls_id, mls_system, source, mls_name, mls_email, mls_phone, mls_brokerage)
     values (?, ?, ?, ?, ?, ?, ?, 'mls', ?, ?, ?, ?)
     on conflict (mls_system, mls_id) where source = 'mls' do update
        set mls_name = excluded.mls_name, mls_email = excluded.mls_email, mls_phone = excluded.mls_phone, mls_brokerage = excluded.mls_brokerage,
            name = case when agents.verified_at is null then excluded.name else agents.name end,
            email = case when agents.verified_at is null then excluded.email else agents.email end,
            phone = case when agents.verified_at is null then excluded.phone else agents.phone end,
            brokerage = case when agents.verified_at is null then excluded.brokerage else agents.brokerage end,
            updated_at = now()
      where (agents.mls_name, agents.mls_email, agents.mls_phone, agents.mls_brokerage)
            is distinct from (excluded.mls_name, excluded.mls_email, excluded.mls_phone, excluded.mls_brokerage)
     returning id, (xmax = 0) as created`,
    [found.name, found.state, email, found.phone, found.brokerage, found.mlsId, found.system, found.name, email, found.phone, found.brokerage],
  );
  const agent = rows[0]
    ? await Agent.query().findById(rows[0].id)
    : await Agent.query().findOne({ mlsSystem: found.system, mlsId: found.mlsId, source: 'mls' });
  if (!agent) throw new Error(`the identity of MLS member ${found.mlsId} vanished`);
  return { agent, created: !!rows[0]?.created };
}

/**
 * A manual agent (the wizard's "enter it manually"). Unverified until an email link is opened; verified with an
 * email another verified manual agent has, it merges into that one (account.service `verifyEmail`). An MLS ID
 * typed here is display data, never a key: it can neither take a member's identity nor lock one out.
 */
export async function createManualAgent(input: AgentCreatePayload): Promise<Agent> {
  return Agent.query().insertAndFetch({
    name: input.name,
    state: input.state,
    email: input.email ?? null,
    phone: input.phone ?? null,
    brokerage: input.brokerage ?? null,
    mlsId: input.mlsId ?? null,
    source: 'manual',
  });
}
