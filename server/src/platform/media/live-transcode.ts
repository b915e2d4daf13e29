import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** The formats a player may ask for, each as ffmpeg writes it to a pipe (no seeking back: no index at the end). */
export const TRANSCODE_FORMATS = {
  mp3: {
    contentType: 'audio/mpeg',
    defaultKbps: 192,
    maxKbps: 320,
    args: ['-c:a', 'libmp3lame', '-write_xing', '0', '-f', 'mp3'],
  },
  // opus in ogg: the container every player that plays opus reads from a stream
  // libopus takes at most 256 kbps for one channel
  opus: { contentType: 'audio/ogg', defaultKbps: 128, maxKbps: 256, args: ['-c:a', 'libopus', '-f', 'ogg'] },
  // ADTS: AAC frames one after another, playable from any point, unlike MP4, which needs its index
  aac: { contentType: 'audio/aac', defaultKbps: 192, maxKbps: 320, args: ['-c:a', 'aac', '-f', 'adts'] },
} as const;

export type TranscodeFormat = keyof typeof TRANSCODE_FORMATS;

/** The lowest bit rate served: below it music is noise (the highest is each format's maxKbps). */
export const MIN_TRANSCODE_KBPS = 32;

export interface TranscodeRequest {
  ffmpegPath: string;
  /** A local file (ffmpeg seeks in it) or a stream (piped to ffmpeg's stdin, read up to the offset). */
  input: string | Readable;
  format: TranscodeFormat;
  kbps: number;
  /** Seconds into the audio to start from. */
  offsetSeconds: number;
}

/** ffmpeg could not start or stopped before its first byte: `detail` (ffmpeg's words) is for the logs. */
export class TranscodeError extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = 'TranscodeError';
  }
}

/** A running transcode whose first bytes are ready. */
export interface LiveTranscode {
  /** ffmpeg's stdout: read it at the pace of the client (a pipe, so ffmpeg waits when the client does). */
  output: Readable;
  contentType: string;
  /** Kills ffmpeg at once (the client went away); harmless once it has ended. */
  stop(): void;
  /** Settles when ffmpeg has exited and been reaped: true when it ended on its own with success. */
  exited: Promise<boolean>;
}

const STDERR_KEPT = 4 * 1024;

/** ffmpeg's arguments for a transcode (exported for the benchmark, which runs the same command bare). */
export function transcodeArgs(request: TranscodeRequest): string[] {
  const profile = TRANSCODE_FORMATS[request.format];
  const fromFile = typeof request.input === 'string';
  const offset = request.offsetSeconds > 0 ? ['-ss', String(request.offsetSeconds)] : [];
  return [
    '-hide_banner',
    ...(fromFile ? ['-nostdin'] : []),
    '-loglevel',
    'error',
    // in a file, a seek before the input; a pipe cannot seek (and ffmpeg's guess there drops audio):
    // after the input, the audio up to the offset is decoded and dropped
    ...(fromFile ? offset : []),
    '-i',
    fromFile ? (request.input as string) : 'pipe:0',
    ...(fromFile ? [] : offset),
    // the first audio stream only: no cover picture, no tags (the player has them from the catalogue)
    '-map',
    '0:a:0',
    '-map_metadata',
    '-1',
    ...profile.args,
    '-b:a',
    `${request.kbps}k`,
    // each packet is written as soon as it is encoded: the first bytes leave at once
    '-flush_packets',
    '1',
    'pipe:1',
  ];
}

/**
 * Starts ffmpeg transcoding `input` to stdout and resolves once the first bytes are there (so a
 * failure before any output is still an error the caller can answer), or once it ended with nothing
 * to say (an offset past the end). Nothing is buffered here beyond the pipe: memory stays flat
 * whatever the length.
 */
export function startTranscode(request: TranscodeRequest): Promise<LiveTranscode> {
  const profile = TRANSCODE_FORMATS[request.format];
  const fromFile = typeof request.input === 'string';
  const args = transcodeArgs(request);
  const child = spawn(request.ffmpegPath, args, { stdio: [fromFile ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  const output = child.stdout!;
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => (stderr = (stderr + text).slice(-STDERR_KEPT)));

  const exited = new Promise<boolean>((resolve) => {
    child.once('close', (code) => resolve(code === 0));
    // never spawned (no ffmpeg): 'close' still follows 'error'
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  if (!fromFile) {
    const input = request.input as Readable;
    // ffmpeg stops reading when it is done or killed: the write error that follows is not news
    child.stdin!.on('error', () => undefined);
    input.on('error', () => stop());
    input.pipe(child.stdin!);
    // a store's response left half read would stay open
    void exited.then(() => input.destroy());
  }

  return new Promise<LiveTranscode>((resolve, reject) => {
    const ready = () => {
      if (output.readableLength === 0) return;
      output.off('readable', ready);
      resolve({ output, contentType: profile.contentType, stop, exited });
    };
    output.on('readable', ready);
    child.once('error', (error: NodeJS.ErrnoException) => {
      output.off('readable', ready);
      reject(
        new TranscodeError(
          'The media tool (ffmpeg) could not be started',
          `${request.ffmpegPath}: ${error.code ?? error.message}`,
        ),
      );
    });
    child.once('close', (code, signal) => {
      output.off('readable', ready);
      if (code === 0) resolve({ output, contentType: profile.contentType, stop, exited });
      else {
        const lines = stderr.trim().split(/\r?\n/);
        reject(
          new TranscodeError(
            'The audio could not be transcoded',
            signal ? `ffmpeg killed by ${signal}` : (lines.at(-1) ?? `exit ${code}`),
          ),
        );
      }
    });
  });
}

/**
 * At most `limit` transcodes at once in this process. One more waits up to `waitMs` for a slot
 * (a player skipping tracks ends one transcode as it starts the next), then is refused.
 */
export class TranscodeSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly limit: number,
    readonly waitMs: number,
  ) {}

  /** A release function once a slot is free, or undefined when none came free in time (or `signal` aborted). */
  acquire(signal?: AbortSignal): Promise<(() => void) | undefined> {
    if (this.running < this.limit) {
      this.running += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', giveUp);
        const index = this.waiting.indexOf(take);
        if (index !== -1) this.waiting.splice(index, 1);
      };
      const take = () => {
        leave();
        this.running += 1;
        resolve(this.releaser());
      };
      const giveUp = () => {
        leave();
        resolve(undefined);
      };
      const timer = setTimeout(giveUp, this.waitMs);
      signal?.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(take);
    });
  }

  /** Transcodes running now (tests, metrics). */
  get active(): number {
    return this.running;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.waiting[0]?.();
    };
  }
}
