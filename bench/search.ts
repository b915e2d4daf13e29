/**
 * Search at scale (issue 16): `DATABASE_URL=… npm run bench:search` (`-- --quick` for a short run,
 * `-- --size=200000` for a smaller large size). On PostgreSQL only (the goals are set there).
 *
 * Seeds 10,000 public tracks in SQL, measures GET /search?q= and GET /search/suggestions, then seeds
 * up to 1,000,000 and measures the same kinds of request again. Each request asks for a different
 * track's words, as users do. A track's title is a word of its own (shared with 4 neighbours, as
 * names are) and one of 200 common words; its artist is shared by 20 tracks, its album by 10. So
 * a distinctive word matches about the same number of tracks at both sizes, and a common one 100×
 * more at 1M. Prints p95 at both sizes and the ratio (goal: ≤ 2×), the suggestions' p95 at 1M
 * (goal: ≤ 30 ms), and the plans PostgreSQL chose at 1M (EXPLAIN ANALYZE).
 */
import { createHash, randomInt, randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql, type RawBuilder } from 'kysely';
import { migrateToLatest, openDatabase } from '../server/src/platform/db/database.js';
import { searchDoc, startsWith, textQuery, type TextQuery } from '../server/src/platform/search/text-search.js';
import { startRiff } from './bench-support.js';
import { percentile } from './live-scenario.js';

const quick = process.argv.includes('--quick');
const seconds = quick ? 4 : 10;
const connections = 4;
const SMALL = 10_000;
const LARGE = Number(process.argv.find((arg) => arg.startsWith('--size='))?.slice('--size='.length) ?? 1_000_000);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('bench:search runs on PostgreSQL: set DATABASE_URL');

const run = randomUUID().slice(0, 8);
const opened = await openDatabase({ databaseUrl, dataDir: await mkdtemp(path.join(tmpdir(), 'riff-bench-search-')) });
const db = opened.db;
await migrateToLatest(db);

/** An 8-letter word of its own for each number, the same in SQL (seeding) and here (asking). */
const wordSql = (n: RawBuilder<unknown>) =>
  sql`(select string_agg(chr(97 + get_byte(decode(md5('w' || ${n}), 'hex'), k) % 26), '' order by k) from generate_series(0, 7) k)`;
const word = (n: number) =>
  [...createHash('md5').update(`w${n}`).digest().subarray(0, 8)]
    .map((byte) => String.fromCharCode(97 + (byte % 26)))
    .join('');

const COMMON = ['love', 'night', 'dream', 'fire', 'heart', 'summer', 'light', 'dance', 'blue', 'rain'];
const common = (n: number) => `${COMMON[n % COMMON.length]}${n % 20 === 0 ? '' : String.fromCharCode(97 + (n % 20))}`;
const titleWord = (i: number) => word(Math.floor(i / 5));
const artistWord = (i: number) => word(2_000_000 + Math.floor(i / 20));

const owner = await sql<{ id: string }>`
  insert into users (email, username, slug, is_verified)
  values (${`bench-search-${run}@example.test`}, ${`bench_search_${run}`}, ${`bench-search-${run}`}, true) returning id`.execute(
  db,
);
const ownerId = owner.rows[0]!.id;

/** Tracks numbered from `from` to `to`: the same rows whatever the batch sizes. */
async function seed(from: number, to: number) {
  const commons = sql.raw(`array[${Array.from({ length: 200 }, (_, n) => `'${common(n)}'`).join(',')}]`);
  await sql`
    insert into tracks (id, creator_id, title, artist, album, genre, bpm, duration, file_size, format, md5, status, is_public, created_at)
    select gen_random_uuid(), ${ownerId}::uuid,
           ${wordSql(sql`(g / 5)`)} || ' ' || (${commons})[1 + g % 200],
           ${wordSql(sql`(2000000 + g / 20)`)},
           ${wordSql(sql`(3000000 + g / 10)`)},
           (array['rock', 'techno', 'jazz', 'ambient'])[1 + g % 4], 60 + g % 120, 60 + g % 300, 1000, 'mp3', 'bench', 'completed', true,
           now() - (g || ' seconds')::interval
    from generate_series(${from}::int, ${to}::int) g`.execute(db);
  await sql`vacuum analyze tracks`.execute(db);
}

/** p95 of requests each built by `next` (a different query each time). */
async function p95(baseUrl: string, next: () => string): Promise<{ p95: number; rps: number }> {
  const latencies: number[] = [];
  const options = {
    url: baseUrl,
    connections,
    requests: [{ setupRequest: (request: object) => ({ ...request, path: next() }) }],
  };
  await autocannon({ ...options, duration: 1 });
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ ...options, duration: seconds }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client, status, _bytes, time) => {
      if (status !== 200) reject(new Error(`${status}`));
      latencies.push(time);
    });
  });
  return { p95: percentile(latencies, 0.95), rps: result.requests.average };
}

