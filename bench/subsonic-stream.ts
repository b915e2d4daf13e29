/**
 * Subsonic `stream` with on-the-fly transcoding (issue 31): `npm run bench:subsonic-stream` (add
 * `-- --quick` for a short run).
 *
 * Starts Riff (embedded database, or DATABASE_URL), uploads a stereo FLAC tone (5 minutes, 1 with
 * --quick) and measures:
 * - time to first byte of /rest/stream?format=mp3|opus|aac, one request at a time, against the same
 *   ffmpeg command spawned here on the same file (bare), alternated request by request: p50 and p95
 *   of each (goal: Riff ≤ 500 ms);
 * - TRANSCODE_CONCURRENCY (4) mp3 transcodes at once, each read whole as fast as the client takes it:
 *   first byte of each, speed (× real time) per stream, and the rise of Riff's resident memory
 *   while they run (goal: flat, whatever the length).
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPathFrom } from '../server/src/platform/media/ffmpeg-path.js';
import { TRANSCODE_FORMATS, transcodeArgs, type TranscodeFormat } from '../server/src/platform/media/live-transcode.js';
import { audioForm, uploadForm } from '../tests/support/audio.js';
import { MiB, measure, signIn, startRiff } from './bench-support.js';
import { percentile } from './live-scenario.js';

const quick = process.argv.includes('--quick');
const minutes = quick ? 1 : 5;
const requests = quick ? 8 : 20;
const concurrent = 4;
const ffmpeg = ffmpegPathFrom();
const work = await mkdtemp(path.join(tmpdir(), 'riff-bench-subsonic-'));
const source = path.join(work, 'tone.flac');
await promisify(execFile)(ffmpeg, [
  ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
  ...['-i', `sine=frequency=330:duration=${minutes * 60}:sample_rate=44100`, '-ac', '2', '-c:a', 'flac', source],
]);

const riff = await startRiff(8951, { TRANSCODE_CONCURRENCY: String(concurrent) });

/** Milliseconds from the request to the first body byte; the rest is not read (the connection is dropped). */
async function riffFirstByte(url: string): Promise<number> {
  const controller = new AbortController();
  const started = performance.now();
  const reply = await fetch(url, { signal: controller.signal });
  const reader = reply.body!.getReader();
  const first = await reader.read();
  const ms = performance.now() - started;
  if (!reply.headers.get('content-type')?.startsWith('audio/') || !first.value?.length) {
    throw new Error(
      `not audio: ${reply.status} ${reply.headers.get('content-type')} ${Buffer.from(first.value ?? []).toString()}`,
    );
  }
  controller.abort();
  return ms;
}

/** The same, for the ffmpeg command Riff runs, spawned here. */
async function bareFirstByte(format: TranscodeFormat): Promise<number> {
  const started = performance.now();
  const child = spawn(
    ffmpeg,
    transcodeArgs({
      ffmpegPath: ffmpeg,
      input: source,
      format,
      kbps: TRANSCODE_FORMATS[format].defaultKbps,
      offsetSeconds: 0,
    }),
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await once(child.stdout, 'data');
  const ms = performance.now() - started;
  child.kill('SIGKILL');
  await once(child, 'close');
  return ms;
}

/** The whole transcode read as fast as the client takes it: first byte and total seconds. */
async function whole(url: string): Promise<{ firstMs: number; seconds: number; bytes: number }> {
  const started = performance.now();
  const reply = await fetch(url);
  let firstMs = 0;
  let bytes = 0;
  for await (const chunk of reply.body as unknown as AsyncIterable<Uint8Array>) {
    if (bytes === 0) firstMs = performance.now() - started;
    bytes += chunk.length;
  }
  return { firstMs, seconds: (performance.now() - started) / 1000, bytes };
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

try {
  const token = await signIn(riff);
  const me = await (
    await fetch(`${riff.baseUrl}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  const username: string = me.data.username;
  const made = await fetch(`${riff.baseUrl}/api/v1/users/me/app-passwords`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  const password: string = (await made.json()).data.password;
  const uploaded = await uploadForm(riff.baseUrl, token, audioForm(await readFile(source), 'tone.flac'));
  if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.status} ${uploaded.text}`);
  const id: string = uploaded.body.data.track.id;
  const url = (format: TranscodeFormat) =>
    `${riff.baseUrl}/rest/stream?${new URLSearchParams({ u: username, p: password, v: '1.16.1', c: 'bench', id, format })}`;

  console.log(
    `${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, a ${minutes}-minute stereo FLAC, ffmpeg ${ffmpeg}; load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  console.log('| format (default bit rate) | Riff first byte p50 / p95 | bare ffmpeg p50 / p95 |');
  console.log('|---|---|---|');
  for (const format of Object.keys(TRANSCODE_FORMATS) as TranscodeFormat[]) {
    await riffFirstByte(url(format)); // warm-up
    const riffTimes: number[] = [];
    const bareTimes: number[] = [];
    for (let i = 0; i < requests; i++) {
      riffTimes.push(await riffFirstByte(url(format)));
      bareTimes.push(await bareFirstByte(format));
      // the dropped transcode's slot is free once its ffmpeg has exited
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    console.log(
      `| ${format} (${TRANSCODE_FORMATS[format].defaultKbps} kbps) | ${ms(percentile(riffTimes, 0.5))} / ${ms(percentile(riffTimes, 0.95))} | ${ms(percentile(bareTimes, 0.5))} / ${ms(percentile(bareTimes, 0.95))} |`,
    );
  }

  const run = await measure(riff.process.pid!, () =>
    Promise.all(Array.from({ length: concurrent }, () => whole(url('mp3')))),
  );
  const firsts = run.result.map((one) => one.firstMs);
  const speeds = run.result.map((one) => (minutes * 60) / one.seconds);
  console.log(
    `${concurrent} mp3 transcodes at once, each read whole: first byte ${ms(Math.min(...firsts))}–${ms(Math.max(...firsts))}, ` +
      `${Math.min(...speeds).toFixed(0)}–${Math.max(...speeds).toFixed(0)}× real time each, ` +
      `${(run.result.reduce((sum, one) => sum + one.bytes, 0) / MiB).toFixed(1)} MiB in ${run.seconds.toFixed(1)} s; ` +
      `Riff RSS ${(run.rssBefore / MiB).toFixed(0)} MiB, +${(run.growth / MiB).toFixed(1)} MiB at the peak`,
  );
} finally {
  await riff.stop();
  await rm(work, { recursive: true, force: true });
}
