import { sql, type Kysely } from 'kysely';

// the contract's GEAR_CATEGORIES as they are today (a migration is history; enum-constraints holds the two together)
const CATEGORIES = `'guitar', 'bass', 'drums', 'keys', 'synth', 'drum_machine', 'sampler', 'microphone', 'interface',
  'mixer', 'monitor', 'headphones', 'amplifier', 'effect', 'controller', 'daw', 'plugin', 'computer', 'accessory', 'other'`;

/**
 * Gear: what musicians play and record with.
 *
 * - gear_items: one row per item; model_key is its brand and model in one normal form (gear_model_key:
 *   lower case, accents removed, spacing collapsed), so "Moog  subsequent 37" and "moog Subsequent 37"
 *   are one model. Public items are searchable through the engine's document riff_doc(brand, model,
 *   nickname) with the indexes of migration 0015's kind.
 * - gear_photos: the stored files of an item's photos (two sizes each).
 * - track_gear: which items a track names (the owner's own items only).
 * - gear_model_owners: per model and owner, how many public items of it they hold; counted is false
 *   while the account is deactivated or banned. gear_models keeps, per model, the number of counted
 *   owners (and the brand, model and category as its first owner wrote them), changed in the same
 *   transactions, so the most owned models are read from an index, never grouped from the items.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function gear_model_key(text, text) returns text language sql immutable strict parallel safe
    as $$ select regexp_replace(btrim(public.riff_norm($1)), '\\s+', ' ', 'g') || '|' || regexp_replace(btrim(public.riff_norm($2)), '\\s+', ' ', 'g') $$`.execute(
    db,
  );
  await sql
    .raw(
      `create table gear_items (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references users(id) on delete cascade,
        category text not null check (category in (${CATEGORIES})),
        brand text not null, model text not null, nickname text, year integer, notes text, acquired_at date,
        is_public boolean not null default true,
        model_key text not null,
        created_at timestamptz not null default now(), updated_at timestamptz not null default now()
      )`,
    )
    .execute(db);
  await sql`create index gear_items_user on gear_items (user_id, created_at desc, id)`.execute(db);
  const doc = 'riff_doc(brand, model, nickname)';
  await sql
    .raw(
      `create index gear_items_search_tsv on gear_items using gin (to_tsvector('simple'::regconfig, ${doc})) where is_public`,
    )
    .execute(db);
  await sql
    .raw(`create index gear_items_search_trgm on gear_items using gin ((${doc}) gin_trgm_ops) where is_public`)
    .execute(db);
  await sql
    .raw(
      `create table gear_photos (
        id uuid primary key default gen_random_uuid(),
        gear_id uuid not null references gear_items(id) on delete cascade,
        large_key text not null, small_key text not null, content_type text not null,
        created_at timestamptz not null default now()
      )`,
    )
    .execute(db);
  await sql`create index gear_photos_item on gear_photos (gear_id, created_at, id)`.execute(db);
  await sql
    .raw(
      `create table track_gear (
        track_id uuid not null references tracks(id) on delete cascade,
        gear_id uuid not null references gear_items(id) on delete cascade,
        created_at timestamptz not null default now(),
        primary key (track_id, gear_id)
      )`,
    )
    .execute(db);
  await sql`create index track_gear_item on track_gear (gear_id)`.execute(db);
  await sql
    .raw(
      `create table gear_models (
        model_key text primary key,
        brand text not null, model text not null,
        category text not null check (category in (${CATEGORIES})),
        owners integer not null default 0 check (owners >= 0)
      )`,
    )
    .execute(db);
  await sql`create index gear_models_owners on gear_models (owners desc, model_key) where owners > 0`.execute(db);
  await sql`create index gear_models_category on gear_models (category, owners desc, model_key) where owners > 0`.execute(
    db,
  );
  await sql
    .raw(
      `create table gear_model_owners (
        model_key text not null references gear_models(model_key) on delete cascade,
        user_id uuid not null references users(id) on delete cascade,
        items integer not null check (items > 0),
        counted boolean not null default true,
        since timestamptz not null default now(),
        primary key (model_key, user_id)
      )`,
    )
    .execute(db);
  await sql`create index gear_model_owners_user on gear_model_owners (user_id)`.execute(db);
  await sql`create index gear_model_owners_since on gear_model_owners (model_key, since desc, user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['gear_model_owners', 'gear_models', 'track_gear', 'gear_photos', 'gear_items']) {
    await sql.raw(`drop table ${table}`).execute(db);
  }
  await sql`drop function gear_model_key(text, text)`.execute(db);
}
