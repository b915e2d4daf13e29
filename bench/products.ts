/**
 * The marketplace's product list at scale (issue 15): `DATABASE_URL=… npm run bench:products`
 * (`-- --quick` for a short run, `-- --keep` to leave the rows seeded). On PostgreSQL only (the goal is set there).
 *
 * Seeds 1,000 products in SQL (90 % active, three types, prices 1 to 500 USD, titles and
 * descriptions from a word list), measures GET /marketplace/products with filters, anonymous, then
 * seeds up to 100,000 and measures the same requests again. Prints each request's p95 at both sizes
 * and their ratio (goal: p95 at 100k ≤ 2× p95 at 1k), and the plans PostgreSQL chose at 100k.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../server/src/platform/db/database.js';
import { searchDoc, textQuery } from '../server/src/platform/search/text-search.js';
import { startRiff } from './bench-support.js';
import { percentile } from './live-scenario.js';

const quick = process.argv.includes('--quick');
// --keep: leave the seeded products in the database, to read plans afterwards
const keep = process.argv.includes('--keep');
const seconds = quick ? 4 : 10;
const connections = 4;
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('bench:products runs on PostgreSQL: set DATABASE_URL');

const run = randomUUID().slice(0, 8);
const WORDS = [
  'night',
  'drive',
  'neon',
  'dust',
  'velvet',
  'echo',
  'ember',
  'tide',
  'glass',
  'orbit',
  'moss',
  'static',
  'bloom',
  'signal',
  'harbor',
  'lumen',
];
const REQUESTS = [
  { name: 'newest active (default page of 20)', query: '' },
  { name: 'type=pack, 5 to 50 USD', query: '?type=pack&min_price=5&max_price=50' },
  // solstice is in the same 10 products at both sizes: what the catalogue's size alone does to a search
  { name: 'q=solstice (10 products at both sizes)', query: '?q=solstice' },
  // tag42 is in 1 product of 97; velvet in about 1 of 5: the matches grow with the catalogue
  { name: 'q=tag42', query: '?q=tag42' },
  { name: 'q=velvet, type=track, page 3', query: '?q=velvet&type=track&page=3' },
];

const opened = await openDatabase({ databaseUrl, dataDir: await mkdtemp(path.join(tmpdir(), 'riff-bench-products-')) });
const db = opened.db;
await migrateToLatest(db);
// earlier runs' rows would change the sizes measured
await sql`delete from products where title like 'bench-products %'`.execute(db);
const sellers = await sql<{ id: string }>`
  insert into users (email, username, slug, is_verified)
  select 'bench-products-' || ${run} || '-' || g || '@example.test', 'bench_products_' || ${run} || '_' || g, 'bench-products-' || ${run} || '-' || g, true
  from generate_series(1, 100) g
  returning id`.execute(db);
const sellerIds = sellers.rows.map((row) => row.id);

/** Products numbered from `from` to `to`: the same rows whatever the batch sizes. */
async function seed(from: number, to: number) {
  const words = sql.raw(`array[${WORDS.map((word) => `'${word}'`).join(',')}]`);
  await sql`
    insert into products (seller_id, title, description, price_cents, product_type, status, created_at)
    select (${sellerIds}::uuid[])[1 + g % ${sellerIds.length}],
           'bench-products ' || (${words})[1 + g % 16] || ' ' || (${words})[1 + (g / 16) % 16] || ' ' || g,
           'A ' || (${words})[1 + (g / 7) % 16] || ' pack with ' || (${words})[1 + (g / 3) % 16] || ' sounds, tag' || (g % 97)
             || case when g <= 1000 and g % 100 = 1 then ' for the solstice' else '' end,
           100 + (g * 7919) % 50000,
           (array['track', 'pack', 'service'])[1 + g % 3],
           case when g % 10 = 0 then 'draft' else 'active' end,
           now() - (g || ' seconds')::interval
    from generate_series(${from}::int, ${to}::int) g`.execute(db);
  // as autovacuum leaves a table after a bulk load: statistics and the visibility map current
  await sql`vacuum analyze products`.execute(db);
}

async function p95(url: string): Promise<{ p95: number; rps: number }> {
  const latencies: number[] = [];
  await autocannon({ url, connections, duration: 1 });
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: seconds }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client, status, _bytes, time) => {
      if (status !== 200) reject(new Error(`${url}: ${status}`));
      latencies.push(time);
    });
  });
  return { p95: percentile(latencies, 0.95), rps: result.requests.average };
}

const riff = await startRiff(8951, { RATE_LIMIT_PER_MINUTE: '100000000' });
try {
  const figures = new Map<string, { small?: { p95: number; rps: number }; large?: { p95: number; rps: number } }>();
  for (const [size, from, to] of [
    ['small', 1, 1_000],
    ['large', 1_001, 100_000],
  ] as const) {
    const seeded = performance.now();
    for (let start = from; start <= to; start += 20_000) await seed(start, Math.min(start + 19_999, to));
    console.log(
      `seeded products ${from} to ${to} in ${((performance.now() - seeded) / 1000).toFixed(1)} s; load average ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')}`,
    );
    for (const request of REQUESTS) {
      const measured = await p95(`${riff.baseUrl}/api/v1/marketplace/products${request.query}`);
      figures.set(request.name, { ...figures.get(request.name), [size]: measured });
      console.log(
        `${size === 'small' ? '1k' : '100k'}: ${request.name}: p95 ${measured.p95.toFixed(1)} ms, ${measured.rps.toFixed(0)} req/s`,
      );
    }
  }
  console.log('\n| GET /marketplace/products (PostgreSQL) | p95 at 1k | p95 at 100k | ratio | goal ≤ 2× |');
  console.log('|---|---|---|---|---|');
  for (const [name, { small, large }] of figures) {
    const ratio = large!.p95 / Math.max(small!.p95, 0.1);
    console.log(
      `| ${name} | ${small!.p95.toFixed(1)} ms | ${large!.p95.toFixed(1)} ms | ${ratio.toFixed(2)} | ${ratio <= 2 ? 'met' : 'not met'} |`,
    );
  }
  // the plans at 100k of the page and of the count, for the second request and a search (the repository
  // ranks a search's matches and counts them in one statement; the plain count shows what reading them costs)
  for (const [label, where] of [
    ['type=pack, 5 to 50 USD', sql`status = 'active' and product_type = 'pack' and price_cents between 500 and 5000`],
    // as the first pass of withTypoFallback (typos only when nothing matches as written)
    [
      'q=solstice',
      sql`status = 'active' and ${textQuery('solstice', { typos: false }).matches(searchDoc(sql`title`, sql`description`))}`,
    ],
  ] as const) {
    for (const statement of [
      sql`select * from products where ${where} order by created_at desc, id desc limit 20`,
      sql`select count(*) from products where ${where}`,
    ]) {
      const plan = await sql<{ 'QUERY PLAN': string }>`explain analyze ${statement}`.execute(db);
      console.log(`\nplan, ${label}:\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}`);
    }
  }
} finally {
  await riff.stop();
  if (!keep) {
    await sql`delete from products where title like 'bench-products %'`.execute(db);
    await sql`delete from users where username like ${`bench_products_${run}_%`}`.execute(db);
  }
  await opened.close();
}
