import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { ffmpegPathFrom } from '../../server/src/platform/media/ffmpeg-path.js';
import { makeAudio } from '../support/audio.js';
import type { Track } from '@riff/contract';
import { sql } from 'kysely';
import type { TestServer } from '../support/test-server.js';
import type { TestUser } from '../support/factories.js';
import { expectStatus } from '../support/typed-api.js';

/** Sets the metadata recommendations and tags read (as the owner would, through the API). */
export async function describeTrack(
  owner: TestUser,
  track: Track,
  fields: {
    genres?: string[];
    tags?: string[];
    bpm?: number | null;
    musical_key?: string | null;
    title?: string;
    album?: string | null;
  },
) {
  return expectStatus(await owner.api.tracks.update({ params: { id: track.id }, body: fields }), 200).body.data.track;
}

/**
 * The favorites playlists as stored (the playlists routes come with their own issue): each user's
 * playlist flags and its tracks in position order. Only for asserting the one-truth invariant.
 */
export async function favoritesOf(server: TestServer, userId: string) {
  const db = server.riff.platform.scope.db;
  const playlists = await db.selectFrom('playlists').selectAll().where('user_id', '=', userId).execute();
  const tracks = await sql<{ track_id: string; position: number }>`
    select pt.track_id, pt.position from playlist_tracks pt join playlists p on p.id = pt.playlist_id
     where p.user_id = ${userId} and p.is_default_favorites order by pt.position`.execute(db);
  return { playlists, tracks: tracks.rows };
}

/** An MP3 with a red PNG embedded as its picture (ID3 APIC), so the track gets a cover. */
export async function mp3WithCover(): Promise<Buffer> {
  const work = await mkdtemp(path.join(tmpdir(), 'riff-social-cover-'));
  try {
    await writeFile(path.join(work, 'a.mp3'), await makeAudio('mp3', { seconds: 3 }));
    await writeFile(
      path.join(work, 'c.png'),
      await sharp({ create: { width: 64, height: 64, channels: 3, background: 'red' } })
        .png()
        .toBuffer(),
    );
    await run(ffmpegPathFrom(), [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      path.join(work, 'a.mp3'),
      '-i',
      path.join(work, 'c.png'),
      '-map',
      '0:a',
      '-map',
      '1:v',
      '-c',
      'copy',
      '-id3v2_version',
      '3',
      path.join(work, 't.mp3'),
    ]);
    return await readFile(path.join(work, 't.mp3'));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const run = promisify(execFile);
