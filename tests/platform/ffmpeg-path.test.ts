import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/platform/config/config.js';
import { findFfmpeg, packagedFfmpeg } from '../../server/src/platform/media/ffmpeg-path.js';

const run = promisify(execFile);
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'riff-ffmpeg-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A folder holding only the given files (executable or not). */
async function folder(name: string, files: Record<string, { executable: boolean }>) {
  const dir = path.join(scratch, name);
  await rm(dir, { recursive: true, force: true });
  await (await import('node:fs/promises')).mkdir(dir, { recursive: true });
  for (const [file, { executable }] of Object.entries(files)) {
    await writeFile(path.join(dir, file), '#!/bin/sh\necho fake\n');
    await chmod(path.join(dir, file), executable ? 0o755 : 0o644);
  }
  return dir;
}

describe('finding ffmpeg', () => {
  it('takes FFMPEG_PATH first, as given', async () => {
    const onPath = await folder('first', { ffmpeg: { executable: true } });
    expect(findFfmpeg({ configured: '/opt/ffmpeg/bin/ffmpeg', pathVariable: onPath })).toEqual({
      path: '/opt/ffmpeg/bin/ffmpeg',
      source: 'FFMPEG_PATH',
    });
    expect(loadConfig({ FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg', PATH: onPath }).ffmpegPath).toBe(
      '/opt/ffmpeg/bin/ffmpeg',
    );
  });

  it('else the first executable ffmpeg on PATH, skipping files that are not executable', async () => {
    const notExecutable = await folder('plain', { ffmpeg: { executable: false } });
    const executable = await folder('bin', { ffmpeg: { executable: true } });
    const pathVariable = ['', notExecutable, path.join(scratch, 'missing'), executable].join(':');
    expect(findFfmpeg({ pathVariable, platform: 'linux' })).toEqual({
      path: path.join(executable, 'ffmpeg'),
      source: 'PATH',
    });
    expect(loadConfig({ PATH: pathVariable }).ffmpegPath).toBe(path.join(executable, 'ffmpeg'));
  });

  it('else the binary shipped in the npm package, when PATH has node but no ffmpeg', async () => {
    const nodeOnly = await folder('node-only', {});
    await symlink(process.execPath, path.join(nodeOnly, 'node'));
    const found = findFfmpeg({ pathVariable: nodeOnly });
    expect(found?.source).toBe('package');
    expect(found?.path).toBe(packagedFfmpeg());
    expect(found?.path).toMatch(/@ffmpeg-installer/);
    expect(findFfmpeg({ pathVariable: nodeOnly, packaged: () => undefined })).toBeUndefined();
  });

  // The media pipeline encodes AAC-LC into fMP4 HLS segments: the packaged binary must do both.
  it('the packaged binary encodes AAC into fMP4 HLS segments and makes the test fixtures', async () => {
    const binary = packagedFfmpeg()!;
    const { stdout: encoders } = await run(binary, ['-hide_banner', '-encoders']);
    for (const encoder of ['aac', 'libmp3lame', 'flac', 'libvorbis', 'pcm_s16le'])
      expect(encoders).toMatch(new RegExp(`^ A\\S* +${encoder} `, 'm'));
    const out = await folder('hls', {});
    await run(binary, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=8:sample_rate=44100',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-f',
      'hls',
      '-hls_time',
      '6',
      '-hls_playlist_type',
      'vod',
      '-hls_segment_type',
      'fmp4',
      '-hls_segment_filename',
      path.join(out, 'segment_%03d.m4s'),
      path.join(out, 'index.m3u8'),
    ]);
    const playlist = await readFile(path.join(out, 'index.m3u8'), 'utf8');
    expect(playlist).toContain('#EXT-X-MAP:URI="init.mp4"');
    expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect((await readdir(out)).filter((file) => file.endsWith('.m4s'))).toHaveLength(2);
    const { stdout: probe } = await run(binary, ['-hide_banner', '-i', path.join(out, 'index.m3u8')]).catch(
      (error: { stderr: string }) => ({ stdout: error.stderr }),
    );
    expect(probe).toMatch(/Audio: aac \(LC\)/);
  });
});
