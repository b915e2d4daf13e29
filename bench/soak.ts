/**
 * Soak: Riff as a real process under a mixed workload (reads, profile and track edits, follows,
 * small uploads; see soak-workload.ts). First the highest req/s the mix reaches (SOAK_MAX_SECONDS,
 * default 20), then the same mix at SOAK_RATE_PERCENT (default 70) % of it for SOAK_SECONDS
 * (default 600), sampling the server's VmRSS every SOAK_SAMPLE_SECONDS (default 5). The first
 * SOAK_WARMUP_SECONDS (default 60) of the soak are warm-up; drift compares the mean RSS of the
 * last minute with that of the first minute after warm-up. Fails (exit 1) on any error (a reply
 * that is not 2xx, a socket error, a timeout) or a drift of 10 % or more.
 *
 * Runs on the embedded defaults, or on the servers DATABASE_URL and REDIS_URL name. The server's
 * rate-limit keys are `riff:<limit>:<address>` (there is no prefix setting), so give the soak a
 * Redis logical database of its own (redis://127.0.0.1:6379/9): on a shared database its raised
 * limits would be counted against every other Riff using that Redis from 127.0.0.1.
 *
 * Run: npm run soak
 */
import { rm } from 'node:fs/promises';
import autocannon from 'autocannon';
import { makeAudio } from '../tests/support/audio.js';
import { MiB, memoryOf, signInUser, startRiff, type Child } from './bench-support.js';
import { mixedRequests, newTally, unexpected, type SoakUser, type Tally, type Upload } from './soak-workload.js';

const env = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const SOAK_SECONDS = env('SOAK_SECONDS', 600);
const MAX_SECONDS = env('SOAK_MAX_SECONDS', 20);
const RATE_PERCENT = env('SOAK_RATE_PERCENT', 70);
const WARMUP_SECONDS = env('SOAK_WARMUP_SECONDS', 60);
const SAMPLE_SECONDS = env('SOAK_SAMPLE_SECONDS', 5);
const CONNECTIONS = env('SOAK_CONNECTIONS', 16);
const USERS = env('SOAK_USERS', 8);
const TRACKS_PER_USER = 3;
const DRIFT_LIMIT_PERCENT = 10;
/** Access tokens live 15 minutes: renewed well before. */
const REFRESH_EVERY_MS = 10 * 60 * 1000;

const redisUrl = process.env.REDIS_URL;
if (redisUrl && ['', '/', '/0'].includes(new URL(redisUrl).pathname)) {
  console.warn(
    `soak: REDIS_URL ${redisUrl} is Redis database 0; the soak's rate-limit counters will be shared with any other Riff on it (use e.g. ${redisUrl.replace(/\/*$/, '')}/9)`,
  );
}

