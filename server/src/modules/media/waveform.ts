import { Writable } from 'node:stream';
import { runFfmpeg, type MediaInput } from './ffmpeg-process.js';

/** BBC audiowaveform's JSON, version 2: min/max pairs of 8-bit values, one pair per `samples_per_pixel` samples. */
export interface Waveform {
  version: 2;
  channels: 1;
  sample_rate: number;
  samples_per_pixel: number;
  bits: 8;
  length: number;
  data: number[];
}

export const WAVEFORM_MAX_PAIRS = 1800;
/** The rate ffmpeg decodes to for the peaks (the values are 8-bit: a lower rate would do, this one is exact for most files). */
export const WAVEFORM_SAMPLE_RATE = 44100;
const UNKNOWN_LENGTH_SAMPLES_PER_PIXEL = 256;

export interface WaveformOptions {
  ffmpegPath: string;
  /** When known, fixes samples_per_pixel up front; otherwise ffmpeg's report, else pairs are merged as they overflow. */
  durationSeconds?: number | undefined;
  maxPairs?: number;
  signal?: AbortSignal;
}

/**
 * Min/max peaks over buckets of samples, fed the PCM as it streams: it holds at most `maxPairs`
 * pairs and one bucket, whatever the track's length. When more samples arrive than the bucket size
 * was chosen for, neighbouring pairs are merged and the bucket size doubles.
 */
export class PeakAccumulator {
  private readonly data: number[] = [];
  private samplesPerPixel: number | undefined;
  private min = 0;
  private max = 0;
  private count = 0;
  private carry: number | undefined;

  constructor(private readonly maxPairs: number) {}

  /** Bucket size from the expected number of samples; 2 % slack keeps a slightly long file from merging. */
  expect(totalSamples: number | undefined): void {
    if (this.samplesPerPixel !== undefined) return;
    this.samplesPerPixel =
      totalSamples && totalSamples > 0
        ? Math.max(1, Math.ceil((totalSamples * 1.02) / this.maxPairs))
        : UNKNOWN_LENGTH_SAMPLES_PER_PIXEL;
  }

  /** Little-endian signed 16-bit mono samples; a byte split across chunks is carried over. */
  push(chunk: Buffer): void {
    this.expect(undefined);
    let offset = 0;
    if (this.carry !== undefined && chunk.length > 0) {
      this.sample((((chunk[0]! << 8) | this.carry) << 16) >> 16);
      this.carry = undefined;
      offset = 1;
    }
    const end = chunk.length - ((chunk.length - offset) % 2);
    for (let i = offset; i < end; i += 2) this.sample(chunk.readInt16LE(i));
    if (end < chunk.length) this.carry = chunk[end]!;
  }

  private sample(value: number): void {
    if (this.count === 0) {
      this.min = value;
      this.max = value;
    } else if (value < this.min) this.min = value;
    else if (value > this.max) this.max = value;
    if (++this.count === this.samplesPerPixel) this.flush();
  }

  private flush(): void {
    // 16 to 8 bits as audiowaveform does (arithmetic shift)
    this.data.push(this.min >> 8, this.max >> 8);
    this.count = 0;
    if (this.data.length / 2 > this.maxPairs) this.merge();
  }

  private merge(): void {
    const pairs = this.data.length / 2;
    const merged: number[] = [];
    for (let i = 0; i + 1 < pairs; i += 2) {
      merged.push(
        Math.min(this.data[2 * i]!, this.data[2 * i + 2]!),
        Math.max(this.data[2 * i + 1]!, this.data[2 * i + 3]!),
      );
    }
    const spp = this.samplesPerPixel!;
    if (pairs % 2 === 1) {
      // the odd pair out becomes the open bucket, half full at the new size
      this.min = this.data[this.data.length - 2]! << 8;
      this.max = this.data[this.data.length - 1]! << 8;
      this.count = spp;
    }
    this.data.length = 0;
    this.data.push(...merged);
    this.samplesPerPixel = spp * 2;
  }

  result(sampleRate: number): Waveform {
    // a final flush may merge and reopen a bucket: flush until none is open
    while (this.count > 0) this.flush();
    return {
      version: 2,
      channels: 1,
      sample_rate: sampleRate,
      samples_per_pixel: this.samplesPerPixel ?? UNKNOWN_LENGTH_SAMPLES_PER_PIXEL,
      bits: 8,
      length: this.data.length / 2,
      data: [...this.data],
    };
  }
}

/**
 * Waveform peaks of `input`: ffmpeg decodes to mono 16-bit PCM on its stdout, and the peaks are
 * taken as the bytes stream through (backpressure holds ffmpeg back), so memory does not grow with
 * the track's length.
 */
export async function computeWaveform(input: MediaInput, options: WaveformOptions): Promise<Waveform> {
  const peaks = new PeakAccumulator(options.maxPairs ?? WAVEFORM_MAX_PAIRS);
  let duration = options.durationSeconds;
  const sink = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _encoding, done) {
      peaks.expect(duration ? Math.ceil(duration * WAVEFORM_SAMPLE_RATE) : undefined);
      peaks.push(chunk);
      done();
    },
  });
  await runFfmpeg({
    ffmpegPath: options.ffmpegPath,
    input,
    args: [
      '-map',
      '0:a:0',
      '-vn',
      '-ac',
      '1',
      '-ar',
      String(WAVEFORM_SAMPLE_RATE),
      '-f',
      's16le',
      '-acodec',
      'pcm_s16le',
      'pipe:1',
    ],
    stdout: sink,
    doing: 'analysed for its waveform',
    signal: options.signal,
    onDuration: (seconds) => {
      duration ??= seconds;
    },
  });
  return peaks.result(WAVEFORM_SAMPLE_RATE);
}
