import type { Knex } from 'knex';

/**
 * The sandbox ad platform's creatives, as Meta keeps them: the copy and every card, so that what a
 * carousel campaign sent can be read back (one row per creative; a single-image ad has one card).
 * Like sandbox_ad_campaigns, not tied to our tables: it stands for an outside system.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sandbox_ad_creatives', (t) => {
    t.string('id', 64).primary(); // sbx_cre_…
    t.string('name', 400).notNullable();
    t.string('format', 16).notNullable();
    t.text('primary_text').notNullable();
    t.string('headline', 400).notNullable();
    t.text('description').notNullable();
    t.text('link').notNullable();
    t.string('call_to_action', 50).notNullable();
    // [{ imageUrl, headline, description, link }], in the order the platform shows them.
    t.jsonb('cards').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`
    alter table sandbox_ad_creatives
      add constraint sandbox_ad_creatives_format_check check (format in ('single', 'carousel')),
      add constraint sandbox_ad_creatives_cards_check check (
        jsonb_typeof(cards) = 'array'
        and jsonb_array_length(cards) between 1 and 10
        and (format = 'carousel') = (jsonb_array_length(cards) >= 2)
      )
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sandbox_ad_creatives');
}
