/**
 * Gear discovery at scale: `DATABASE_URL=… npm run bench:gear` (`-- --quick` for a short run,
 * `-- --sizes=2000,20000` for other sizes, `-- --keep` to leave the seeded rows). On PostgreSQL only.
 *
 * Items are seeded in SQL (generate_series, not the API) at each size, 10,000 then 1,000,000 by
 * default, over 20,000 accounts (50 items each at the large size), the models skewed (a few owned by
 * thousands, most by one or two), 90 % public, with the per-model owner counts (gear_models,
 * gear_model_owners) built as the service keeps them. A signed-in viewer who blocked five of the
 * busiest owners asks: a search with a typo, an exact search, a model, the most owned models (all, and
 * of one category), and the owners of the most owned model. p95 at each size and the ratio (goal
 * ≤ 2×). The small size is measured before and after the large one and its latencies pooled.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type RawBuilder } from 'kysely';
import { migrateToLatest, openDatabase } from '../server/src/platform/db/database.js';
import { latenciesOf, loadAverages, secondsSince, signInUser, startRiff } from './bench-support.js';
import { percentile } from './live-scenario.js';

const quick = process.argv.includes('--quick');
const keep = process.argv.includes('--keep');
const sizesArg = process.argv.find((arg) => arg.startsWith('--sizes='))?.slice('--sizes='.length);
const [SMALL, LARGE] = (sizesArg ? sizesArg.split(',').map(Number) : [10_000, 1_000_000]) as [number, number];
const seconds = quick ? 4 : 10;
const connections = 4;
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('bench:gear runs on PostgreSQL: set DATABASE_URL');

const USERS = 20_000;
const BRANDS = 60;
const CATEGORIES = sql.raw(`array['guitar', 'bass', 'synth', 'keys', 'microphone', 'effect', 'interface', 'plugin']`);

const opened = await openDatabase({ databaseUrl, dataDir: await mkdtemp(path.join(tmpdir(), 'riff-bench-gear-')) });
const db = opened.db;
await migrateToLatest(db);
/** Fixed ids, so a later run (or one stopped half-way) finds the same accounts. */
const benchUser = (n: RawBuilder<unknown>) => sql`md5('bench-gear-user-' || ${n})::uuid`;

async function seedUsers() {
  await sql`
    insert into users (id, email, username, slug, is_verified, email_verified_at)
    select ${benchUser(sql`n`)}, 'bench-gear-' || n || '@example.test', 'bench_gear_' || n, 'bench-gear-' || n, true, now()
    from generate_series(1, ${USERS}::int) n
    on conflict do nothing`.execute(db);
}

async function clear() {
  // the bench's models are its own brands ("Benchbrand N"): their counts go with them
  await sql`delete from gear_items where brand like 'Benchbrand %'`.execute(db);
  await sql`delete from gear_models where model_key like 'benchbrand %'`.execute(db);
}

/**
 * `items` items: item g is model 1 + floor(models × (g / items)²) of brand (model % BRANDS), so the
 * first models are owned by thousands and the last by one or two; owner 1 + g % USERS.
 */
async function seed(items: number) {
  const started = performance.now();
  await clear();
  // rewritten compact: a size seeded where a larger one was deleted would otherwise be measured through the
  // larger one's dead rows and index pages (10,000 items in a 155 MB table after the 1,000,000 went)
  for (const table of ['gear_items', 'gear_models', 'gear_model_owners'])
    await sql.raw(`vacuum full ${table}`).execute(db);
  const models = Math.max(10, Math.floor(items / 20));
  await sql`
    insert into gear_items (user_id, category, brand, model, nickname, is_public, model_key, created_at)
    select ${benchUser(sql`1 + g % ${USERS}::int`)}, (${CATEGORIES})[1 + m % 8], 'Benchbrand ' || (m % ${BRANDS}::int),
      'Model ' || m || ' mk' || (g % 3), case when g % 7 = 0 then 'nick ' || g end, g % 10 <> 0,
      gear_model_key('Benchbrand ' || (m % ${BRANDS}::int), 'Model ' || m || ' mk' || (g % 3)),
      now() - (g || ' seconds')::interval
    from (select g, 1 + floor(${models}::int * ((g - 1)::float8 / ${items}::int) ^ 2)::int as m
          from generate_series(1, ${items}::int) g) s`.execute(db);
  // the counts as the service keeps them: per model and owner, then per model
  await sql`
    insert into gear_models (model_key, brand, model, category, owners)
    select distinct on (model_key) model_key, brand, model, category, 0 from gear_items
    where brand like 'Benchbrand %' and is_public order by model_key, created_at`.execute(db);
  await sql`
    insert into gear_model_owners (model_key, user_id, items)
    select model_key, user_id, count(*) from gear_items where brand like 'Benchbrand %' and is_public
    group by model_key, user_id`.execute(db);
  await sql`
    update gear_models m set owners = o.n
    from (select model_key, count(*)::int as n from gear_model_owners where model_key like 'benchbrand %' group by model_key) o
    where o.model_key = m.model_key`.execute(db);
  for (const table of ['gear_items', 'gear_models', 'gear_model_owners'])
    await sql.raw(`vacuum analyze ${table}`).execute(db);
  await sql`checkpoint`.execute(db).catch(() => undefined);
  console.log(`${items} items over ${models} models in ${secondsSince(started)}; load average ${loadAverages()}`);
}

