import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TrackFormat } from '@riff/contract';
import sharp from 'sharp';
import { ffmpegPathFrom } from '../../server/src/platform/media/ffmpeg-path.js';

const run = promisify(execFile);
const cache = path.join(tmpdir(), 'riff-test-audio');

export type AudioFormat = TrackFormat;

const CODEC: Record<AudioFormat, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '128k'],
  wav: ['-c:a', 'pcm_s16le'],
  flac: ['-c:a', 'flac'],
  ogg: ['-c:a', 'libvorbis', '-q:a', '2'],
};

/**
 * A real audio file made by ffmpeg (a sine tone), with tags. Cached per set of arguments.
 */
export async function makeAudio(
  format: AudioFormat,
  options: {
    seconds?: number;
    title?: string;
    artist?: string;
    album?: string;
    genre?: string;
    year?: number;
    frequency?: number;
  } = {},
): Promise<Buffer> {
  const seconds = options.seconds ?? 3;
  const tags = {
    title: options.title,
    artist: options.artist,
    album: options.album,
    genre: options.genre,
    date: options.year?.toString(),
  };
  const name = createHash('sha1')
    .update(JSON.stringify([format, seconds, tags, options.frequency]))
    .digest('hex');
  const file = path.join(cache, `${name}.${format}`);
  try {
    return await readFile(file);
  } catch {
    await mkdir(cache, { recursive: true });
    const metadata = Object.entries(tags).flatMap(([key, value]) => (value ? ['-metadata', `${key}=${value}`] : []));
    const temporary = `${file}.${process.pid}.${Date.now()}.${format}`;
    // the same resolver as the server: FFMPEG_PATH, else PATH, else the npm package's binary
    await run(ffmpegPathFrom(), [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${options.frequency ?? 440}:duration=${seconds}:sample_rate=44100`,
      ...metadata,
      ...CODEC[format],
      temporary,
    ]);
    const { rename } = await import('node:fs/promises');
    await rename(temporary, file);
    return readFile(file);
  }
}

/** The 44-byte header of a 16-bit stereo 44.1 kHz PCM WAV file of `bytes` bytes in all. */
export function wavHeader(bytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(bytes - 8, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(44100, 24);
  header.writeUInt32LE(44100 * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(bytes - 44, 40);
  return header;
}

/** A silent WAV file of `bytes` bytes, in memory (tests; the benchmarks write theirs to disk). */
export const silentWav = (bytes: number) => Buffer.concat([wavHeader(bytes), Buffer.alloc(bytes - 44)]);

export const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

/** A multipart body with text fields first, then the file. */
export function audioForm(
  bytes: Buffer,
  filename: string,
  fields: Record<string, string> = {},
  fileField = 'file',
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(fileField, new Blob([new Uint8Array(bytes)]), filename);
  return form;
}

export async function uploadForm(
  baseUrl: string,
  token: string | undefined,
  form: FormData,
  pathname = '/api/v1/tracks',
) {
  const response = await fetch(`${baseUrl}${pathname}`, {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** Sends a form as a stream without Content-Length, so limits must trip while the body is read. */
export async function uploadFormStreamed(baseUrl: string, token: string, form: FormData) {
  const encoded = new Response(form);
  const response = await fetch(`${baseUrl}/api/v1/tracks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': encoded.headers.get('content-type')! },
    body: encoded.body,
    duplex: 'half',
  } as RequestInit);
  return { status: response.status, body: (await response.json()) as any };
}

export async function uploadTrack(
  baseUrl: string,
  token: string,
  bytes: Buffer,
  filename = 'tone.mp3',
  fields: Record<string, string> = {},
) {
  const reply = await uploadForm(baseUrl, token, audioForm(bytes, filename, fields));
  if (reply.status !== 201) throw new Error(`upload failed: ${reply.status} ${reply.text}`);
  return reply.body.data.track as { id: string; [key: string]: any };
}

/**
 * An MP3 tone of `seconds` with a PNG of one colour embedded as its picture (ID3v2.3 APIC): red and
 * 64×64 unless given, its tags `tags` (an album, a title).
 */
export async function mp3WithCover(
  seconds = 3,
  options: {
    width?: number;
    height?: number;
    background?: string | { r: number; g: number; b: number };
    tags?: { album?: string; title?: string };
  } = {},
): Promise<Buffer> {
  const work = await mkdtemp(path.join(tmpdir(), 'riff-cover-'));
  try {
    await writeFile(path.join(work, 'a.mp3'), await makeAudio('mp3', { seconds, ...options.tags }));
    const cover = {
      width: options.width ?? 64,
      height: options.height ?? 64,
      channels: 3,
      background: options.background ?? 'red',
    } as const;
    await writeFile(path.join(work, 'c.png'), await sharp({ create: cover }).png().toBuffer());
    const [audio, picture, output] = ['a.mp3', 'c.png', 't.mp3'].map((name) => path.join(work, name));
    await promisify(execFile)(ffmpegPathFrom(), [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-i', audio!, '-i', picture!],
      ...['-map', '0:a', '-map', '1:v', '-c', 'copy', '-id3v2_version', '3', output!],
    ]);
    return await readFile(output!);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
