import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseFile } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPathFrom } from '../../server/src/platform/media/ffmpeg-path.js';
import { readAudioMetadata } from '../../server/src/modules/tracks/audio-probe.js';
import { makeAudio } from '../support/audio.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'riff-probe-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The figures music-metadata gives with `duration: true` (what the probe read before it skipped the option). */
async function reference(file: string) {
  const parsed = await parseFile(file, { duration: true, skipCovers: true });
  return {
    duration: Math.max(1, Math.round(parsed.format.duration!)),
    bitrate: Math.round(parsed.format.bitrate! / 1000),
    sampleRate: parsed.format.sampleRate,
    title: parsed.common.title,
  };
}

describe('audio probe', () => {
  it.each(['mp3', 'wav', 'flac', 'ogg'] as const)(
    'reads a %s file with the same figures as a full parse',
    async (format) => {
      const file = path.join(dir, `tone.${format}`);
      await writeFile(file, await makeAudio(format, { seconds: 7, title: 'Probe' }));
      expect(await readAudioMetadata({ path: file })).toMatchObject({ format, ...(await reference(file)) });
    },
  );

  it('an MP3 of varying bitrate without a Xing header gets its duration by counting its frames', async () => {
    const file = path.join(dir, 'vbr-no-xing.mp3');
    await promisify(execFile)(ffmpegPathFrom(), [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      "anoisesrc=duration=20:color=pink:amplitude=0.5,volume=enable='lt(mod(t,4),2)':volume=0.01",
      '-ac',
      '2',
      '-q:a',
      '4',
      '-write_xing',
      '0',
      '-metadata',
      'title=No Xing',
      file,
    ]);
    // the case the quick read cannot answer: music-metadata gives no duration without the option
    expect((await parseFile(file, { duration: false })).format.duration).toBeUndefined();
    const metadata = await readAudioMetadata({ path: file });
    expect(metadata).toMatchObject({ format: 'mp3', duration: 20, title: 'No Xing' });
    expect(metadata).toMatchObject(await reference(file));
  });
});
