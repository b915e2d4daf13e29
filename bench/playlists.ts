/**
 * A 10,000-track playlist (issue 14): `npm run bench:playlists` (add `-- --quick` for a short run).
 *
 * Seeds one public playlist of 10,000 public tracks in SQL, on PostgreSQL when DATABASE_URL is set
 * (Riff and the bare server read the same rows), else in a fresh PGlite that Riff then opens (the
 * bare server seeds its own). Then GET /playlists/{id} (its default reply: track_count and the first
 * 100 tracks), as a signed-in listener, against the bare server (node:http and one query returning the same rows,
 * bench/playlist-scenario.ts), alternated round by round. Prints each side's p95 and rate, the
 * ratio, the reply sizes and Riff's resident memory before and at its peak (goal: p95 ≤ 150 ms on
 * PostgreSQL).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { CompiledQuery } from 'kysely';
import { migrateToLatest, openDatabase, type Db } from '../server/src/platform/db/database.js';
import { MiB, memoryOf, signIn, startBare, startRiff } from './bench-support.js';
import { percentile } from './live-scenario.js';
import { PLAYLIST_PAGE, PLAYLIST_TRACKS, seedPlaylist, unseedPlaylist } from './playlist-scenario.js';

const quick = process.argv.includes('--quick');
const seconds = quick ? 5 : 15;
const rounds = quick ? 1 : 2;
const connections = 4;
const databaseUrl = process.env.DATABASE_URL;
const ids = { userId: randomUUID(), playlistId: randomUUID() };

const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-bench-playlists-'));
const queryOf = (db: Db) => async (text: string, values: unknown[]) =>
  (await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, values))).rows;

const opened = await openDatabase({ databaseUrl, dataDir });
await migrateToLatest(opened.db);
const seeded = performance.now();
await seedPlaylist(queryOf(opened.db), ids);
console.log(
  `seeded ${PLAYLIST_TRACKS} tracks and the playlist in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
);
if (!databaseUrl) await opened.close();

// workers on: signing in sends its verification mail through the job queue
const riff = await startRiff(8941, { DATA_DIR: dataDir });
const bare = await startBare(
  8942,
  await mkdtemp(path.join(tmpdir(), 'riff-bench-playlists-bare-')),
  databaseUrl ? {} : { SEED_PLAYLIST_USER_ID: ids.userId, SEED_PLAYLIST_ID: ids.playlistId },
);

async function drive(url: string, headers: Record<string, string>, duration: number) {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration, headers }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client, _status, _bytes, time) => latencies.push(time));
  });
  return { latencies, rps: result.requests.average, non2xx: result.non2xx + result.errors };
}

try {
  const token = await signIn(riff);
  const targets = {
    riff: { url: `${riff.baseUrl}/api/v1/playlists/${ids.playlistId}`, headers: { authorization: `Bearer ${token}` } },
    bare: { url: `${bare.baseUrl}/playlists/${ids.playlistId}`, headers: {} },
  };
  const sizes: Record<string, number> = {};
  for (const [name, target] of Object.entries(targets)) {
    const reply = await fetch(target.url, { headers: target.headers });
    const text = await reply.text();
    const tracks = (JSON.parse(text) as { data: { playlist: { tracks: unknown[] } } }).data.playlist.tracks;
    if (reply.status !== 200 || tracks.length !== PLAYLIST_PAGE)
      throw new Error(`${name}: ${reply.status}, ${tracks?.length} tracks`);
    sizes[name] = Buffer.byteLength(text);
    await drive(target.url, target.headers, 1); // warm-up
  }
  const before = await memoryOf(riff.process.pid!);
  console.log(
    `${databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${connections} connections, ${seconds} s per run, ${rounds} round(s); load average ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}`,
  );
  const samples = { riff: [] as number[], bare: [] as number[] };
  const rates = { riff: [] as number[], bare: [] as number[] };
  for (let round = 1; round <= rounds; round++) {
    for (const name of ['bare', 'riff'] as const) {
      const run = await drive(targets[name].url, targets[name].headers, seconds);
      if (run.non2xx > 0) throw new Error(`${name}: ${run.non2xx} replies were not 2xx`);
      samples[name].push(...run.latencies);
      rates[name].push(run.rps);
      console.log(
        `round ${round}: ${name.padEnd(5)} p95 ${percentile(run.latencies, 0.95).toFixed(1)} ms, ${run.rps.toFixed(1)} req/s`,
      );
    }
  }
  const after = await memoryOf(riff.process.pid!);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const [riffP95, bareP95] = [percentile(samples.riff, 0.95), percentile(samples.bare, 0.95)];
  console.log(
    `\nGET /playlists/{id} of ${PLAYLIST_TRACKS} tracks, the first ${PLAYLIST_PAGE} in the reply (load average now ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}):`,
  );
  console.log(
    `  Riff  p95 ${riffP95.toFixed(1)} ms, ${mean(rates.riff).toFixed(1)} req/s, reply ${(sizes.riff! / MiB).toFixed(1)} MiB`,
  );
  console.log(
    `  bare  p95 ${bareP95.toFixed(1)} ms, ${mean(rates.bare).toFixed(1)} req/s, reply ${(sizes.bare! / MiB).toFixed(1)} MiB`,
  );
  console.log(
    `  ratio Riff/bare: rate ${(mean(rates.riff) / mean(rates.bare)).toFixed(2)}, p95 ${(riffP95 / bareP95).toFixed(2)}×; goal p95 ≤ 150 ms: ${riffP95 <= 150 ? 'met' : 'not met'}`,
  );
  console.log(
    `  Riff RSS ${(before.rss / MiB).toFixed(0)} MiB before the runs, peak ${(after.peak / MiB).toFixed(0)} MiB (${connections} replies in flight)`,
  );
} finally {
  await bare.stop();
  await riff.stop();
  if (databaseUrl) {
    await unseedPlaylist(queryOf(opened.db), ids);
    await opened.close();
  }
  await rm(dataDir, { recursive: true, force: true });
}
