import type { Knex } from 'knex';

/**
 * The browser that created a campaign (DESIGN §3, two levels of access): a wizard browser that is not signed in as
 * the agent may read, edit and pay for the campaigns it created, and no others. SHA-256 (hex) of that browser's key
 * (its session's `browserKey`).
 *
 * Campaigns made before are attributed where that is certain: when exactly one live session has the campaign's
 * agent in its wizard list, that session gets a browser key (if it had none) and the campaign is its browser's, so
 * a checkout in progress at the deploy goes on. The others are the signed-in agent's alone.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.string('created_by_browser', 64);
  });
  await knex.raw(`
    update sessions set data = data || jsonb_build_object('browserKey', replace(gen_random_uuid()::text, '-', ''))
     where jsonb_typeof(data->'wizardAgentIds') = 'array' and jsonb_array_length(data->'wizardAgentIds') > 0
       and not jsonb_exists(data, 'browserKey') and expires_at > now()
  `);
  await knex.raw(`
    with wizards as (
      select x.e::text as agent_id, min(s.data->>'browserKey') as browser_key, count(*) as sessions
        from sessions s cross join lateral jsonb_array_elements(s.data->'wizardAgentIds') as x(e)
       where jsonb_typeof(s.data->'wizardAgentIds') = 'array' and s.expires_at > now() and jsonb_exists(s.data, 'browserKey')
       group by x.e::text
    )
    update campaigns c set created_by_browser = encode(sha256(convert_to(w.browser_key, 'UTF8')), 'hex')
      from wizards w
     where w.agent_id = c.agent_id::text and w.sessions = 1
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.dropColumn('created_by_browser');
  });
}
