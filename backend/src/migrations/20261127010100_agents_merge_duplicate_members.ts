import type { Knex } from 'knex';

/**
 * One agent per MLS member (DESIGN §3, issue 23): until now every browser that found a member made an agent of
 * its own, so one person could be several rows (the review found 8 "Sarah Johnson"). This merges them, in a
 * few set-based statements whatever the number of agents (`npm run bench:identity-merge`: 100,000 agents):
 *
 * 1. Groups: MLS agents by (mls_system, mls_id). The survivor is the verified one (password, Google or an
 *    opened link; the earliest verified if several), else the oldest. Every other row is merged into it.
 * 2. Listings: one row per MLS listing. Rows of one member fold into the survivor's; rows of the same MLS
 *    listing held by different members (the listing moved to another agent in the MLS) keep the one loaded
 *    last. Campaigns and leads of a dropped row move to the kept one. Manual listings fold only within one agent.
 * 3. Everything of a merged agent moves to the survivor: listings, campaigns (the admin figures follow through
 *    the campaigns trigger, spending included), leads, the lead snapshots, messages and delivery attempts, and
 *    uploads. The survivor keeps its own notification settings (the verified one's); a merged agent's go with it.
 * 4. Each merge is written to agent_merges with what moved. Sessions that named a merged agent lose it.
 * 5. Lead routing set on an identity nobody verified is removed (it reached public leads without an owner's
 *    consent), and such an identity's branding returns to what the MLS publishes: edits reach the agent only
 *    from a signed-in owner from now on.
 * 6. The rules become unique indexes: one agent per (mls_system, mls_id), one listing per MLS listing.
 */
