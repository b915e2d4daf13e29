/**
 * The benchmark suite: `npm run bench` (add `-- --quick` for a short run, `-- --only=reads|writes|streams|uploads|live`,
 * `-- --upload-rounds=N` for N uploads of each kind, 4 by default, 1 with --quick).
 * Starts Riff and a bare Node baseline (bench/bare-server.ts) doing the same I/O, alternates them
 * round by round in one run, and prints one table of ratios Riff / bare. Embedded (PGlite) by
 * default; on PostgreSQL when DATABASE_URL is set (both servers then read the same rows).
 * BENCH_CPU_PROF=<folder> makes both servers write a V8 CPU profile there when they stop.
 */
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  MiB,
  makeWav,
  memoryOf,
  multipartBody,
  signIn,
  sizeOf,
  startBare,
  startRiff,
  type Child,
} from './bench-support.js';
import { LIVE_CLIENTS, liveFanout, percentile } from './live-scenario.js';
import { barePlayPath, playRequests, riffPlayPath } from './play-scenario.js';
import { bareUpload, chunkedUpload, oneRequestUpload, type UploadFigures } from './upload-scenarios.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const seconds = quick ? 3 : 10;
const warmUpSeconds = quick ? 1 : 5;
const rounds = quick ? 1 : 2;
// one upload is a noisy figure on a shared machine (the page cache's writeback lands on one run or the other)
const uploadRounds = Number(
  args.find((arg) => arg.startsWith('--upload-rounds='))?.slice('--upload-rounds='.length) ?? (quick ? 1 : 4),
);
const uploadMiB = quick ? 32 : 256;
const LIST_TRACKS = 20;
const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';

interface Row {
  path: string;
  riff: string;
  bare: string;
  ratio: number;
  p99Ratio?: number;
  goal: { ratio: number; p99Ratio?: number; p95Ms?: number };
  /** A latency row (lower is better): Riff's p95, checked against goal.p95Ms; its ratio is bare p95 / Riff p95. */
  p95Ms?: number;
  errors: number;
}

