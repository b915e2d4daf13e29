/**
 * Creators' analytics at scale (issue 32): `DATABASE_URL=… npm run bench:analytics` (`-- --quick` for
 * short measurements, `-- --keep` to leave the seeded rows). On PostgreSQL only.
 *
 * - Replies: every analytics reply (GET /analytics/overview for 7d, 30d, 90d, 365d and all by day, 365d
 *   by week and by month; /analytics/tracks/{id} of the creator's most played track at 30d and 365d;
 *   /analytics/audience at 30d and 365d; /analytics/export?period=30d, to the last byte) of a creator
 *   with 10,000 plays over the year and of one with 10,000,000, each with 1,000 tracks. p95 of each
 *   (autocannon, 4 connections, the two creators measured one after the other for each request so the
 *   machine's load weighs on both alike), their ratio; goal p95 ≤ 50 ms at 10M and ≤ 2× the 10k one.
 * - Roll-up throughput: THROUGHPUT track.played events (bench/analytics-state.ts's model: 60 % signed in
 *   from a pool of 100,000 accounts, 40 % anonymous, 1,000 tracks, sources mixed, 5 % from playlists, 200
 *   countries) over four days, written straight into event_stream, then the analytics.rollup job run
 *   in-process (openServices, as scripts do): events applied per second (goal ≥ 2,000).
 *
 * The small creator's rows are the real roll-up's: its 10,000 plays go through event_stream and the job
 * (the year's first 361 days drained before the throughput run, its last days with it). The large
 * creator's year (27,400 plays a day) is generated in SQL to the shapes and cardinalities the roll-up
 * writes for such plays (bench/analytics-state.ts: days, ranks and their days per dimension, listeners'
 * state, last days, gaps). The generator is checked against the roll-up: it generates the throughput
 * run's four days for a creator of its own, and the rows per table and day are printed beside the real
 * ones. The service's clock is the real one: the days end today (UTC). Prints the plans PostgreSQL chose
 * for the queries of any reply over 50 ms or over 2×.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type RawBuilder } from 'kysely';
import { openServices } from '../server/src/app.js';
import { dayOf, addDays } from '../server/src/modules/analytics/analytics-days.js';
import { SCOPED_TABLES } from '../server/src/modules/analytics/analytics.tables.js';
import { loadConfig } from '../server/src/platform/config/config.js';
import { migrateToLatest, openDatabase } from '../server/src/platform/db/database.js';
import {
  appendEvents,
  generateState,
  playEvents,
  playlistId,
  PLAYLISTS,
  seedCatalogue,
  seedUsers,
  trackId,
  TRACKS,
} from './analytics-state.js';
import {
  latenciesOf,
  loadAverages,
  logIn,
  secondsSince,
  signInUser,
  startRiff,
  type BenchUser,
} from './bench-support.js';
import { percentile } from './live-scenario.js';

const quick = process.argv.includes('--quick');
const keep = process.argv.includes('--keep');
const seconds = quick ? 4 : 10;
const connections = 4;
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('bench:analytics runs on PostgreSQL: set DATABASE_URL');

const SMALL_PLAYS = 10_000;
const LARGE_PLAYS = 10_000_000;
const THROUGHPUT = 200_000;
const YEAR = 365;
const ANALYTICS_TABLES = [...SCOPED_TABLES, 'analytics_state'];

const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-bench-analytics-'));
const opened = await openDatabase({ databaseUrl, dataDir });
const db = opened.db;
await migrateToLatest(db);
const load = loadAverages;
const elapsed = secondsSince;
const today = dayOf(new Date());
const fixedCreator = (role: string) => sql`md5('bench-analytics-creator-' || ${role}::text)::uuid`;

async function clear() {
  await sql.raw(`truncate ${ANALYTICS_TABLES.join(', ')}`).execute(db);
  await sql`delete from event_stream where consumer = 'analytics.rollup'`.execute(db);
  for (const role of ['large', 'small', 'throughput']) {
    await sql`delete from playlists where id in (select ${playlistId(role, sql`i`)} from generate_series(0, ${PLAYLISTS - 1}::int) i)`.execute(
      db,
    );
    await sql`delete from tracks where id in (select ${trackId(role, sql`k`)} from generate_series(0, ${TRACKS - 1}::int) k)`.execute(
      db,
    );
  }
}

async function settle() {
  for (const table of ANALYTICS_TABLES) await sql.raw(`vacuum analyze ${table}`).execute(db);
  await sql`vacuum analyze tracks`.execute(db);
  await sql`checkpoint`.execute(db).catch(() => undefined);
}

const counts = async () =>
  (
    await sql<Record<string, number>>`select ${sql.join(
      ANALYTICS_TABLES.slice(0, 6).map(
        (table) => sql`(select count(*)::int from ${sql.table(table)}) as ${sql.ref(table)}`,
      ),
    )}`.execute(db)
  ).rows[0]!;

// ---------------------------------------------------------------------------------------------

console.log(`bench:analytics${quick ? ' --quick' : ''}; today ${today}; load average ${load()}`);
await clear();
let started = performance.now();
await seedUsers(db);
// the roll-up job is not run by the server during the bench (it would take the stream's events)
const riff = await startRiff(8974, { ANALYTICS_ROLLUP_SECONDS: '3600' });
// a failure anywhere below leaves no server behind
process.on('exit', () => riff.process.kill());
const creators: Record<'small' | 'large', BenchUser> = { small: await signInUser(riff), large: await signInUser(riff) };
await sql`insert into users (id, email, username, slug, is_verified, email_verified_at)
  values (${fixedCreator('throughput')}, 'bench-analytics-throughput@example.test', 'bench_analytics_throughput',
          'bench-analytics-throughput', true, now())
  on conflict do nothing`.execute(db);
const throughputCreator = (await sql<{ id: string }>`select ${fixedCreator('throughput')}::text as id`.execute(db))
  .rows[0]!.id;
const shapeCreator = (await sql<{ id: string }>`select ${fixedCreator('shape')}::text as id`.execute(db)).rows[0]!.id;
await seedCatalogue(db, 'small', creators.small.id, true);
await seedCatalogue(db, 'large', creators.large.id, true);
await seedCatalogue(db, 'throughput', throughputCreator, false);
console.log(`100,000 accounts, 3 × 1,000 tracks, 2 × 500 playlists in ${elapsed(started)}`);

// the real roll-up, in-process: the small creator's year, then the throughput run
const services = await openServices(
  loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, WORKERS: '0', LOG_LEVEL: 'silent' }),
);
const yearStart = new Date(`${addDays(today, 1 - YEAR)}T00:00:00.000Z`);
const throughputStart = new Date(`${addDays(today, -4)}T00:00:00.000Z`);
const throughputEnd = new Date(`${today}T00:00:00.000Z`);
const smallEvents = playEvents('small', SMALL_PLAYS, yearStart, new Date(Date.now() - 60_000));
let throughput = { applied: 0, seconds: 0 };
try {
  started = performance.now();
  await appendEvents(
    db,
    sql`select * from (${smallEvents}) s where s.at < ${throughputStart.toISOString()}::timestamptz`,
  );
  let drained = 0;
  for (;;) {
    const taken = await services.platform.events.drain('analytics.rollup', 2000);
    drained += taken;
    if (taken < 2000) break;
  }
  console.log(`small creator: ${drained} plays of the year's first ${YEAR - 4} days rolled up in ${elapsed(started)}`);
  await appendEvents(
    db,
    sql`select * from (${smallEvents}) s where s.at >= ${throughputStart.toISOString()}::timestamptz
        union all select * from (${playEvents('throughput', THROUGHPUT, throughputStart, throughputEnd)}) t`,
  );
  await sql`vacuum analyze event_stream`.execute(db);
  console.log(`throughput: load average ${load()} before`);
  started = performance.now();
  const result = (await services.platform.jobs.run('analytics.rollup')) as { applied: number };
  throughput = { applied: result.applied, seconds: (performance.now() - started) / 1000 };
  console.log(
    `throughput: ${throughput.applied} events applied in ${throughput.seconds.toFixed(1)} s = ${(throughput.applied / throughput.seconds).toFixed(0)} events/s (goal ≥ 2,000); load average ${load()}`,
  );
} finally {
  await services.close();
}

// the generator's rows beside the roll-up's, for the throughput run's four days
started = performance.now();
await generateState(db, {
  role: 'shape',
  creatorId: shapeCreator,
  from: addDays(today, -4),
  to: addDays(today, -1),
  openDay: today,
  playsPerDay: THROUGHPUT / 4,
});
const shapeRows = await rowsOf('shape', shapeCreator);
const realRows = await rowsOf('throughput', throughputCreator);
console.log(
  `\nshape check (generated in ${elapsed(started)}): rows of the throughput creator (roll-up) and of its generated twin`,
);
console.log('| table | scope / dimension | day | roll-up | generated | ratio |');
console.log('|---|---|---|---|---|---|');
for (const key of [...new Set([...realRows.keys(), ...shapeRows.keys()])].sort()) {
  const [real, made] = [realRows.get(key) ?? 0, shapeRows.get(key) ?? 0];
  console.log(`| ${key.split('|').join(' | ')} | ${real} | ${made} | ${(made / Math.max(real, 1)).toFixed(2)} |`);
}
await removeScopes('shape', shapeCreator);

/** Rows per table, scope kind (or dimension) and day (as days before today) of one creator's scopes. */
async function rowsOf(role: string, creatorId: string): Promise<Map<string, number>> {
  const scopes = sql`(select 'creator'::text as kind, ${creatorId}::uuid as id
      union all select 'track', ${trackId(role, sql`k`)} from generate_series(0, ${TRACKS - 1}::int) k
      union all select 'playlist', ${playlistId(role, sql`i`)} from generate_series(0, ${PLAYLISTS - 1}::int) i) sc`;
  const per = (table: string, label: RawBuilder<unknown>, day: RawBuilder<unknown>) => sql`
      select ${table}::text as tbl, ${label} as label, ${day} as day, count(*)::int as n
      from ${sql.table(table)} t join ${scopes} on sc.kind = t.scope_kind and sc.id = t.scope_id group by 1, 2, 3`;
  const { rows } = await sql<{ tbl: string; label: string; day: string; n: number }>`
    ${per('analytics_days', sql`t.scope_kind`, sql`'-' || (${today}::date - t.day)::text`)}
    union all ${per('analytics_last_seen', sql`t.scope_kind`, sql`'-' || (${today}::date - t.day)::text`)}
    union all ${per('analytics_gaps', sql`t.scope_kind`, sql`'-' || (${today}::date - t.day)::text`)}
    union all ${per('analytics_rank_days', sql`t.scope_kind || ' × ' || t.dimension`, sql`'-' || (${today}::date - t.day)::text`)}
    union all ${per('analytics_ranks', sql`t.scope_kind || ' × ' || t.dimension`, sql`'all'`)}
    union all ${per('analytics_listeners', sql`t.scope_kind || ' ' || left(t.listener, 2)`, sql`'all'`)}`.execute(db);
  return new Map(rows.map((row) => [`${row.tbl}|${row.label}|${row.day}`, row.n]));
}