export async function up(trx: Knex): Promise<void> {
  // Knex runs each migration in a transaction: all of this commits together or not at all.
  {
    await trx.raw(`
      create temporary table merge_map as
      select id as merged_id, survivor_id
        from (select id,
                     first_value(id) over (partition by mls_system, mls_id
                                           order by (verified_at is null), verified_at, created_at, id) as survivor_id
                from agents where source = 'mls') g
       where id <> survivor_id
    `);
    await trx.raw(`alter table merge_map add primary key (merged_id)`);
    await trx.raw(`analyze merge_map`);

    // Each listing row with the agent it will belong to, and the row it folds into.
    await trx.raw(`
      create temporary table listing_map as
      select id as dropped_id, keeper_id
        from (select l.id,
                     first_value(l.id) over (
                       partition by case when l.mls_id like 'MANUAL-%' then coalesce(m.survivor_id, l.agent_id) end, l.mls_id
                       order by l.updated_at desc, l.id desc) as keeper_id
                from listings l left join merge_map m on m.merged_id = l.agent_id) x
       where id <> keeper_id
    `);
    await trx.raw(`alter table listing_map add primary key (dropped_id)`);
    await trx.raw(`analyze listing_map`);

    // What each merge moves, counted before anything moves.
    await trx.raw(`
      insert into agent_merges (survivor_id, merged_id, reason, moved)
      select m.survivor_id, m.merged_id, 'duplicate_member',
             jsonb_build_object(
               'campaigns', coalesce(c.n, 0),
               'listings', coalesce(l.moved, 0),
               'listingsFolded', coalesce(l.folded, 0),
               'leads', coalesce(ld.n, 0),
               'uploads', coalesce(u.n, 0),
               'messages', coalesce(ms.n, 0),
               'deliveries', coalesce(d.n, 0))
        from merge_map m
        left join (select agent_id, count(*) as n from campaigns group by agent_id) c on c.agent_id = m.merged_id
        left join (select l.agent_id, count(*) filter (where lm.dropped_id is null) as moved, count(lm.dropped_id) as folded
                     from listings l left join listing_map lm on lm.dropped_id = l.id group by l.agent_id) l on l.agent_id = m.merged_id
        left join (select agent_id, count(*) as n from leads group by agent_id) ld on ld.agent_id = m.merged_id
        left join (select agent_id, count(*) as n from uploads where agent_id is not null group by agent_id) u on u.agent_id = m.merged_id
        left join (select agent_id, count(*) as n from notification_messages group by agent_id) ms on ms.agent_id = m.merged_id
        left join (select agent_id, count(*) as n from notification_deliveries group by agent_id) d on d.agent_id = m.merged_id
    `);

    // Listings: campaigns and leads of a dropped row move to the kept one, then the dropped rows go.
    await trx.raw(`update campaigns c set listing_id = lm.keeper_id from listing_map lm where c.listing_id = lm.dropped_id`);
    await trx.raw(`update leads ld set listing_id = lm.keeper_id from listing_map lm where ld.listing_id = lm.dropped_id`);
    await trx.raw(`delete from listings l using listing_map lm where l.id = lm.dropped_id`);

    // Everything of a merged agent to its survivor.
    await trx.raw(`update listings t set agent_id = m.survivor_id from merge_map m where t.agent_id = m.merged_id`);
    await trx.raw(`update campaigns t set agent_id = m.survivor_id from merge_map m where t.agent_id = m.merged_id`);
    await trx.raw(`update leads t set agent_id = m.survivor_id from merge_map m where t.agent_id = m.merged_id`);
    await trx.raw(`update notification_leads t set agent_id = m.survivor_id from merge_map m where t.agent_id = m.merged_id`);
    await trx.raw(`update notification_messages t set agent_id = m.survivor_id from merge_map m where t.agent_id = m.merged_id`);
    await trx.raw(`update notification_deliveries t set agent_id = m.survivor_id from merge_map m where t.agent_id = m.merged_id`);
    await trx.raw(`update uploads t set agent_id = m.survivor_id from merge_map m where t.agent_id = m.merged_id`);

    // Sessions lose the merged agents: logged in as one, or holding one in the wizard's list.
    await trx.raw(`
      update sessions s set data = s.data - 'agentId', updated_at = now()
        from merge_map m where (s.data->>'agentId') = m.merged_id::text
    `);
    // Every listed id, flattened once, joined with the merged ones in one pass (ids compared as text: a stray
    // non-number never breaks it). Flattened inside the join instead, the planner (which cannot estimate how many
    // sessions hold a list) scanned the merged ids once per session.
    await trx.raw(`
      with elements as materialized (
        select s.sid, x.e, x.n
          from sessions s cross join lateral jsonb_array_elements(s.data->'wizardAgentIds') with ordinality as x(e, n)
         where jsonb_typeof(s.data->'wizardAgentIds') = 'array'
      ),
      affected as (
        select el.sid, coalesce(jsonb_agg(el.e order by el.n) filter (where m.merged_id is null), '[]'::jsonb) as kept
          from elements el left join merge_map m on m.merged_id::text = el.e::text
         group by el.sid
        having count(m.merged_id) > 0
      )
      update sessions s set data = jsonb_set(s.data, '{wizardAgentIds}', a.kept), updated_at = now()
        from affected a where s.sid = a.sid
    `);

    // Deleting an agent checks every table that refers to it: these two had no index on the agent (each deleted
    // agent would scan them whole), and merges (this one and later ones) move their rows by agent too.
    await trx.raw('create index if not exists notification_leads_agent_id_idx on notification_leads (agent_id)');
    await trx.raw('create index if not exists uploads_agent_id_idx on uploads (agent_id) where agent_id is not null');

    // The merged agents go (their settings, drafts and links with them: nothing else refers to them now).
    await trx.raw(`delete from agents a using merge_map m where a.id = m.merged_id`);

    // Nobody verified these identities: what strangers set on them stops now.
    await trx.raw(`
      update notification_settings s
         set webhook_url = null, webhook_secret_enc = null, webhook_disabled_at = null, zapier_webhook_url = null, zapier_disabled_at = null,
             crm_type = null, crm_webhook_url = null, crm_api_key_enc = null, crm_disabled_at = null, updated_at = now()
        from agents a
       where a.id = s.agent_id and a.verified_at is null
         and (s.webhook_url is not null or s.zapier_webhook_url is not null or s.crm_type is not null)
    `);
    await trx.raw(`
      update agents
         set name = coalesce(mls_name, name), email = mls_email, phone = mls_phone, brokerage = mls_brokerage,
             profile_image_url = null, logo_url = null, updated_at = now()
       where source = 'mls' and verified_at is null
         and (name, email, phone, brokerage, profile_image_url, logo_url)
             is distinct from (coalesce(mls_name, name), mls_email, mls_phone, mls_brokerage, null, null)
    `);

    await trx.raw(`create unique index agents_mls_member_unique on agents (mls_system, mls_id) where source = 'mls'`);
    await trx.raw(`create unique index listings_mls_listing_unique on listings (mls_id) where mls_id not like 'MANUAL-%'`);
    await trx.raw('drop table listing_map');
    await trx.raw('drop table merge_map');
  }
}

/** The merge cannot be undone (the merged rows are gone; agent_merges says what happened); the indexes can. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists uploads_agent_id_idx');
  await knex.raw('drop index if exists notification_leads_agent_id_idx');
  await knex.raw('drop index if exists listings_mls_listing_unique');
  await knex.raw('drop index if exists agents_mls_member_unique');
}
