import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from '../../server/src/modules/media/ffmpeg-process.js';
import { computeWaveform, PeakAccumulator, WAVEFORM_SAMPLE_RATE } from '../../server/src/modules/media/waveform.js';
import { ffmpegPathFrom } from '../../server/src/platform/media/ffmpeg-path.js';
import { makeAudio } from '../support/audio.js';

const run = promisify(execFile);
const ffmpegPath = ffmpegPathFrom();
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'riff-waveform-test-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function expectAudiowaveformV2(waveform: Awaited<ReturnType<typeof computeWaveform>>) {
  expect(waveform).toMatchObject({ version: 2, channels: 1, sample_rate: WAVEFORM_SAMPLE_RATE, bits: 8 });
  expect(waveform.length).toBeLessThanOrEqual(1800);
  expect(waveform.data).toHaveLength(waveform.length * 2);
  for (let i = 0; i < waveform.data.length; i += 2) {
    expect(waveform.data[i]!).toBeLessThanOrEqual(waveform.data[i + 1]!);
    expect(waveform.data[i]!).toBeGreaterThanOrEqual(-128);
    expect(waveform.data[i + 1]!).toBeLessThanOrEqual(127);
  }
}

describe('waveform peaks', () => {
  it('gives audiowaveform JSON v2 with at most 1800 pairs covering the whole track', async () => {
    const file = path.join(work, 'tone.flac');
    await writeFile(file, await makeAudio('flac', { seconds: 12 }));
    const waveform = await computeWaveform(file, { ffmpegPath });
    expectAudiowaveformV2(waveform);
    // the pairs cover the track: length × samples_per_pixel is the sample count, within one bucket
    expect(waveform.length * waveform.samples_per_pixel).toBeGreaterThanOrEqual(12 * WAVEFORM_SAMPLE_RATE);
    expect((waveform.length - 1) * waveform.samples_per_pixel).toBeLessThan(12 * WAVEFORM_SAMPLE_RATE);
    expect(waveform.length).toBeGreaterThan(1700);
    // a full-scale sine: ffmpeg's tone peaks near 1/8 of full scale (its default amplitude)
    const peak = Math.max(...waveform.data);
    expect(peak).toBeGreaterThan(5);
  });

  it('merges pairs when more samples arrive than the bucket size was chosen for', () => {
    const peaks = new PeakAccumulator(10);
    peaks.expect(100);
    // 1000 samples where 100 were expected: merged down to at most 10 pairs, every sample counted
    const samples = Buffer.alloc(2000);
    for (let i = 0; i < 1000; i++) samples.writeInt16LE(i === 777 ? 32767 : i === 5 ? -32768 : 0, i * 2);
    // split at an odd byte to carry half a sample across chunks
    peaks.push(samples.subarray(0, 1001));
    peaks.push(samples.subarray(1001));
    const waveform = peaks.result(1000);
    expect(waveform.length).toBeLessThanOrEqual(10);
    expect(waveform.length * waveform.samples_per_pixel).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...waveform.data)).toBe(127);
    expect(Math.min(...waveform.data)).toBe(-128);
    expect(waveform.data.indexOf(127)).toBe(2 * Math.floor(777 / waveform.samples_per_pixel) + 1);
  });

  it('fails with a readable message when ffmpeg is missing', async () => {
    const file = path.join(work, 'short.mp3');
    await writeFile(file, await makeAudio('mp3', { seconds: 2 }));
    const failure = await computeWaveform(file, { ffmpegPath: path.join(work, 'nope') }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(MediaError);
    expect((failure as MediaError).message).toMatch(/could not be analysed for its waveform.*ffmpeg.*not available/);
  });

  it('streams the PCM: memory stays flat on a long file (16 minutes here; bench/ measures 60)', async () => {
    const minutes = 16;
    const file = path.join(work, 'long.wav');
    await run(ffmpegPath, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=220:duration=${minutes * 60}:sample_rate=44100`,
      '-ac',
      '1',
      '-c:a',
      'pcm_s16le',
      file,
    ]);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    try {
      const waveform = await computeWaveform(file, { ffmpegPath });
      peak = Math.max(peak, process.memoryUsage().rss);
      expectAudiowaveformV2(waveform);
      expect(waveform.length).toBeGreaterThan(1700);
      expect(waveform.length * waveform.samples_per_pixel).toBeGreaterThanOrEqual(minutes * 60 * WAVEFORM_SAMPLE_RATE);
    } finally {
      clearInterval(sampler);
    }
    // the decoded PCM is 85 MB (16 min of mono 16-bit): holding it would show. Streaming levels off
    // near 33 MiB (garbage between collections) whatever the length: 1, 8, 20 and 60 minutes measured
    const growthMiB = (peak - before) / 1024 / 1024;
    expect(growthMiB).toBeLessThan(48);
  });
});