async function removeScopes(role: string, creatorId: string) {
  for (const table of ANALYTICS_TABLES.slice(0, 6)) {
    await sql`delete from ${sql.table(table)} where (scope_kind = 'creator' and scope_id = ${creatorId}::uuid)
      or (scope_kind = 'track' and scope_id in (select ${trackId(role, sql`k`)} from generate_series(0, ${TRACKS - 1}::int) k))
      or (scope_kind = 'playlist' and scope_id in (select ${playlistId(role, sql`i`)} from generate_series(0, ${PLAYLISTS - 1}::int) i))`.execute(
      db,
    );
  }
}

// the large creator's year, generated
started = performance.now();
await generateState(db, {
  role: 'large',
  creatorId: creators.large.id,
  from: addDays(today, 1 - YEAR),
  to: today,
  openDay: today,
  playsPerDay: LARGE_PLAYS / YEAR,
});
const generatedIn = elapsed(started);
started = performance.now();
await settle();
const { rows: sizes } = await sql<{ creator: string; plays: number; days: number }>`
  select creator_id::text as creator, sum(plays)::int as plays, count(*)::int as days from analytics_days
  where scope_kind = 'track' and creator_id in (${creators.small.id}::uuid, ${creators.large.id}::uuid) group by creator_id`.execute(
  db,
);
const plays = (who: BenchUser) => sizes.find((row) => row.creator === who.id)?.plays ?? 0;
console.log(
  `\nlarge creator's year generated in ${generatedIn} (vacuum analyze and checkpoint ${elapsed(started)}): plays small ${plays(creators.small)}, large ${plays(creators.large)}; rows ${JSON.stringify(await counts())}; load average ${load()}`,
);