const api = (riff: Child, pathname: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${riff.baseUrl}/api/v1${pathname}`, {
    ...init,
    headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers },
  });

async function smallUpload(): Promise<Upload> {
  // a real half-second MP3 (ffmpeg, cached), as the tests make them
  const audio = await makeAudio('mp3', { seconds: 0.5, title: 'Soak tone', artist: 'Riff soak' });
  const form = new FormData();
  form.append('is_public', 'true');
  form.append('file', new Blob([new Uint8Array(audio)]), 'soak-tone.mp3');
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

async function setUp(riff: Child, upload: Upload): Promise<SoakUser[]> {
  const users: SoakUser[] = [];
  for (let i = 0; i < USERS; i++) users.push({ ...(await signInUser(riff)), trackIds: [] });
  for (const user of users) {
    for (let n = 0; n < TRACKS_PER_USER; n++) {
      const reply = await api(riff, '/tracks', {
        method: 'POST',
        token: user.accessToken,
        headers: { 'content-type': upload.contentType },
        body: new Uint8Array(upload.body),
      });
      if (reply.status !== 201) throw new Error(`seed upload failed: ${reply.status} ${await reply.text()}`);
      user.trackIds.push((await reply.json()).data.track.id);
    }
  }
  return users;
}

async function refreshTokens(riff: Child, users: SoakUser[]) {
  for (const user of users) {
    const reply = await api(riff, '/auth/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: user.refreshToken }),
    });
    if (reply.status !== 200) throw new Error(`token refresh failed: ${reply.status} ${await reply.text()}`);
    const tokens = await reply.json();
    user.accessToken = tokens.access_token;
    user.refreshToken = tokens.refresh_token;
  }
}

interface Phase {
  requests: number;
  seconds: number;
  reqPerSecond: number;
  socketErrors: number;
  timeouts: number;
  non2xx: number;
  latencyP50: number;
  latencyP99: number;
}

async function run(
  riff: Child,
  users: SoakUser[],
  upload: Upload,
  tally: Tally,
  seconds: number,
  overallRate?: number,
): Promise<Phase> {
  const result = await autocannon({
    url: riff.baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    ...(overallRate ? { overallRate } : {}),
    requests: mixedRequests(users, upload, tally),
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    reqPerSecond: result.requests.total / result.duration,
    socketErrors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
  };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const mib = (bytes: number) => +(bytes / MiB).toFixed(1);

const upload = await smallUpload();
const riff = await startRiff(18_331, { LOG_LEVEL: 'warn' });
let failed = false;
try {
  const users = await setUp(riff, upload);
  const refresher = setInterval(
    () => void refreshTokens(riff, users).catch((error) => console.error(error)),
    REFRESH_EVERY_MS,
  );
  try {
    const tally = newTally();
    const max = await run(riff, users, upload, tally, MAX_SECONDS);
    const rate = Math.max(1, Math.round((max.reqPerSecond * RATE_PERCENT) / 100));
    console.warn(
      `soak: max ${max.reqPerSecond.toFixed(0)} req/s over ${MAX_SECONDS} s; soaking at ${rate} req/s for ${SOAK_SECONDS} s`,
    );

    const samples: { at: number; rss: number }[] = [];
    const started = performance.now();
    const sample = () =>
      memoryOf(riff.process.pid!).then(
        ({ rss }) => samples.push({ at: (performance.now() - started) / 1000, rss }),
        () => undefined,
      );
    void sample();
    const sampler = setInterval(sample, SAMPLE_SECONDS * 1000);
    const soakTally = newTally();
    const soak = await run(riff, users, upload, soakTally, SOAK_SECONDS, rate).finally(() => clearInterval(sampler));
    await sample();

    const end = samples.at(-1)!.at;
    const measured = samples.filter((s) => s.at >= WARMUP_SECONDS);
    const firstMinute = measured.filter((s) => s.at < WARMUP_SECONDS + 60).map((s) => s.rss);
    const lastMinute = measured.filter((s) => s.at >= end - 60).map((s) => s.rss);
    const drift = ((mean(lastMinute) - mean(firstMinute)) / mean(firstMinute)) * 100;
    const perMinute = Array.from({ length: Math.ceil(end / 60) }, (_, minute) =>
      samples.filter((s) => s.at >= minute * 60 && s.at < (minute + 1) * 60).map((s) => s.rss),
    )
      .filter((values) => values.length > 0)
      .map((values) => mib(mean(values)));

    const wrong = [...unexpected(tally), ...unexpected(soakTally)];
    const errors = max.socketErrors + max.timeouts + max.non2xx + soak.socketErrors + soak.timeouts + soak.non2xx;
    const report = {
      database: process.env.DATABASE_URL ? 'postgresql' : 'embedded (PGlite)',
      rate_limits: redisUrl ? 'redis' : 'in memory',
      connections: CONNECTIONS,
      users: USERS,
      max: {
        seconds: +max.seconds.toFixed(1),
        requests: max.requests,
        req_per_s: Math.round(max.reqPerSecond),
        p99_ms: max.latencyP99,
        errors: max.socketErrors + max.timeouts + max.non2xx,
      },
      soak: {
        seconds: +soak.seconds.toFixed(1),
        target_req_per_s: rate,
        achieved_req_per_s: +soak.reqPerSecond.toFixed(1),
        requests: soak.requests,
        socket_errors: soak.socketErrors,
        timeouts: soak.timeouts,
        non_2xx: soak.non2xx,
        p50_ms: soak.latencyP50,
        p99_ms: soak.latencyP99,
      },
      total_requests: max.requests + soak.requests,
      errors,
      unexpected_replies: wrong,
      replies_by_operation: Object.fromEntries(
        [...soakTally.replies].map(([operation, statuses]) => [operation, Object.fromEntries(statuses)]),
      ),
      rss_mib: {
        start_after_warmup: mib(measured[0]?.rss ?? 0),
        end: mib(samples.at(-1)!.rss),
        max: mib(Math.max(...samples.map((s) => s.rss))),
        first_minute_mean: mib(mean(firstMinute)),
        last_minute_mean: mib(mean(lastMinute)),
        per_minute_mean: perMinute,
        samples: samples.length,
      },
      drift_percent: +drift.toFixed(2),
    };
    console.log(JSON.stringify(report, null, 2));
    if (errors > 0) console.error(`soak: ${errors} error(s)`);
    if (!(drift < DRIFT_LIMIT_PERCENT))
      console.error(`soak: RSS drift ${drift.toFixed(2)} % (limit ${DRIFT_LIMIT_PERCENT} %)`);
    failed = errors > 0 || !(drift < DRIFT_LIMIT_PERCENT);
  } finally {
    clearInterval(refresher);
  }
} finally {
  await riff.stop();
  await rm(riff.dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