interface HttpScenario {
  group: 'reads' | 'writes' | 'streams';
  path: string;
  riffUrl: string;
  bareUrl: string;
  connections: number;
  headers?: Record<string, string>;
  /** A request other than a plain GET (method, body, a per-request setup), the same for both servers. */
  request?: Pick<autocannon.Options, 'method' | 'body' | 'requests'>;
  /** Compare bytes/s instead of requests/s (whole-file streaming). */
  throughput?: boolean;
  goal: Row['goal'];
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

const optionsOf = (url: string, scenario: HttpScenario, duration: number): autocannon.Options => ({
  url,
  connections: scenario.connections,
  duration,
  headers: scenario.headers ?? {},
  ...scenario.request,
});

async function load(url: string, scenario: HttpScenario) {
  const result = await autocannon(optionsOf(url, scenario, seconds));
  return {
    rate: scenario.throughput ? result.throughput.average : result.requests.average,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

/** Bare and Riff in turns, `rounds` times each, so drift on a shared machine touches both. */
async function compare(scenario: HttpScenario): Promise<Row> {
  const riff: Awaited<ReturnType<typeof load>>[] = [];
  const bare: Awaited<ReturnType<typeof load>>[] = [];
  // a warm-up of each, not counted: what is measured is the steady state. V8 optimises a server's
  // hot paths under load over seconds, and Riff has far more code on them than the bare server
  // (a 64 KiB Range measured 0.66 of bare in its first 10 s, 0.83 to 1.02 after 5 s of warm-up)
  await autocannon(optionsOf(scenario.bareUrl, scenario, warmUpSeconds));
  await autocannon(optionsOf(scenario.riffUrl, scenario, warmUpSeconds));
  for (let round = 0; round < rounds; round++) {
    bare.push(await load(scenario.bareUrl, scenario));
    riff.push(await load(scenario.riffUrl, scenario));
  }
  const riffRate = mean(riff.map((run) => run.rate));
  const bareRate = mean(bare.map((run) => run.rate));
  const riffP99 = mean(riff.map((run) => run.p99));
  const bareP99 = mean(bare.map((run) => run.p99));
  const show = (rate: number, p99: number) =>
    scenario.throughput ? `${(rate / MiB).toFixed(0)} MiB/s` : `${rate.toFixed(0)} req/s, p99 ${p99.toFixed(0)} ms`;
  return {
    path: scenario.path,
    riff: show(riffRate, riffP99),
    bare: show(bareRate, bareP99),
    ratio: riffRate / bareRate,
    ...(scenario.throughput ? {} : { p99Ratio: riffP99 / Math.max(bareP99, 1) }),
    goal: scenario.goal,
    errors: riff.reduce((sum, run) => sum + run.errors, 0),
  };
}

/** Throughput over all the runs (total bytes / total time), and the largest RSS rise of any. */
function meanUpload(runs: UploadFigures[]): UploadFigures {
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  const mib = runs.reduce((sum, run) => sum + run.mibPerSecond * run.seconds, 0);
  return { mibPerSecond: mib / seconds, seconds, rssGrowth: Math.max(...runs.map((run) => run.rssGrowth)) };
}

function uploadRow(label: string, riff: UploadFigures, bare: UploadFigures, goal: number): Row {
  return {
    path: label,
    riff: `${riff.mibPerSecond.toFixed(0)} MiB/s, RSS +${(riff.rssGrowth / MiB).toFixed(0)} MiB`,
    bare: `${bare.mibPerSecond.toFixed(0)} MiB/s`,
    ratio: riff.mibPerSecond / bare.mibPerSecond,
    goal: { ratio: goal },
    errors: 0,
  };
}

async function uploadTrack(
  riff: Child,
  token: string,
  file: string,
  title: string,
): Promise<{ id: string; creator_id: string }> {
  const { body, contentType } = multipartBody({ title, is_public: 'true' }, 'file', file);
  const response = await fetch(`${riff.baseUrl}/api/v1/tracks`, {
    method: 'POST',
    body,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    duplex: 'half',
  } as RequestInit);
  const reply = await response.json();
  if (response.status !== 201) throw new Error(`upload failed: ${JSON.stringify(reply)}`);
  return reply.data.track;
}

/** Until every track's media jobs ended (ready or error), at most five minutes. */
async function waitForMedia(riff: Child, token: string, ids: string[]): Promise<void> {
  const deadline = Date.now() + 5 * 60_000;
  for (const id of ids) {
    for (;;) {
      const reply = await fetch(`${riff.baseUrl}/api/v1/tracks/${id}/status`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const { data } = (await reply.json()) as { data: { stream_status: string; waveform_ready: boolean } };
      if (data.stream_status === 'error' || (data.stream_status === 'ready' && data.waveform_ready)) break;
      if (Date.now() > deadline) throw new Error(`track ${id}: media still ${data.stream_status} after five minutes`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

function table(rows: Row[]): string {
  const met = (row: Row) =>
    row.errors === 0 &&
    row.ratio >= row.goal.ratio &&
    (row.goal.p99Ratio === undefined || (row.p99Ratio ?? Infinity) <= row.goal.p99Ratio) &&
    (row.goal.p95Ms === undefined || (row.p95Ms ?? Infinity) <= row.goal.p95Ms);
  const goalOf = (goal: Row['goal']) =>
    goal.p95Ms !== undefined
      ? `p95 ≤ ${goal.p95Ms} ms`
      : `≥ ${goal.ratio}${goal.p99Ratio ? `, p99 ≤ ${goal.p99Ratio}×` : ''}`;
  const lines = [
    `| path (${database}) | Riff | bare | ratio | p99 Riff/bare | goal | met |`,
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.path} | ${row.riff}${row.errors ? ` (${row.errors} errors)` : ''} | ${row.bare} | ${row.ratio.toFixed(2)} | ${row.p99Ratio?.toFixed(1) ?? ''} | ${goalOf(row.goal)} | ${met(row) ? 'yes' : 'no'} |`,
    ),
  ];
  return lines.join('\n');
}

const streamFile = path.join(tmpdir(), 'riff-bench-stream-32.wav');
const smallFile = path.join(tmpdir(), 'riff-bench-small-1.wav');
const uploadFile = path.join(tmpdir(), `riff-bench-${uploadMiB}.wav`);
await makeWav(streamFile, 32 * MiB);
await makeWav(smallFile, MiB);
await makeWav(uploadFile, uploadMiB * MiB);
const uploadBytes = await sizeOf(uploadFile);

const riff = await startRiff(18_331, {
  UPLOAD_MAX_BYTES: String(uploadBytes + MiB),
  QUOTA_BYTES: String(8 * 1024 * MiB),
});
let bare: Child | undefined;
const rows: Row[] = [];
try {
  const token = await signIn(riff);
  const track = await uploadTrack(riff, token, streamFile, 'bench stream');
  const others = [];
  for (let i = 1; i < LIST_TRACKS; i++) others.push(await uploadTrack(riff, token, smallFile, `bench ${i}`));
  // the uploads' HLS and waveform jobs would otherwise run during the first measurements
  await waitForMedia(riff, token, [track.id, ...others.map((other) => other.id)]);
  bare = await startBare(18_332, riff.dataDir, {
    SERVE_FILE: streamFile,
    ...(process.env.DATABASE_URL
      ? {}
      : { SEED_USER_ID: track.creator_id, SEED_TRACK_ID: track.id, SEED_TRACKS: String(LIST_TRACKS) }),
  });
  const scenarios: HttpScenario[] = [
    {
      group: 'reads',
      path: 'GET /tracks/{id}, anonymous',
      riffUrl: `/api/v1/tracks/${track.id}`,
      bareUrl: `/tracks/${track.id}`,
      connections: 32,
      goal: { ratio: 0.75, p99Ratio: 2 },
    },
    {
      group: 'reads',
      path: 'GET /tracks (20 a page)',
      riffUrl: '/api/v1/tracks',
      bareUrl: '/tracks',
      connections: 32,
      goal: { ratio: 0.75, p99Ratio: 2 },
    },
    {
      group: 'reads',
      path: 'GET /users/{id}',
      riffUrl: `/api/v1/users/${track.creator_id}`,
      bareUrl: `/users/${track.creator_id}`,
      connections: 32,
      goal: { ratio: 0.75, p99Ratio: 2 },
    },
    {
      group: 'writes',
      path: 'POST /tracks/{id}/play (a new listener each)',
      riffUrl: riffPlayPath(track.id),
      bareUrl: barePlayPath(track.id),
      connections: 32,
      headers: { 'content-type': 'application/json' },
      request: playRequests(),
      goal: { ratio: 0.6 },
    },
    {
      group: 'streams',
      path: '64 KiB Range of /stream',
      riffUrl: `/api/v1/tracks/${track.id}/stream`,
      bareUrl: '/file',
      connections: 16,
      headers: { range: 'bytes=1048576-1114111' },
      goal: { ratio: 0.8 },
    },
    {
      group: 'streams',
      path: 'whole 32 MiB /stream',
      riffUrl: `/api/v1/tracks/${track.id}/stream`,
      bareUrl: '/file',
      connections: 4,
      throughput: true,
      goal: { ratio: 0.8 },
    },
  ];
  for (const scenario of scenarios) {
    if (only && only !== scenario.group) continue;
    rows.push(
      await compare({
        ...scenario,
        riffUrl: riff.baseUrl + scenario.riffUrl,
        bareUrl: bare.baseUrl + scenario.bareUrl,
      }),
    );
    console.error(`done: ${scenario.path}`);
  }
  if (!only || only === 'live') {
    const live = await liveFanout(riff, bare, track.id, { rounds, changes: quick ? 20 : 50 });
    for (const [kind, label] of [
      ['playback', 'a playback change'],
      ['items', 'an added item (the session read for each)'],
    ] as const) {
      const [riffP95, bareP95] = [percentile(live[kind].riff, 0.95), percentile(live[kind].bare, 0.95)];
      rows.push({
        path: `live session, ${LIVE_CLIENTS} sockets: ${label} heard by each`,
        riff: `p95 ${riffP95.toFixed(1)} ms, p50 ${percentile(live[kind].riff, 0.5).toFixed(1)} ms`,
        bare: `p95 ${bareP95.toFixed(1)} ms, p50 ${percentile(live[kind].bare, 0.5).toFixed(1)} ms`,
        ratio: bareP95 / riffP95,
        p95Ms: riffP95,
        goal: { ratio: 0, p95Ms: 100 },
        errors: 0,
      });
    }
    console.error('done: live fan-out');
  }
  if (!only || only === 'uploads') {
    // in turns as well: bare, one request, chunked, `uploadRounds` times
    const runs: { bare: UploadFigures[]; one: UploadFigures[]; chunked: UploadFigures[] } = {
      bare: [],
      one: [],
      chunked: [],
    };
    for (let round = 0; round < uploadRounds; round++) {
      runs.bare.push(await bareUpload(bare, uploadFile, uploadBytes));
      runs.one.push(await oneRequestUpload(riff, token, uploadFile, uploadBytes));
      runs.chunked.push(await chunkedUpload(riff, token, uploadFile, uploadBytes));
    }
    const baseline = meanUpload(runs.bare);
    rows.push(uploadRow(`upload ${uploadMiB} MiB, one request`, meanUpload(runs.one), baseline, 0.8));
    rows.push(uploadRow(`upload ${uploadMiB} MiB, 16 MiB chunks`, meanUpload(runs.chunked), baseline, 0.6));
  }
  console.log(table(rows));
  console.log(
    `\nRiff RSS at the end: ${((await memoryOf(riff.process.pid!)).rss / MiB).toFixed(0)} MiB; ${seconds} s per run, ${rounds} round(s) each, ${uploadRounds} upload(s) of each kind, alternated.`,
  );
} finally {
  await bare?.stop();
  await riff.stop();
  await rm(riff.dataDir, { recursive: true, force: true });
}
