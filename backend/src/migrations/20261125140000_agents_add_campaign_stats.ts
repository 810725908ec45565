import type { Knex } from 'knex';

/**
 * Per-agent figures for the admin agents list (modules/agents/admin-agent-list.ts), kept on the agents row
 * by the database itself: total campaigns, active campaigns and the sum of succeeded payments in cents.
 *
 * Why: the list filters, sorts and totals on these figures over 100,000 agents; aggregating 300,000
 * campaigns and payments on every request took seconds. Why triggers: every write to campaigns and
 * payments (the campaigns and payments modules, the jobs, the ops CLI, a seed) keeps them right in its
 * own transaction, and neither module has to know the admin list exists.
 *
 * The triggers are per statement with transition tables, so a batch (the metrics sync updating every
 * active campaign each minute, a bulk seed) costs one grouped UPDATE of the agents it changes, and an
 * update that changes no status touches no agent row. A campaign's agent never changes (no code path
 * updates campaigns.agent_id); the campaign trigger still moves its counts if it did.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table agents
      add column total_campaigns integer not null default 0,
      add column active_campaigns integer not null default 0,
      add column spent_cents bigint not null default 0,
      add constraint agents_campaign_stats_check check (total_campaigns >= 0 and active_campaigns between 0 and total_campaigns and spent_cents >= 0)
  `);

  await knex.raw(`
    update agents a set total_campaigns = s.total, active_campaigns = s.active
      from (select agent_id, count(*)::int as total, (count(*) filter (where status = 'active'))::int as active
              from campaigns group by agent_id) s
     where s.agent_id = a.id
  `);
  await knex.raw(`
    update agents a set spent_cents = s.spent
      from (select c.agent_id, sum(p.amount_cents)::bigint as spent
              from payments p join campaigns c on c.id = p.campaign_id
             where p.status = 'succeeded' group by c.agent_id) s
     where s.agent_id = a.id
  `);

  // campaigns: counts. One function for the three operations; each branch names only the transition
  // tables its trigger declares (PL/pgSQL plans a statement when it first runs it).
  await knex.raw(`
    create function agents_stats_from_campaigns() returns trigger language plpgsql as $$
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
      end if;
      return null;
    end $$
  `);
  await knex.raw(`create trigger campaigns_agent_stats_insert after insert on campaigns referencing new table as new_rows
                  for each statement execute function agents_stats_from_campaigns()`);
  await knex.raw(`create trigger campaigns_agent_stats_update after update on campaigns referencing old table as old_rows new table as new_rows
                  for each statement execute function agents_stats_from_campaigns()`);
  await knex.raw(`create trigger campaigns_agent_stats_delete after delete on campaigns referencing old table as old_rows
                  for each statement execute function agents_stats_from_campaigns()`);

  // payments: succeeded amounts, credited to the agent of the payment's campaign.
  await knex.raw(`
    create function agents_stats_from_payments() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update agents a set spent_cents = a.spent_cents + d.cents
          from (select c.agent_id, sum(p.amount_cents)::bigint as cents
                  from new_rows p join campaigns c on c.id = p.campaign_id
                 where p.status = 'succeeded' group by c.agent_id) d
         where a.id = d.agent_id and d.cents <> 0;
      elsif tg_op = 'DELETE' then
        update agents a set spent_cents = a.spent_cents - d.cents
          from (select c.agent_id, sum(p.amount_cents)::bigint as cents
                  from old_rows p join campaigns c on c.id = p.campaign_id
                 where p.status = 'succeeded' group by c.agent_id) d
         where a.id = d.agent_id and d.cents <> 0;
      else
        update agents a set spent_cents = a.spent_cents + d.cents
          from (select c.agent_id, sum(x.cents)::bigint as cents
                  from (select campaign_id, -amount_cents::bigint as cents from old_rows where status = 'succeeded'
                        union all
                        select campaign_id, amount_cents::bigint from new_rows where status = 'succeeded') x
                  join campaigns c on c.id = x.campaign_id
                 group by c.agent_id) d
         where a.id = d.agent_id and d.cents <> 0;
      end if;
      return null;
    end $$
  `);
  await knex.raw(`create trigger payments_agent_stats_insert after insert on payments referencing new table as new_rows
                  for each statement execute function agents_stats_from_payments()`);
  await knex.raw(`create trigger payments_agent_stats_update after update on payments referencing old table as old_rows new table as new_rows
                  for each statement execute function agents_stats_from_payments()`);
  await knex.raw(`create trigger payments_agent_stats_delete after delete on payments referencing old table as old_rows
                  for each statement execute function agents_stats_from_payments()`);

  // The list's sorts and filters on the figures; the totals read the figures from the created_at index alone.
  await knex.raw('drop index if exists agents_created_at_id_idx');
  await knex.raw('create index agents_created_at_id_idx on agents (created_at, id) include (total_campaigns, active_campaigns, spent_cents)');
  await knex.raw('create index agents_lower_name_id_idx on agents (lower(name), id)');
  await knex.raw('create index agents_spent_cents_id_idx on agents (spent_cents, id)');
  await knex.raw('create index agents_total_campaigns_id_idx on agents (total_campaigns, id)');
  await knex.raw('create index agents_active_created_at_idx on agents (created_at, id) where active_campaigns > 0');
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['insert', 'update', 'delete']) {
    await knex.raw(`drop trigger if exists campaigns_agent_stats_${t} on campaigns`);
    await knex.raw(`drop trigger if exists payments_agent_stats_${t} on payments`);
  }
  await knex.raw('drop function if exists agents_stats_from_campaigns()');
  await knex.raw('drop function if exists agents_stats_from_payments()');
  await knex.raw('drop index if exists agents_active_created_at_idx');
  await knex.raw('drop index if exists agents_total_campaigns_id_idx');
  await knex.raw('drop index if exists agents_spent_cents_id_idx');
  await knex.raw('drop index if exists agents_lower_name_id_idx');
  await knex.raw('drop index if exists agents_created_at_id_idx');
  await knex.raw('create index agents_created_at_id_idx on agents (created_at, id)');
  await knex.raw('alter table agents drop constraint agents_campaign_stats_check, drop column total_campaigns, drop column active_campaigns, drop column spent_cents');
}
