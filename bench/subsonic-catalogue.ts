/**
 * The Subsonic catalogue at scale (issue 31): `DATABASE_URL=… npm run bench:subsonic-catalogue`
 * (`-- --quick` for a short run, `-- --keep` to leave the seeded rows, `-- --seed-only` to seed the
 * million tracks and stop). On PostgreSQL only.
 *
 * A player's getAlbumList2 (each type) and search3 (a creator's own word, and the empty query
 * offline-sync apps page through) with a library of 10,000 tracks, then of 1,000,000 (10,000 creators of 100 tracks each: 10
 * albums of 8 tracks and 20 singles, so 300,000 albums), seeded in SQL into the tables the migrations
 * made (the albums made by the database's triggers as for any track). The listener has 40 private
 * tracks of their own in 5 albums, 100 likes and 100 plays. p95 at each size and their ratio (goal ≤ 2×).
 * The small size is measured before and after the large one and its latencies pooled (the machine's
 * load moves during a run). Prints the plans PostgreSQL chose at the large size.
 */
import { createHash } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type RawBuilder } from 'kysely';
import { migrateToLatest, openDatabase } from '../server/src/platform/db/database.js';
import {
  latenciesOf,
  loadAverages,
  secondsSince,
  signInUser,
  startRiff,
  type BenchUser,
  type Child,
} from './bench-support.js';
import { percentile } from './live-scenario.js';

const quick = process.argv.includes('--quick');
const keep = process.argv.includes('--keep');
/** Only seed the large library and stop (to read plans with psql). */
const seedOnly = process.argv.includes('--seed-only');
const seconds = quick ? 4 : 10;
const connections = 4;
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('bench:subsonic-catalogue runs on PostgreSQL: set DATABASE_URL');

const TRACKS_PER_CREATOR = 100;
const SIZES = { small: 10_000, large: 1_000_000 } as const;
const WORDS = sql.raw(`array['Night', 'Drive', 'Blue', 'Hour', 'Golden', 'Static', 'River', 'Echo', 'Neon', 'Dawn',
  'Paper', 'Glass', 'Summer', 'Tide', 'Velvet', 'Signal', 'Ember', 'North', 'Low', 'Bloom']`);
const GENRES = sql.raw(
  `array['Rock', 'Techno', 'Jazz', 'Ambient', 'Hip-Hop', 'Folk', 'House', 'Pop', 'Soul', 'Metal']`,
);

const opened = await openDatabase({ databaseUrl, dataDir: await mkdtemp(path.join(tmpdir(), 'riff-bench-subsonic-')) });
const db = opened.db;
await migrateToLatest(db);

const load = loadAverages;
const elapsed = secondsSince;
const creatorId = (n: RawBuilder<unknown>) => sql`md5('bench-subsonic-creator-' || ${n})::uuid`;
/**
 * A word of creator n's own (10 letters), in their titles and album names: a search for it matches
 * their 100 tracks and 30 albums at both sizes, as a search for a name does. (A common word matches
 * 100 times more tracks at 1M: ranking them all is the search engine's cost, as bench:search shows.)
 */
const creatorWord = (n: RawBuilder<unknown>) =>
  sql`translate(substr(md5('bench-subsonic-word-' || ${n}), 1, 10), '0123456789', 'ghijklmnop')`;
const creatorWordOf = (n: number) =>
  createHash('md5')
    .update(`bench-subsonic-word-${n}`)
    .digest('hex')
    .slice(0, 10)
    .replace(/[0-9]/g, (digit) => 'ghijklmnop'[Number(digit)]!);

/** Creators `from` to `to`, with their 100 tracks each (public, ready), in 100k-track statements. */
async function seedCreators(from: number, to: number) {
  const started = performance.now();
  await sql`
    insert into users (id, email, username, slug, is_verified, email_verified_at)
    select ${creatorId(sql`n`)}, 'bench-subsonic-' || n || '@example.test', 'bench_subsonic_' || n, 'bench-subsonic-' || n, true, now()
    from generate_series(${from}::int, ${to}::int) n
    on conflict do nothing`.execute(db);
  const batch = 100_000 / TRACKS_PER_CREATOR;
  for (let first = from; first <= to; first += batch) {
    const last = Math.min(to, first + batch - 1);
    await sql`
      insert into tracks (id, creator_id, title, album, genre, year, duration, bitrate, file_size, format, md5, status, is_public, created_at)
      select md5('bench-subsonic-track-' || c || '-' || i)::uuid, ${creatorId(sql`c`)},
             (${WORDS})[1 + (c * 3 + i) % 20] || ' ' || (${WORDS})[1 + (c + i * 7) % 20] || ' ' || ${creatorWord(sql`c`)} || ' ' || i,
             case when i < 80 then (${WORDS})[1 + (c * 7 + i / 8) % 20] || ' ' || (${WORDS})[1 + (c + i / 8) % 20] || ' ' || ${creatorWord(sql`c`)} end,
             (${GENRES})[1 + (c + i / 8) % 10], 1990 + (c + i / 8) % 35, 120 + (c + i) % 180, 256, 4000000, 'mp3', 'bench',
             'completed', true, now() - ((c * ${TRACKS_PER_CREATOR}::int + i) || ' seconds')::interval
      from generate_series(${first}::int, ${last}::int) c, generate_series(0, ${TRACKS_PER_CREATOR - 1}::int) i`.execute(
      db,
    );
  }
  await sql`vacuum analyze tracks`.execute(db);
  await sql`vacuum analyze track_albums`.execute(db);
  await sql`vacuum analyze users`.execute(db);
  await sql`checkpoint`.execute(db).catch(() => undefined);
  const { rows } = await sql<{ tracks: number; albums: number }>`select
      (select count(*)::int from tracks where deleted_at is null) as tracks, (select count(*)::int from track_albums) as albums`.execute(
    db,
  );
  console.log(
    `library: ${rows[0]!.tracks} tracks, ${rows[0]!.albums} albums (creators ${from}–${to} added in ${elapsed(started)}); load average ${load()}`,
  );
}

