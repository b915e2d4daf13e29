import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.js';

let database: DatabaseHandle;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'riff-migration-media-'));
  // PGlite only: on PostgreSQL the suite shares one database, already migrated past 0006
  database = await openDatabase({ dataDir });
});

afterAll(async () => {
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('migration 0006-media', () => {
  it('gives every existing track its audio as version 1, current', async () => {
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateTo('0005-event-subjects');
    expect(error).toBeUndefined();
    const user = await database.db
      .insertInto('users')
      .values({ username: 'legacy', slug: 'legacy' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const track = {
      id: '00000000-0000-4000-8000-000000000001',
      creator_id: user.id,
      title: 'Old',
      genres: '[]',
      tags: '[]',
      duration: 61,
      bitrate: 192,
      sample_rate: 48000,
      file_size: 1234,
      format: 'flac' as const,
      file_key: 'tracks/00000000-0000-4000-8000-000000000001/original',
      md5: 'd41d8cd98f00b204e9800998ecf8427e',
      status: 'completed' as const,
    };
    await database.db.insertInto('tracks').values(track).execute();
    await database.db
      .insertInto('tracks')
      .values({ ...track, id: '00000000-0000-4000-8000-000000000002', file_key: null })
      .execute();

    await migrateToLatest(database.db);
    const versions = await database.db.selectFrom('track_versions').selectAll().execute();
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({
      track_id: track.id,
      version_number: 1,
      file_key: track.file_key,
      format: 'flac',
      duration: 61,
      md5: track.md5,
      is_current: true,
    });
    expect(Number(versions[0]!.file_size)).toBe(1234);
  });
});
