import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Why media work failed: `message` is for the track's owner; `detail` (ffmpeg's own words) is for the logs. */
export class MediaError extends Error {
  constructor(
    readonly reason: 'ffmpeg-missing' | 'ffmpeg-failed' | 'no-audio' | 'cancelled',
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'MediaError';
  }
}

/** Where the audio comes from: a local file (random access) or a stream (piped to ffmpeg's stdin). */
export type MediaInput = string | Readable;

export interface FfmpegRun {
  ffmpegPath: string;
  /** Arguments after the input: `-i` is added from `input`. */
  args: string[];
  input: MediaInput;
  /** Arguments placed before `-i` (input options). */
  inputArgs?: string[];
  /** Working directory (relative output paths). */
  cwd?: string;
  /** Receives ffmpeg's stdout (e.g. decoded PCM); with `onProgress` stdout carries the progress report instead. */
  stdout?: Writable;
  /** Seconds of output written so far, from `-progress`; `duration` is the input's, once ffmpeg has read it. */
  onProgress?: (seconds: number, duration: number | undefined) => void;
  /** Input duration in seconds, as ffmpeg reports it on opening the input. */
  onDuration?: (seconds: number) => void;
  signal?: AbortSignal;
  /** What the failure message says was being done, e.g. "converted for streaming". */
  doing: string;
}

const STDERR_KEPT = 8 * 1024;

/** `Duration: 00:03:12.45` in ffmpeg's report on its input. */
function parseDuration(text: string): number | undefined {
  const match = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

/** The last meaningful line ffmpeg wrote: usually the reason it stopped. */
function lastLine(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('Stream mapping') && !/^size=|^frame=/.test(line));
  return lines.at(-1) ?? 'no output';
}

/**
 * Runs ffmpeg once. Resolves when it exits 0; otherwise rejects with a MediaError whose message a
 * track's owner can read (ffmpeg missing, the file not decodable) and whose detail keeps ffmpeg's words.
 */
export function runFfmpeg(run: FfmpegRun): Promise<void> {
  const progress = run.onProgress !== undefined;
  const args = [
    '-hide_banner',
    '-nostdin',
    '-nostats',
    ...(progress ? ['-progress', 'pipe:1'] : []),
    ...(run.inputArgs ?? []),
    '-i',
    typeof run.input === 'string' ? run.input : 'pipe:0',
    ...run.args,
  ];
  // -nostdin would stop ffmpeg reading its input from a pipe
  if (typeof run.input !== 'string') args.splice(args.indexOf('-nostdin'), 1);
  return new Promise<void>((resolve, reject) => {
    if (run.signal?.aborted) {
      reject(new MediaError('cancelled', 'Processing was cancelled'));
      return;
    }
    const child = spawn(run.ffmpegPath, args, {
      cwd: run.cwd,
      stdio: [typeof run.input === 'string' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    // both are pipes (stdio above)
    const stdout = child.stdout!;
    const errors = child.stderr!;
    let stderr = '';
    let duration: number | undefined;
    let settled = false;
    // with a stdout consumer, success waits until it has taken every byte
    let output: Promise<void> = Promise.resolve();
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      run.signal?.removeEventListener('abort', abort);
      // a stream ffmpeg stopped reading would otherwise stay open (a file descriptor, an S3 response)
      if (error && typeof run.input !== 'string') run.input.destroy();
      if (error) reject(error);
      else resolve();
    };
    const abort = () => {
      child.kill('SIGKILL');
      settle(new MediaError('cancelled', 'Processing was cancelled'));
    };
    run.signal?.addEventListener('abort', abort, { once: true });

    child.on('error', (error: NodeJS.ErrnoException) => {
      settle(
        error.code === 'ENOENT' || error.code === 'EACCES'
          ? new MediaError(
              'ffmpeg-missing',
              `The audio could not be ${run.doing}: the server's media tool (ffmpeg) is not available`,
              `${run.ffmpegPath}: ${error.code}`,
            )
          : new MediaError('ffmpeg-failed', `The audio could not be ${run.doing}`, error.message),
      );
    });

    // ffmpeg reports its input (with its duration) on stderr before it writes output, but the two
    // pipes race: a reader that sizes its work by the duration waits for that report
    let reportHeader!: () => void;
    const headerReported = new Promise<void>((resolve) => (reportHeader = resolve));
    errors.setEncoding('utf8');
    errors.on('data', (text: string) => {
      if (duration === undefined) {
        duration = parseDuration(stderr + text);
        if (duration !== undefined) run.onDuration?.(duration);
      }
      stderr = (stderr + text).slice(-STDERR_KEPT);
      if (duration !== undefined || /Stream mapping:|Output #0/.test(stderr)) reportHeader();
    });
    errors.on('close', () => reportHeader());
    // never hold the output for long: an ffmpeg told to be quiet reports nothing
    const headerDeadline = setTimeout(() => reportHeader(), 2_000);
    void headerReported.then(() => clearTimeout(headerDeadline));

    if (progress) {
      let pending = '';
      stdout.setEncoding('utf8');
      stdout.on('data', (text: string) => {
        pending += text;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          // out_time_ms is in microseconds too (an old ffmpeg misnomer); out_time_us is the newer name
          const match = /^out_time_(?:us|ms)=(\d+)/.exec(line);
          if (match) run.onProgress!(Number(match[1]) / 1e6, duration);
        }
      });
    } else if (run.stdout) {
      const consumer = run.stdout;
      const ready = run.onDuration ? headerReported : Promise.resolve();
      output = ready
        .then(() => pipeline(stdout, consumer))
        .catch((error: unknown) => {
          child.kill('SIGKILL');
          settle(error instanceof Error ? error : new Error(String(error)));
        });
    } else {
      stdout.resume();
    }

    if (typeof run.input !== 'string') {
      // ffmpeg may stop reading early (a bad file): the write error that follows is not the reason
      child.stdin!.on('error', () => undefined);
      run.input.on('error', (error) => {
        child.kill('SIGKILL');
        settle(
          new MediaError('ffmpeg-failed', `The audio could not be ${run.doing}: it could not be read`, error.message),
        );
      });
      run.input.pipe(child.stdin!);
    }

    child.on('close', (code, signal) => {
      if (code === 0) {
        void output.then(() => settle());
        return;
      }
      const detail = signal ? `ffmpeg killed by ${signal}` : lastLine(stderr);
      const noAudio =
        /does not contain any stream|Output file #0 does not contain|matches no streams|Invalid data found/i.test(
          stderr,
        );
      settle(
        noAudio
          ? new MediaError(
              'no-audio',
              `The audio could not be ${run.doing}: the file holds no audio ffmpeg can decode`,
              detail,
            )
          : new MediaError('ffmpeg-failed', `The audio could not be ${run.doing}: the media tool failed`, detail),
      );
    });
  });
}
