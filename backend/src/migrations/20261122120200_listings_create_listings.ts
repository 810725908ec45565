import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('listings', (t) => {
    t.increments('id');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.string('mls_id', 100).notNullable();
    t.string('address', 255).notNullable();
    t.string('city', 100).notNullable();
    t.string('state', 100).notNullable();
    t.string('postal_code', 20);
    // decimal(10,2) in the spec; integer cents here (max 99,999,999.99).
    t.bigInteger('price_cents').notNullable();
    t.integer('bedrooms');
    t.decimal('bathrooms', 4, 1);
    t.integer('square_feet');
    t.string('status', 20).notNullable();
    t.text('image_url');
    t.jsonb('images').notNullable().defaultTo('[]');
    t.text('description');
    t.string('lot_size', 100);
    t.integer('lot_size_sq_ft');
    t.integer('year_built');
    t.integer('garage_spaces');
    t.string('property_type', 100);
    t.jsonb('amenities').notNullable().defaultTo('{}');
    t.string('elementary_school', 255);
    t.string('middle_school', 255);
    t.string('high_school', 255);
    t.string('school_district', 255);
    t.decimal('latitude', 9, 6);
    t.decimal('longitude', 9, 6);
    t.date('list_date');
    t.date('sold_date');
    t.integer('days_on_market');
    t.text('zillow_url');
    t.string('originating_system_name', 255);
    t.jsonb('mls_compliance').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // MLS load upserts on this key, so loading twice duplicates nothing.
    t.unique(['agent_id', 'mls_id']);
    t.index(['mls_id']);
    t.index(['agent_id', 'status']);
  });
  await knex.raw(`
    alter table listings
      add constraint listings_status_check check (status in ('active', 'sold')),
      add constraint listings_price_check check (price_cents >= 0 and price_cents <= 9999999999),
      add constraint listings_bedrooms_check check (bedrooms is null or bedrooms >= 0),
      add constraint listings_bathrooms_check check (bathrooms is null or bathrooms >= 0),
      add constraint listings_square_feet_check check (square_feet is null or square_feet > 0),
      add constraint listings_images_check check (jsonb_typeof(images) = 'array'),
      add constraint listings_latitude_check check (latitude is null or latitude between -90 and 90),
      add constraint listings_longitude_check check (longitude is null or longitude between -180 and 180)
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('listings');
}