// ---------------------------------------------------------------------------------------------
// the replies

interface Request {
  name: string;
  path(who: 'small' | 'large'): string;
}
const popularIds = {
  small: (await sql<{ id: string }>`select ${trackId('small', 0)}::text as id`.execute(db)).rows[0]!.id,
  large: (await sql<{ id: string }>`select ${trackId('large', 0)}::text as id`.execute(db)).rows[0]!.id,
};
/** The creator's most played track (track 0 of the model). */
const popular = (who: 'small' | 'large') => popularIds[who];
const REQUESTS: Request[] = [
  ...(['7d', '30d', '90d', '365d', 'all'] as const).map((period) => ({
    name: `overview ${period}, by day`,
    path: () => `/analytics/overview?period=${period}&interval=day`,
  })),
  { name: 'overview 365d, by week', path: () => '/analytics/overview?period=365d&interval=week' },
  { name: 'overview 365d, by month', path: () => '/analytics/overview?period=365d&interval=month' },
  {
    name: 'track (most played) 30d',
    path: (who) => `/analytics/tracks/${popular(who)}?period=30d&interval=day`,
  },
  {
    name: 'track (most played) 365d',
    path: (who) => `/analytics/tracks/${popular(who)}?period=365d&interval=day`,
  },
  { name: 'audience 30d', path: () => '/analytics/audience?period=30d' },
  { name: 'audience 365d', path: () => '/analytics/audience?period=365d' },
  { name: 'export 30d (to the last byte)', path: () => '/analytics/export?period=30d' },
];

