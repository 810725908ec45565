import type { Knex } from 'knex';
import { mlsSystemOf } from '../platform/config';

/**
 * One agent is one person (DESIGN §3 Identity, issue 23). The columns and tables the identity rules need; the
 * duplicates that exist today are merged by the next migration (20261127010100), which then makes the rule a
 * unique index.
 *
 * - agents.mls_system: which MLS the member belongs to (`mlsSystemOf`: `demo`, or the RESO Web API's address).
 *   MLS agents made so far belong to the MLS this server is configured with.
 * - agents.mls_name / mls_phone / mls_brokerage: what the MLS publishes for the member, beside mls_email (the
 *   trust anchor). An unverified identity's public pages show these; a find in the MLS refreshes them.
 * - agents.verified_at: someone opened a link sent to the agent's email (or set a password, or linked Google,
 *   which took an opened link or Google's verified email). Only then do branding, contact and lead routing
 *   reach public pages, and only then does email with content go to the address.
 * - agent_drafts: one browser's branding draft for an identity it may not change (the wizard's step 4).
 * - agent_merges: every merge of one agent into another (this migration's successor, and a manual agent whose
 *   verified email another verified manual agent already has), with what moved.
 * - agent_email_verifications: a `sign_in` purpose (the emailed sign-in link), and a password that is optional
 *   at account setup.
 * - sessions: the wizard's list and the browser's own key take their new names (`wizardAgentIds`, `browserKey`).
 * - the campaigns → agents stats trigger also moves the spent amount when a campaign changes agent (a merge).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table agents
      add column mls_system varchar(255),
      add column mls_name varchar(255),
      add column mls_phone varchar(50),
      add column mls_brokerage varchar(255),
      add column verified_at timestamptz
  `);
  // Without a member id an agent cannot be an MLS identity: it is one entered by hand (none is expected).
  await knex.raw(`update agents set source = 'manual' where source = 'mls' and mls_id is null`);
  await knex.raw(`update agents set mls_system = ?, mls_name = name, mls_phone = phone, mls_brokerage = brokerage where source = 'mls'`, [mlsSystemOf(process.env)]);
  await knex.raw(`alter table agents add constraint agents_mls_identity_check check (source <> 'mls' or (mls_id is not null and mls_system is not null))`);
  // Verified: a password (set through an opened link), Google (its verified email), or a link that was opened.
  await knex.raw(`
    update agents a
       set verified_at = coalesce(
             (select min(v.used_at) from agent_email_verifications v
               where v.agent_id = a.id and v.used_at is not null and v.purpose in ('account_setup', 'email_change')),
             a.updated_at)
     where a.password_hash is not null or a.google_id is not null
        or exists (select 1 from agent_email_verifications v
                    where v.agent_id = a.id and v.used_at is not null and v.purpose in ('account_setup', 'email_change'))
  `);
  // A manual agent is identified by its verified email.
  await knex.raw(`create unique index agents_manual_verified_email_unique on agents (lower(email)) where source = 'manual' and verified_at is not null`);
  // The sign-in link and the unverified identity's notices find agents by the MLS's email.
  await knex.raw(`create index agents_mls_email_idx on agents (lower(mls_email)) where mls_email is not null`);

  await knex.schema.createTable('agent_drafts', (t) => {
    t.integer('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    // SHA-256 of the browser's key (its session's `browserKey`).
    t.string('browser_hash', 64).notNullable();
    // The branding fields this browser set: a key present is drafted (null = cleared), absent = the agent's own.
    t.jsonb('fields').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['agent_id', 'browser_hash']);
  });
  await knex.raw(`alter table agent_drafts add constraint agent_drafts_fields_check check (jsonb_typeof(fields) = 'object')`);

  await knex.schema.createTable('agent_merges', (t) => {
    t.bigIncrements('id');
    // Plain ids: the merged agent is gone, and the record outlives either row.
    t.integer('survivor_id').notNullable();
    t.integer('merged_id').notNullable();
    t.string('reason', 30).notNullable();
    // What moved to the survivor, by table: { campaigns: 2, listings: 3, listingsFolded: 1, leads: 4, … }.
    t.jsonb('moved').notNullable().defaultTo('{}');
    t.timestamp('merged_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['survivor_id']);
    t.index(['merged_id']);
  });
  await knex.raw(`alter table agent_merges add constraint agent_merges_reason_check check (reason in ('duplicate_member', 'verified_email'))`);

  await knex.raw(`
    alter table agent_email_verifications
      drop constraint agent_email_verifications_purpose_check,
      add constraint agent_email_verifications_purpose_check check (purpose in ('account_setup', 'email_change', 'password_reset', 'sign_in')),
      drop constraint agent_email_verifications_password_check,
      add constraint agent_email_verifications_password_check check (password_hash is null or purpose = 'account_setup')
  `);

  await knex.raw(`
    update sessions
       set data = (data - 'ownedAgentIds' - 'verifyNonce')
                  || case when jsonb_exists(data, 'ownedAgentIds') then jsonb_build_object('wizardAgentIds', data->'ownedAgentIds') else '{}'::jsonb end
                  || case when jsonb_exists(data, 'verifyNonce') then jsonb_build_object('browserKey', data->'verifyNonce') else '{}'::jsonb end
     where jsonb_exists_any(data, array['ownedAgentIds', 'verifyNonce'])
  `);

  // The campaigns trigger (20261125140000) moved the counts of a campaign that changes agent, not its spending:
  // a merge moves campaigns, so the succeeded payments of a moved campaign now move with it.
  await knex.raw(`
    create or replace function agents_stats_from_campaigns() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update agents a set total_campaigns = a.total_campaigns + d.total, active_campaigns = a.active_campaigns + d.active
          from (select agent_id, count(*)::int as total, (count(*) filter (where status = 'active'))::int as active
                  from new_rows group by agent_id) d
         where a.id = d.agent_id;
      elsif tg_op = 'DELETE' then
        update agents a set total_campaigns = a.total_campaigns - d.total, active_campaigns = a.active_campaigns - d.active
          from (select agent_id, count(*)::int as total, (count(*) filter (where status = 'active'))::int as active
                  from old_rows group by agent_id) d
         where a.id = d.agent_id;
      else
        update agents a set total_campaigns = a.total_campaigns + d.total, active_campaigns = a.active_campaigns + d.active
          from (select agent_id, sum(total)::int as total, sum(active)::int as active
                  from (select o.agent_id, -1 as total, -(o.status = 'active')::int as active
                          from old_rows o join new_rows n on n.id = o.id
                         where o.status is distinct from n.status or o.agent_id is distinct from n.agent_id
                        union all
                        select n.agent_id, 1, (n.status = 'active')::int
                          from old_rows o join new_rows n on n.id = o.id
                         where o.status is distinct from n.status or o.agent_id is distinct from n.agent_id) x
                 group by agent_id) d
         where a.id = d.agent_id and (d.total <> 0 or d.active <> 0);
        update agents a set spent_cents = a.spent_cents + d.cents
          from (select agent_id, sum(cents)::bigint as cents
                  from (select o.agent_id, -p.amount_cents::bigint as cents
                          from old_rows o join new_rows n on n.id = o.id join payments p on p.campaign_id = o.id
                         where o.agent_id is distinct from n.agent_id and p.status = 'succeeded'
                        union all
                        select n.agent_id, p.amount_cents::bigint
                          from old_rows o join new_rows n on n.id = o.id join payments p on p.campaign_id = n.id
                         where o.agent_id is distinct from n.agent_id and p.status = 'succeeded') x
                 group by agent_id) d
         where a.id = d.agent_id and d.cents <> 0;
      end if;
      return null;
    end $$
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    update sessions
       set data = (data - 'wizardAgentIds' - 'browserKey')
                  || case when jsonb_exists(data, 'wizardAgentIds') then jsonb_build_object('ownedAgentIds', data->'wizardAgentIds') else '{}'::jsonb end
                  || case when jsonb_exists(data, 'browserKey') then jsonb_build_object('verifyNonce', data->'browserKey') else '{}'::jsonb end
     where jsonb_exists_any(data, array['wizardAgentIds', 'browserKey'])
  `);
  await knex('agent_email_verifications').whereIn('purpose', ['sign_in']).delete();
  await knex('agent_email_verifications').where('purpose', 'account_setup').whereNull('password_hash').delete();
  await knex.raw(`
    alter table agent_email_verifications
      drop constraint agent_email_verifications_purpose_check,
      add constraint agent_email_verifications_purpose_check check (purpose in ('account_setup', 'email_change', 'password_reset')),
      drop constraint agent_email_verifications_password_check,
      add constraint agent_email_verifications_password_check check ((purpose = 'account_setup') = (password_hash is not null))
  `);
  await knex.schema.dropTable('agent_merges');
  await knex.schema.dropTable('agent_drafts');
  await knex.raw('drop index if exists agents_mls_email_idx');
  await knex.raw('drop index if exists agents_manual_verified_email_unique');
  await knex.raw(`
    alter table agents
      drop constraint agents_mls_identity_check,
      drop column verified_at, drop column mls_brokerage, drop column mls_phone, drop column mls_name, drop column mls_system
  `);
}