/**
 * The searches name a model that exists at both sizes (model m is of brand m % 60): model 243 has 14
 * items at 10,000 and 144 at 1,000,000, model 127 has 20 and 200. The last row, one word every
 * item holds, is measured but is not one of this bench's goals: ranking and counting every match of
 * a word in all items reads them all (bounding that is the search engine's top-k work, for tracks too).
 */
const REQUESTS = [
  { name: 'search, a typo (benchbrand 7 modl 127)', query: '/gear/search?q=benchbrand%207%20modl%20127' },
  { name: 'search, exact (benchbrand 3 model 243)', query: '/gear/search?q=benchbrand%203%20model%20243' },
  { name: 'search, a model (model 243)', query: '/gear/search?q=model%20243' },
  { name: 'popular', query: '/gear/popular' },
  { name: 'popular?category=synth&limit=50', query: '/gear/popular?category=synth&limit=50' },
  { name: 'owners of the most owned model', query: '/gear/owners?brand=Benchbrand%201&model=Model%201%20mk0' },
  { name: 'search, a word in every item (not a goal)', query: '/gear/search?q=benchbrand' },
];

const riff = await startRiff(8975, { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '100000000' });
try {
  await seedUsers();
  const viewer = await signInUser(riff);
  // the viewer blocked five of the busiest owners: popular takes their part off
  await sql`
    insert into blocks (blocker_id, blocked_id) select ${viewer.id}::uuid, ${benchUser(sql`n`)}
    from generate_series(1, 5) n on conflict do nothing`.execute(db);
  // statistics of the new accounts, as autovacuum would have them: without, the planner takes 20,000 users for one
  for (const table of ['users', 'blocks']) await sql.raw(`vacuum analyze ${table}`).execute(db);
  const figures = new Map<string, { small: number[]; large: number[] }>();
  const measureAll = async (size: 'small' | 'large') => {
    for (const request of REQUESTS) {
      const { latencies } = await latenciesOf(`${riff.baseUrl}/api/v1${request.query}`, {
        connections,
        seconds,
        headers: { authorization: `Bearer ${viewer.accessToken}` },
      });
      const entry = figures.get(request.name) ?? { small: [], large: [] };
      entry[size].push(...latencies);
      figures.set(request.name, entry);
    }
  };
  await seed(SMALL);
  await measureAll('small');
  await seed(LARGE);
  await measureAll('large');
  await seed(SMALL);
  await measureAll('small');
  console.log(`\nrun ${randomUUID().slice(0, 8)}: p95 in ms at ${SMALL} and ${LARGE} items (goal: ratio ≤ 2)`);
  for (const [name, { small, large }] of figures) {
    const [a, b] = [percentile(small, 95), percentile(large, 95)];
    console.log(`${name.padEnd(48)} ${a.toFixed(1).padStart(8)} ${b.toFixed(1).padStart(8)}   ×${(b / a).toFixed(2)}`);
  }
} finally {
  if (!keep) {
    await clear();
    // the accounts go too (their blocks with them)
    await sql`delete from users where username like 'bench\\_gear\\_%'`.execute(db);
  }
  await riff.stop();
  await opened.close();
}