const typo = (text: string) => text.slice(0, 3) + text.slice(4);
const search = (q: string) => `/api/v1/search?q=${encodeURIComponent(q)}&type=tracks`;
const KINDS = (seeded: number) => [
  { name: '/search: a title word', next: () => search(titleWord(1 + randomInt(seeded))) },
  { name: '/search: a title word with a typo', next: () => search(typo(titleWord(1 + randomInt(seeded)))) },
  {
    name: '/search: artist and a common word',
    next: () => {
      const i = 1 + randomInt(seeded);
      return search(`${artistWord(i)} ${common(i % 200)}`);
    },
  },
  {
    name: '/search (all four lists): a title word',
    next: () => `/api/v1/search?q=${titleWord(1 + randomInt(seeded))}`,
  },
  {
    name: '/search/suggestions: 3 letters',
    next: () => `/api/v1/search/suggestions?q=${titleWord(1 + randomInt(seeded)).slice(0, 3)}`,
  },
  {
    name: '/search/suggestions: 1 letter',
    next: () => `/api/v1/search/suggestions?q=${String.fromCharCode(97 + randomInt(26))}`,
  },
];

const riff = await startRiff(8961, { RATE_LIMIT_PER_MINUTE: '100000000' });
try {
  const figures = new Map<string, { small?: { p95: number; rps: number }; large?: { p95: number; rps: number } }>();
  for (const [size, from, to] of [
    ['small', 1, SMALL],
    ['large', SMALL + 1, LARGE],
  ] as const) {
    const seeded = performance.now();
    for (let start = from; start <= to; start += 100_000) await seed(start, Math.min(start + 99_999, to));
    console.log(
      `seeded tracks ${from} to ${to} in ${((performance.now() - seeded) / 1000).toFixed(1)} s; load average ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')}`,
    );
    for (const kind of KINDS(to)) {
      const measured = await p95(riff.baseUrl, kind.next);
      figures.set(kind.name, { ...figures.get(kind.name), [size]: measured });
      console.log(`${to}: ${kind.name}: p95 ${measured.p95.toFixed(1)} ms, ${measured.rps.toFixed(0)} req/s`);
    }
  }
  console.log(`\n| request (PostgreSQL) | p95 at ${SMALL / 1000}k | p95 at ${LARGE / 1000}k | ratio | goal |`);
  console.log('|---|---|---|---|---|');
  for (const [name, { small, large }] of figures) {
    const ratio = large!.p95 / Math.max(small!.p95, 0.1);
    const suggestions = name.startsWith('/search/suggestions');
    const met = ratio <= 2 && (!suggestions || large!.p95 <= 30);
    console.log(
      `| ${name} | ${small!.p95.toFixed(1)} ms | ${large!.p95.toFixed(1)} ms | ${ratio.toFixed(2)} | ≤ 2×${suggestions ? ', ≤ 30 ms' : ''}: ${met ? 'met' : 'not met'} |`,
    );
  }
  // the statements as the tracks' searcher builds them (track-search.repository.ts), for one query of each kind
  const doc = searchDoc(sql`t.title`, sql`t.artist`, sql`t.album`);
  const page = (text: TextQuery) => sql`select m.id, count(*) over () as total_count from (
      select t.*, riff_norm(t.title) as n_title, riff_norm(t.artist) as n_artist, ${doc} as n_doc from tracks t
      where t.deleted_at is null and t.is_public and ${text.matches(doc)} offset 0) m
    order by ${text.tier([sql`m.n_title`, sql`m.n_artist`], sql`m.n_doc`)}, ${text.closeness(sql`m.n_doc`)} desc, m.play_count desc, m.created_at desc, m.id limit 20`;
  const range = startsWith(sql`t.title`, titleWord(4242).slice(0, 3));
  const plans: [string, RawBuilder<unknown>][] = [
    ['search, a title word (as written)', page(textQuery(titleWord(4242), { typos: false }))],
    [
      'search, artist and a common word (as written)',
      page(textQuery(`${artistWord(4242)} ${common(4242 % 200)}`, { typos: false })),
    ],
    [
      'search, a title word with a typo (typos, after nothing was found as written)',
      page(textQuery(typo(titleWord(4242)))),
    ],
    [
      'suggestions, 3 letters (titles)',
      sql`select t.id, t.title from tracks t where t.is_public and t.deleted_at is null and ${range.where} order by ${range.order} limit 10`,
    ],
  ];
  for (const [label, statement] of plans) {
    const plan = await sql<{ 'QUERY PLAN': string }>`explain analyze ${statement}`.execute(db);
    console.log(`\nplan, ${label}:\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}`);
  }
} finally {
  await riff.stop();
  await sql`delete from tracks where creator_id = ${ownerId}`.execute(db);
  await sql`delete from users where id = ${ownerId}`.execute(db);
  await opened.close();
}
