import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { buffer } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { Parser, type ParsedManifest } from 'm3u8-parser';
import type { ObjectStorage } from '../../server/src/platform/storage/object-storage.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** ffprobe: FFPROBE_PATH, else the npm package's binary (CI runs one pass with neither ffmpeg nor ffprobe on PATH). */
export function ffprobePath(): string {
  return process.env.FFPROBE_PATH ?? (require('@ffprobe-installer/ffprobe') as { path: string }).path;
}

/** The duration ffprobe decodes from a file, in seconds. */
export async function probeDuration(file: string): Promise<number> {
  const { stdout } = await run(ffprobePath(), [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'default=noprint_wrappers=1:nokey=1',
    file,
  ]);
  return Number.parseFloat(stdout.trim());
}

/** Codec name and profile of the first audio stream. */
export async function probeAudioCodec(file: string): Promise<{ codec: string; profile: string }> {
  const { stdout } = await run(ffprobePath(), [
    '-v',
    'error',
    '-select_streams',
    'a:0',
    '-show_entries',
    'stream=codec_name,profile',
    '-of',
    'json',
    file,
  ]);
  const stream = (JSON.parse(stdout) as { streams: { codec_name: string; profile: string }[] }).streams[0]!;
  return { codec: stream.codec_name, profile: stream.profile };
}

export function parsePlaylist(text: string): ParsedManifest {
  const parser = new Parser();
  parser.push(text);
  parser.end();
  return parser.manifest;
}

export const readObject = async (storage: ObjectStorage, key: string) => buffer(await storage.get(key));
