import type { Knex } from 'knex';

/**
 * One-time email verifications (DESIGN §6 "Accounts"): an email becomes a login only after its owner
 * opens the link sent to it. The token itself is never stored, only its SHA-256; it works once
 * (`used_at`) and for 30 minutes (`expires_at`). Account setup keeps the chosen password's argon2id
 * hash here until the link is opened: until then the agent has no password.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('agent_email_verifications', (t) => {
    t.bigIncrements('id');
    t.integer('agent_id').notNullable().references('id').inTable('agents').onDelete('CASCADE');
    t.string('purpose', 30).notNullable();
    t.string('email', 255).notNullable();
    // Set by the job that sends the email (the token exists only in that email).
    t.string('token_hash', 64).unique();
    t.text('password_hash');
    // SHA-256 of a nonce kept in the requesting browser's session: only that browser may use the password
    // chosen with the request; anyone else opening the link must choose the password themselves.
    t.string('requester_hash', 64);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['agent_id', 'purpose']);
    t.index(['expires_at']);
  });
  await knex.raw(
    `alter table agent_email_verifications add constraint agent_email_verifications_purpose_check
       check (purpose in ('account_setup', 'email_change', 'password_reset'))`,
  );
  await knex.raw(
    `alter table agent_email_verifications add constraint agent_email_verifications_password_check
       check ((purpose = 'account_setup') = (password_hash is not null))`,
  );
  await knex.raw(`alter table agent_email_verifications add constraint agent_email_verifications_email_check check (email = lower(btrim(email)) and length(email) > 0)`);
  // Sessions are looked up by the agent they are logged in as when that agent's access is revoked.
  await knex.raw(`create index sessions_agent_id_idx on sessions ((data->>'agentId')) where (data->>'agentId') is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists sessions_agent_id_idx');
  await knex.schema.dropTable('agent_email_verifications');
}
