/**
 * The media pipeline's figures (issue 12): `npm run bench:media` (add `-- --quick` for a short run).
 *
 * - Waveform of a 60-minute WAV (10 with --quick): peak growth of this process's RSS while the
 *   peaks are computed from ffmpeg's streamed PCM (goal ≤ 64 MiB).
 * - HLS of a 5-minute WAV (1 with --quick): the whole job (encode, upload to staging, publish on
 *   local storage) against the same ffmpeg command run bare from the shell, alternated round by
 *   round; ratio = bare time / job time (goal ≥ 0.9).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { HLS_VARIANTS } from '@riff/contract';
import { hlsFfmpegArgs, transcodeToHls } from '../server/src/modules/media/hls-transcoder.js';
import { computeWaveform } from '../server/src/modules/media/waveform.js';
import { ffmpegPathFrom } from '../server/src/platform/media/ffmpeg-path.js';
import { createLocalStorage } from '../server/src/platform/storage/local-storage.js';

const run = promisify(execFile);
const quick = process.argv.includes('--quick');
const waveformMinutes = quick ? 10 : 60;
const hlsMinutes = quick ? 1 : 5;
const rounds = quick ? 1 : 3;
const ffmpeg = ffmpegPathFrom();
const work = await mkdtemp(path.join(tmpdir(), 'riff-bench-media-'));
const MiB = 1024 * 1024;

async function tone(minutes: number, channels: number): Promise<string> {
  const file = path.join(work, `tone-${minutes}m-${channels}ch.wav`);
  await run(ffmpeg, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=330:duration=${minutes * 60}:sample_rate=44100`,
    '-ac',
    String(channels),
    '-c:a',
    'pcm_s16le',
    file,
  ]);
  return file;
}

async function time<T>(work: () => Promise<T>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function bareHls(input: string): Promise<void> {
  const out = await mkdtemp(path.join(work, 'bare-'));
  for (const variant of HLS_VARIANTS) await mkdir(path.join(out, variant));
  const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
  const command = [ffmpeg, '-hide_banner', '-nostdin', '-nostats', '-i', input, ...hlsFfmpegArgs()]
    .map(quote)
    .join(' ');
  await new Promise<void>((resolve, reject) => {
    const child = spawn('sh', ['-c', `${command} 2>/dev/null`], { cwd: out, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}`))));
  });
  await rm(out, { recursive: true, force: true });
}

try {
  console.log(`ffmpeg: ${ffmpeg}`);
  const long = await tone(waveformMinutes, 2);
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const waveformSeconds = await time(async () => {
    const waveform = await computeWaveform(long, { ffmpegPath: ffmpeg });
    console.log(`waveform: ${waveform.length} pairs, ${waveform.samples_per_pixel} samples per pixel`);
  });
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await rm(long, { force: true });

  const input = await tone(hlsMinutes, 2);
  const bare: number[] = [];
  const job: number[] = [];
  for (let round = 0; round < rounds; round++) {
    bare.push(await time(() => bareHls(input)));
    const root = await mkdtemp(path.join(work, 'job-'));
    job.push(
      await time(() =>
        transcodeToHls(
          input,
          { storage: createLocalStorage(root), prefix: 'media/bench/run/hls/' },
          { ffmpegPath: ffmpeg },
        ),
      ),
    );
    await rm(root, { recursive: true, force: true });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  console.log('\n| measure | figure | goal |');
  console.log('|---|---|---|');
  console.log(
    `| waveform, ${waveformMinutes}-minute WAV: peak RSS growth | ${((peak - before) / MiB).toFixed(1)} MiB (${waveformSeconds.toFixed(1)} s) | ≤ 64 MiB |`,
  );
  console.log(
    `| HLS, ${hlsMinutes}-minute WAV: bare ffmpeg / job (median of ${rounds}) | ${(median(bare) / median(job)).toFixed(2)} (${median(bare).toFixed(2)} s / ${median(job).toFixed(2)} s) | ≥ 0.9 |`,
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
