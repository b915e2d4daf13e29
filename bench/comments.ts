/**
 * Comments at scale (issue 13): `npm run bench:comments` (add `-- --quick` for a short run).
 *
 * Seeds two public tracks, one with 100 top-level comments and one with 100,000 (bulk inserts in
 * SQL, 200 authors), on PostgreSQL when DATABASE_URL is set, else in a fresh PGlite that Riff then
 * opens. Then drives autocannon against GET /tracks/{id}/comments: the first page of each track, a
 * deep page (offset 50,000) and the last page of the big one, and the first page sorted by
 * timestamp, alternated round by round. Prints each target's p95 (from every response's latency)
 * and the ratio big / small of the first pages (goal: ≤ 2).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type Db } from '../server/src/platform/db/database.js';
import { startRiff } from './bench-support.js';

const quick = process.argv.includes('--quick');
const seconds = quick ? 3 : 10;
const rounds = quick ? 1 : 2;
const connections = 8;
const SMALL = 100;
const BIG = 100_000;
const AUTHORS = 200;
const databaseUrl = process.env.DATABASE_URL;

const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-bench-comments-'));
const ids = { small: randomUUID(), big: randomUUID() };
const userIds = Array.from({ length: AUTHORS }, () => randomUUID());

async function seed(db: Db): Promise<void> {
  const tag = randomUUID().slice(0, 8);
  await sql`
    insert into users (id, email, username, slug, password_hash, social_links, is_verified, email_verified_at)
    select id::uuid, 'bench-' || ${tag} || '-' || n || '@example.test', 'bench_' || ${tag} || '_' || n, 'bench-' || ${tag} || '-' || n, 'x', '{}', true, now()
    from unnest(${userIds}::text[]) with ordinality as u(id, n)`.execute(db);
  for (const [name, id] of Object.entries(ids)) {
    await sql`
      insert into tracks (id, creator_id, title, genres, tags, duration, bitrate, sample_rate, file_size, format, file_key, md5, original_filename, status, is_public)
      values (${id}, ${userIds[0]}, ${`bench ${name}`}, '[]', '[]', 240, 1411, 44100, 1000, 'wav', ${`bench/${id}`}, md5(${id}), 'bench.wav', 'completed', true)`.execute(
      db,
    );
  }
  for (const [id, count] of [
    [ids.small, SMALL],
    [ids.big, BIG],
  ] as const) {
    const started = performance.now();
    // spread over the last `count` minutes, at positions 0–239 s, by 200 authors
    await sql`
      insert into comments (track_id, user_id, content, position_seconds, created_at, updated_at)
      select ${id}::uuid, (${userIds}::uuid[])[1 + i % ${AUTHORS}], 'Comment number ' || i || ': that drop at the chorus is something else.',
             (i * 7919) % 240, now() - make_interval(secs => i * 60), now() - make_interval(secs => i * 60)
      from generate_series(1, ${count}) as i`.execute(db);
    await sql`insert into track_comment_counts (track_id, top_level) values (${id}, ${count})`.execute(db);
    console.log(`seeded ${count} comments in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  await sql`vacuum analyze comments`.execute(db);
  await sql`analyze track_comment_counts`.execute(db);
}

async function unseed(db: Db): Promise<void> {
  await sql`delete from comments where track_id in (${ids.small}, ${ids.big})`.execute(db);
  await sql`delete from track_comment_counts where track_id in (${ids.small}, ${ids.big})`.execute(db);
  await sql`delete from tracks where id in (${ids.small}, ${ids.big})`.execute(db);
  await sql`delete from users where id = any(${userIds}::uuid[])`.execute(db);
}

/** One autocannon run: every response's latency (ms) and the status counts. */
async function drive(url: string, duration: number): Promise<{ latencies: number[]; rps: number; non2xx: number }> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client, _status, _bytes, time) => latencies.push(time));
  });
  return { latencies, rps: result.requests.average, non2xx: result.non2xx };
}

const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? NaN;
};

const opened = await openDatabase({ databaseUrl, dataDir });
await migrateToLatest(opened.db);
await seed(opened.db);
if (!databaseUrl) await opened.close();

const riff = await startRiff(8931, { DATA_DIR: dataDir, WORKERS: '0' });
const lastPage = Math.ceil(BIG / 20);
const targets = {
  'small, page 1 (100 comments)': `/tracks/${ids.small}/comments`,
  'big, page 1 (100k comments)': `/tracks/${ids.big}/comments`,
  'big, page 2500 (offset 49,980)': `/tracks/${ids.big}/comments?page=2500`,
  [`big, last page (${lastPage})`]: `/tracks/${ids.big}/comments?page=${lastPage}`,
  'big, page 1, sort=timestamp': `/tracks/${ids.big}/comments?sort=timestamp`,
};
const samples = new Map<string, number[]>(Object.keys(targets).map((name) => [name, []]));
const rates = new Map<string, number[]>(Object.keys(targets).map((name) => [name, []]));
try {
  for (const [name, target] of Object.entries(targets)) {
    const check = await fetch(`${riff.baseUrl}/api/v1${target}`);
    const body = await check.json();
    if (check.status !== 200 || body.data.comments.length !== 20)
      throw new Error(`${name}: ${check.status} ${JSON.stringify(body).slice(0, 200)}`);
    await drive(`${riff.baseUrl}/api/v1${target}`, 1); // warm-up
  }
  console.log(
    `${databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${connections} connections, ${seconds} s per run, ${rounds} round(s); load average ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}`,
  );
  for (let round = 1; round <= rounds; round++) {
    for (const [name, target] of Object.entries(targets)) {
      const run = await drive(`${riff.baseUrl}/api/v1${target}`, seconds);
      if (run.non2xx > 0) throw new Error(`${name}: ${run.non2xx} replies were not 2xx`);
      samples.get(name)!.push(...run.latencies);
      rates.get(name)!.push(run.rps);
      console.log(
        `round ${round}: ${name.padEnd(34)} p95 ${p95(run.latencies).toFixed(1)} ms, ${run.rps.toFixed(0)} req/s`,
      );
    }
  }
  console.log(
    `\nall rounds (load average now ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}):`,
  );
  for (const name of Object.keys(targets)) {
    const average = rates.get(name)!.reduce((a, b) => a + b, 0) / rates.get(name)!.length;
    console.log(
      `  ${name.padEnd(34)} p95 ${p95(samples.get(name)!).toFixed(1).padStart(6)} ms   ${average.toFixed(0).padStart(5)} req/s`,
    );
  }
  const ratio = p95(samples.get('big, page 1 (100k comments)')!) / p95(samples.get('small, page 1 (100 comments)')!);
  console.log(`\np95 ratio, page 1 at 100k / at 100: ${ratio.toFixed(2)} (goal ≤ 2)`);
} finally {
  await riff.stop();
  if (databaseUrl) {
    await unseed(opened.db);
    await opened.close();
  }
  await rm(dataDir, { recursive: true, force: true });
}