const figures = new Map<string, { small: number[]; large: number[]; bytes: { small: number; large: number } }>();
try {
  for (const who of ['small', 'large'] as const) {
    Object.assign(creators[who], await logIn(riff, creators[who].email, creators[who].password));
  }
  for (const request of REQUESTS) {
    const sized = { small: [] as number[], large: [] as number[], bytes: { small: 0, large: 0 } };
    figures.set(request.name, sized);
    for (const who of ['small', 'large'] as const) {
      const url = `${riff.baseUrl}/api/v1${request.path(who)}`;
      const headers = { authorization: `Bearer ${creators[who].accessToken}` };
      const probe = await fetch(url, { headers });
      if (probe.status !== 200) throw new Error(`${request.name}: ${probe.status} ${await probe.text()}`);
      sized.bytes[who] = (await probe.arrayBuffer()).byteLength;
      const measured = await latenciesOf(url, { connections, seconds, headers });
      sized[who].push(...measured.latencies);
      console.log(
        `${who === 'small' ? '10k' : '10M'} plays: ${request.name}: p95 ${percentile(measured.latencies, 0.95).toFixed(1)} ms, ${measured.rps.toFixed(0)} req/s, ${sized.bytes[who]} bytes; load ${load()}`,
      );
    }
  }
} finally {
  await riff.stop();
}

