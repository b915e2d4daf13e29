import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createMediaModule } from '../../server/src/modules/media/media.module.js';
import { StreamStateRepository } from '../../server/src/modules/tracks/stream-state.repository.js';
import { createTrackStreamState } from '../../server/src/modules/tracks/track-stream-state.js';
import { systemActor } from '../../server/src/platform/access/actor.js';
import { loadConfig } from '../../server/src/platform/config/config.js';
import { openPlatform, type PlatformHandle } from '../../server/src/platform/platform.js';
import { parsePlaylist } from '../support/media.js';
import { seedDataDir } from '../support/test-database.js';

const root = path.resolve(import.meta.dirname, '../..');
const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe('an HLS job killed with SIGKILL mid-transcode', () => {
  it('leaves no playable rendition, and its next run (after restart) publishes a whole one', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-kill-hls-'));
    await seedDataDir(dataDir);
    const jobsSchema = `riff_jobs_test_${randomUUID().replaceAll('-', '')}`;
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const marker = path.join(dataDir, 'marker.json');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@riff/source', 'tests/media/fixtures/hls-worker.ts'],
      {
        cwd: root,
        env: { ...process.env, DATA_DIR: dataDir, JOBS_SCHEMA: jobsSchema, MARKER_FILE: marker },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    cleanups.push(async () => {
      child.kill('SIGKILL');
      await exited;
    });
    let started: { trackId: string; runId: string; progress: number } | undefined;
    const deadline = Date.now() + 90_000;
    while (!started) {
      started = await readFile(marker, 'utf8').then(
        (text) => JSON.parse(text) as typeof started,
        () => undefined,
      );
      if (!started && Date.now() > deadline) throw new Error('the HLS job never reported progress');
      if (!started) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    await exited;
    expect(started.progress).toBeLessThan(90);

    // nothing a player could start from: no master playlist anywhere under the track's media
    const media = path.join(dataDir, 'files', 'media', started.trackId);
    expect((await filesUnder(media)).filter((file) => file.endsWith('master.m3u8'))).toEqual([]);

    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WORKERS: '0',
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    });
    const handle: PlatformHandle = await openPlatform(config, { jobsSchema });
    cleanups.push(async () => {
      if (handle.platform.database.kind === 'postgres')
        await sql.raw(`drop schema if exists ${jobsSchema} cascade`).execute(handle.platform.database.db);
      await handle.close();
    });
    const { media: service } = createMediaModule(handle.platform, {
      activeUser: async () => undefined,
      keyIsLive: async () => false,
      tracks: createTrackStreamState(new StreamStateRepository(handle.platform.scope)),
    });
    expect((await service.status(systemActor(), started.trackId)).stream_status).toBe('processing');

    // the queue hands the job out again once its lease expires (tests/platform/jobs.test.ts); this is that run
    expect(await service.runHls({ trackId: started.trackId, runId: started.runId }, 2)).toBe('ready');
    const status = await service.status(systemActor(), started.trackId);
    expect(status.stream_status).toBe('ready');
    const files = await filesUnder(media);
    expect(files.filter((file) => file.endsWith('master.m3u8'))).toEqual([`${started.runId}/hls/master.m3u8`]);
    expect(files.filter((file) => file.includes('staging'))).toEqual([]);
    // every segment the playlist names is there, and nothing else (no leftovers of the killed run)
    for (const variant of ['160k', '64k']) {
      const playlist = parsePlaylist(
        await readFile(path.join(media, started.runId, 'hls', variant, 'index.m3u8'), 'utf8'),
      );
      expect(playlist.segments.length).toBeGreaterThanOrEqual(30);
      expect(files.filter((file) => file.startsWith(`${started.runId}/hls/${variant}/segment-`)).sort()).toEqual(
        playlist.segments.map((segment) => `${started.runId}/hls/${variant}/${segment.uri}`),
      );
    }
  }, 180_000);
});