/** Removes creators `from` to `to` and their tracks (the albums follow through the triggers). */
async function removeCreators(from: number, to: number) {
  const started = performance.now();
  // the tracks first, in one statement (one recount of their albums), then the accounts
  await sql`delete from tracks where creator_id in (select ${creatorId(sql`n`)} from generate_series(${from}::int, ${to}::int) n)`.execute(
    db,
  );
  await sql`delete from users where id in (select ${creatorId(sql`n`)} from generate_series(${from}::int, ${to}::int) n)`.execute(
    db,
  );
  await sql`vacuum analyze tracks`.execute(db);
  await sql`vacuum analyze track_albums`.execute(db);
  console.log(`creators ${from}–${to} removed in ${elapsed(started)}`);
}

/** The listener: a user with 40 private tracks of their own (5 albums), 100 likes and 100 plays, and an app password. */
async function listener(riff: Child): Promise<{ user: BenchUser; password: string; username: string }> {
  const user = await signInUser(riff);
  await sql`
    insert into tracks (id, creator_id, title, album, genre, year, duration, bitrate, file_size, format, md5, status, is_public)
    select gen_random_uuid(), ${user.id}::uuid, 'Demo ' || i, 'Sketches ' || i / 8, 'Ambient', 2026, 60, 256, 1000000, 'mp3', 'bench', 'completed', false
    from generate_series(0, 39) i`.execute(db);
  const api = (pathname: string, body?: unknown) =>
    fetch(`${riff.baseUrl}/api/v1${pathname}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
  for (let n = 1; n <= 100; n++) {
    const track = `md5('bench-subsonic-track-${1 + ((n * 37) % 100)}-${(n * 13) % 100}')::uuid`;
    const { rows } = await sql<{ id: string }>`select ${sql.raw(track)} as id`.execute(db);
    const id = rows[0]!.id;
    const liked = await api(`/tracks/${id}/like`);
    const played = await api(`/tracks/${id}/play`, { duration_listened: 60 });
    if (liked.status >= 300 || played.status >= 300) {
      throw new Error(`like ${liked.status} ${await liked.text()} / play ${played.status} ${await played.text()}`);
    }
  }
  const made = await api('/users/me/app-passwords', { name: 'bench' });
  if (made.status !== 201) throw new Error(`app password: ${made.status} ${await made.text()}`);
  const { password } = (await made.json()).data;
  const { rows } = await sql<{
    username: string;
  }>`select username::text from users where id = ${user.id}::uuid`.execute(db);
  return { user, password, username: rows[0]!.username };
}

const REQUESTS = [
  { name: 'getAlbumList2 newest', query: 'getAlbumList2?type=newest&size=20' },
  { name: 'getAlbumList2 newest, offset 200', query: 'getAlbumList2?type=newest&size=20&offset=200' },
  { name: 'getAlbumList2 alphabeticalByName', query: 'getAlbumList2?type=alphabeticalByName&size=20' },
  { name: 'getAlbumList2 alphabeticalByArtist', query: 'getAlbumList2?type=alphabeticalByArtist&size=20' },
  { name: 'getAlbumList2 random', query: 'getAlbumList2?type=random&size=20' },
  { name: 'getAlbumList2 byGenre', query: 'getAlbumList2?type=byGenre&genre=Jazz&size=20' },
  { name: 'getAlbumList2 byYear', query: 'getAlbumList2?type=byYear&fromYear=2000&toYear=2005&size=20' },
  { name: 'getAlbumList2 starred', query: 'getAlbumList2?type=starred&size=20' },
  { name: 'getAlbumList2 frequent', query: 'getAlbumList2?type=frequent&size=20' },
  { name: "search3 a creator's word", query: `search3?query=${creatorWordOf(42)}` },
  { name: 'search3 "", first page', query: 'search3?query=' },
  { name: 'search3 "", offsets 500', query: 'search3?query=&artistOffset=500&albumOffset=500&songOffset=500' },
];

const measure = (url: string) => latenciesOf(url, { connections, seconds });

type Sized = { small: number[]; large: number[] };
const figures = new Map<string, Sized>();

async function measureAll(riff: Child, who: { username: string; password: string }, size: 'small' | 'large') {
  const credentials = `u=${encodeURIComponent(who.username)}&p=${encodeURIComponent(who.password)}&v=1.16.1&c=bench&f=json`;
  for (const request of REQUESTS) {
    const url = `${riff.baseUrl}/rest/${request.query}&${credentials}`;
    const probe = await (await fetch(url)).json();
    if (probe['subsonic-response'].status !== 'ok') throw new Error(`${request.name}: ${JSON.stringify(probe)}`);
    const measured = await measure(url);
    const sized = figures.get(request.name) ?? { small: [], large: [] };
    figures.set(request.name, sized);
    sized[size].push(...measured.latencies);
    console.log(
      `${size === 'small' ? '10k' : '1M'} tracks: ${request.name}: p95 ${percentile(measured.latencies, 0.95).toFixed(1)} ms, ${measured.rps.toFixed(0)} req/s; load ${load()}`,
    );
  }
}

async function explainLarge(listenerId: string) {
  const library = sql`(select a.album_id, a.creator_id, a.name, a.song_count, a.duration, a.created, a.year, a.genre, a.shuffle
      from track_albums a where a.creator_id <> ${listenerId}::uuid
      and exists (select 1 from users u where u.id = a.creator_id and u.deleted_at is null and u.is_active and not u.is_banned and u.is_verified)
      and not exists (select 1 from blocks b where (b.blocker_id = ${listenerId}::uuid and b.blocked_id = a.creator_id) or (b.blocker_id = a.creator_id and b.blocked_id = ${listenerId}::uuid))
    union all
    select own.album_id, own.creator_id, min(own.title), count(*)::int, 0, min(own.created_at), max(own.year), min(own.genre), 0::float8
      from tracks own where own.creator_id = ${listenerId}::uuid and own.deleted_at is null group by own.album_id, own.creator_id) lib`;
  for (const [label, statement] of [
    ['newest', sql`select * from ${library} order by lib.created desc, lib.album_id desc limit 20`],
    [
      'alphabeticalByName',
      sql`select * from ${library} order by riff_norm(lib.name) collate "C", lib.album_id limit 20`,
    ],
    [
      "search3 albums, a creator's word",
      sql`select * from ${library} where riff_norm(lib.name) like ${`%${creatorWordOf(42)}%`} order by riff_norm(lib.name) collate "C", lib.album_id limit 20`,
    ],
  ] as const) {
    const plan = await sql<{ 'QUERY PLAN': string }>`explain analyze ${statement}`.execute(db);
    console.log(`\nplan, ${label}:\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}`);
  }
}

console.log(`bench:subsonic-catalogue; load average ${load()}`);
const smallCreators = SIZES.small / TRACKS_PER_CREATOR;
const largeCreators = SIZES.large / TRACKS_PER_CREATOR;
await seedCreators(1, smallCreators);
if (seedOnly) {
  await seedCreators(smallCreators + 1, largeCreators);
  await opened.close();
  process.exit(0);
}
const riff = await startRiff(8973, { RATE_LIMIT_PER_MINUTE: '100000000' });
let listenerId: string | undefined;
try {
  const who = await listener(riff);
  listenerId = who.user.id;
  await measureAll(riff, who, 'small');
  await seedCreators(smallCreators + 1, largeCreators);
  await measureAll(riff, who, 'large');
  await explainLarge(who.user.id);
  await removeCreators(smallCreators + 1, largeCreators);
  await measureAll(riff, who, 'small');
} finally {
  await riff.stop();
  console.log('\n| request | p95 at 10k tracks | p95 at 1M | ratio | goal ≤ 2× |');
  console.log('|---|---|---|---|---|');
  for (const [name, sized] of figures) {
    if (sized.small.length === 0 || sized.large.length === 0) continue;
    const [small, large] = [percentile(sized.small, 0.95), percentile(sized.large, 0.95)];
    const ratio = large / Math.max(small, 0.1);
    console.log(
      `| ${name} | ${small.toFixed(1)} ms | ${large.toFixed(1)} ms | ${ratio.toFixed(2)} | ${ratio <= 2 ? 'met' : 'not met'} |`,
    );
  }
  console.log(`\nload average at the end ${load()}`);
  if (!keep) {
    await removeCreators(1, largeCreators);
    if (listenerId) await sql`delete from users where id = ${listenerId}::uuid`.execute(db);
  }
  await opened.close();
}