const missed: string[] = [];
console.log('\n| request | p95 at 10k plays | p95 at 10M | ratio | goal (≤ 50 ms and ≤ 2×) | reply bytes 10k / 10M |');
console.log('|---|---|---|---|---|---|');
for (const [name, sized] of figures) {
  if (sized.small.length === 0 || sized.large.length === 0) continue;
  const [small, large] = [percentile(sized.small, 0.95), percentile(sized.large, 0.95)];
  const ratio = large / Math.max(small, 0.1);
  const met = large <= 50 && ratio <= 2;
  if (!met) missed.push(name);
  console.log(
    `| ${name} | ${small.toFixed(1)} ms | ${large.toFixed(1)} ms | ${ratio.toFixed(2)} | ${met ? 'met' : 'not met'} | ${sized.bytes.small} / ${sized.bytes.large} |`,
  );
}
console.log(
  `\nroll-up: ${throughput.applied} events in ${throughput.seconds.toFixed(1)} s = ${(throughput.applied / throughput.seconds).toFixed(0)} events/s (goal ≥ 2,000: ${throughput.applied / throughput.seconds >= 2000 ? 'met' : 'not met'})`,
);
console.log(`load average at the end ${load()}`);

await explainMissed(missed);
if (!keep) {
  await clear();
  await sql`delete from users where id in (${fixedCreator('throughput')}, ${creators.small.id}::uuid, ${creators.large.id}::uuid)`.execute(
    db,
  );
}
await opened.close();

/** The plans of the large creator's queries behind each reply that missed its goal. */
async function explainMissed(names: string[]) {
  const creator = creators.large.id;
  const track = popularIds.large;
  const from = (days: number) => addDays(today, 1 - days);
  const scope = (kind: string, id: string) => sql`scope_kind = ${kind} and scope_id = ${id}::uuid`;
  const top = (
    kind: string,
    id: string,
    dimension: string,
    window: string,
  ) => sql`select item, ${sql.ref(`plays_${window}`)}
    from analytics_ranks where ${scope(kind, id)} and dimension = ${dimension} and ${sql.ref(`plays_${window}`)} > 0
    order by ${sql.ref(`plays_${window}`)} desc, item limit 50`;
  const statements: Record<string, RawBuilder<unknown>> = {
    'sums 365d': sql`select sum(plays), sum(listening_seconds), sum(completed) from analytics_days where ${scope('creator', creator)}
      and day between ${from(365)}::date and ${today}::date`,
    'series days 365d': sql`select day, plays, listeners, likes, follows, unfollows from analytics_days
      where ${scope('creator', creator)} and day >= ${from(365)} and day <= ${today} order by day`,
    'returning listeners 365d by month': sql`select day, sum(listeners) from analytics_gaps
      where ${scope('creator', creator)} and day >= ${from(365)}::date and day <= ${today}::date
        and gap <= day - greatest(date_trunc('month', day::timestamp)::date, ${from(365)}::date) group by day`,
    'listeners 365d': sql`select listeners_365d from analytics_days where ${scope('creator', creator)} and day <= ${today}
      order by day desc limit 1`,
    'top tracks 365d': top('creator', creator, 'track', '365d'),
    'top listeners 365d': top('creator', creator, 'listener', '365d'),
    'countries 365d': top('creator', creator, 'country', '365d'),
    'track retention 365d': sql`select retention from analytics_days where ${scope('track', track)}
      and day >= ${from(365)} and day <= ${today} and retention is not null`,
    'track playlists 365d': top('track', track, 'playlist', '365d'),
    'export, 31 days': sql`select day, scope_id, plays, listeners, listening_seconds from analytics_days
      where creator_id = ${creator}::uuid and scope_kind = 'track' and day >= ${from(30)} and day <= ${today}
      and (plays > 0 or likes > 0) order by day`,
  };
  const wanted = new Set<string>();
  for (const name of names) {
    if (name.startsWith('overview'))
      ['sums 365d', 'series days 365d', 'listeners 365d', 'top tracks 365d'].forEach((l) => wanted.add(l));
    if (name.includes('week') || name.includes('month')) wanted.add('returning listeners 365d by month');
    if (name.startsWith('track')) ['track retention 365d', 'track playlists 365d'].forEach((l) => wanted.add(l));
    if (name.startsWith('audience')) ['top listeners 365d', 'countries 365d'].forEach((l) => wanted.add(l));
    if (name.startsWith('export')) wanted.add('export, 31 days');
  }
  for (const label of wanted) {
    const plan = await sql<{ 'QUERY PLAN': string }>`explain analyze ${statements[label]!}`.execute(db);
    console.log(`\nplan, ${label}:\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}`);
  }
}
