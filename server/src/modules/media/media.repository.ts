import type { MediaTranscoder } from '@riff/contract';
import type { Insertable, Selectable } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { TrackStreamRow } from '../tracks/track-stream-state.js';

export type TrackVersionRow = Selectable<Database['track_versions']>;
export type TrackMediaRow = Selectable<Database['track_media']>;
export type UserAvatarRow = Selectable<Database['user_avatars']>;
export type NewTrackVersion = Insertable<Database['track_versions']>;

/** The part of a track the media pipeline reads (through the tracks area's TrackStreamState). */
export type MediaTrack = TrackStreamRow;

/** Every query of the media pipeline: versions, derived files and their jobs' state, avatars. */
export class MediaRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  // ---- the pipeline's state

  async media(trackId: string): Promise<TrackMediaRow | undefined> {
    return this.db.selectFrom('track_media').selectAll().where('track_id', '=', trackId).executeTakeFirst();
  }

  /**
   * A new run for the track's current audio: both jobs pending (the caller sets the track's
   * stream_status pending through TrackStreamState, in the same unit of work). The HLS of
   * the previous run is another audio's: it is no longer named here (never served for this one)
   * and its prefix is returned, for its files to be removed once this commits. The waveform and
   * cover stay named until the new ones replace them, unserved meanwhile (waveform_state pending).
   */
  async startRun(
    trackId: string,
    run: { runId: string; versionId: string | null; transcoder: MediaTranscoder },
  ): Promise<{ replacedHls: string | null }> {
    const before = await this.db
      .selectFrom('track_media')
      .select(['hls_prefix'])
      .where('track_id', '=', trackId)
      .forUpdate()
      .executeTakeFirst();
    const fresh = {
      run_id: run.runId,
      version_id: run.versionId,
      transcoder: run.transcoder,
      hls_state: 'pending' as const,
      hls_progress: 0,
      hls_prefix: null,
      waveform_state: 'pending' as const,
      message: null,
    };
    await this.db
      .insertInto('track_media')
      .values({ track_id: trackId, ...fresh })
      .onConflict((conflict) => conflict.column('track_id').doUpdateSet({ ...fresh, updated_at: new Date() }))
      .execute();
    return { replacedHls: before?.hls_prefix ?? null };
  }

  /** Marks the run's HLS job started; false when the run is no longer the track's (the audio changed since). */
  async startHls(trackId: string, runId: string): Promise<boolean> {
    const updated = await this.db
      .updateTable('track_media')
      .set({ hls_state: 'processing', hls_progress: 0, updated_at: new Date() })
      .where('track_id', '=', trackId)
      .where('run_id', '=', runId)
      .where('hls_state', 'in', ['pending', 'processing'])
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  async hlsProgress(trackId: string, runId: string, percent: number): Promise<void> {
    await this.db
      .updateTable('track_media')
      .set({ hls_progress: percent })
      .where('track_id', '=', trackId)
      .where('run_id', '=', runId)
      .where('hls_progress', '<', percent)
      .execute();
  }

  /** The run's HLS is published: returns the prefix it replaces (to remove), or false when the run is stale. */
  async publishHls(
    trackId: string,
    runId: string,
    prefix: string | null,
  ): Promise<{ replaced: string | null } | false> {
    const before = await this.db
      .selectFrom('track_media')
      .select(['hls_prefix', 'run_id'])
      .where('track_id', '=', trackId)
      .forUpdate()
      .executeTakeFirst();
    if (!before || before.run_id !== runId) return false;
    await this.db
      .updateTable('track_media')
      .set({ hls_state: 'ready', hls_progress: 100, hls_prefix: prefix, updated_at: new Date() })
      .where('track_id', '=', trackId)
      .execute();
    return { replaced: before.hls_prefix !== prefix ? before.hls_prefix : null };
  }

  async failHls(trackId: string, runId: string, message: string): Promise<boolean> {
    const updated = await this.db
      .updateTable('track_media')
      .set({ hls_state: 'error', message, updated_at: new Date() })
      .where('track_id', '=', trackId)
      .where('run_id', '=', runId)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  async startWaveform(trackId: string, runId: string): Promise<boolean> {
    const updated = await this.db
      .updateTable('track_media')
      .set({ waveform_state: 'processing', updated_at: new Date() })
      .where('track_id', '=', trackId)
      .where('run_id', '=', runId)
      .where('waveform_state', 'in', ['pending', 'processing'])
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  /** The run's waveform and cover are stored: returns the keys they replace (to remove), or false when the run is stale. */
  async publishAnalysis(
    trackId: string,
    runId: string,
    files: {
      waveformKey: string;
      cover?: { key: string; contentType: string } | undefined;
    },
  ): Promise<{ replaced: string[] } | false> {
    const before = await this.db
      .selectFrom('track_media')
      .select(['run_id', 'waveform_key', 'cover_key'])
      .where('track_id', '=', trackId)
      .forUpdate()
      .executeTakeFirst();
    if (!before || before.run_id !== runId) return false;
    await this.db
      .updateTable('track_media')
      .set({
        waveform_state: 'ready',
        waveform_key: files.waveformKey,
        cover_key: files.cover?.key ?? null,
        cover_content_type: files.cover?.contentType ?? null,
        updated_at: new Date(),
      })
      .where('track_id', '=', trackId)
      .execute();
    const replaced = [before.waveform_key, before.cover_key].filter(
      (key): key is string => key !== null && key !== files.waveformKey && key !== files.cover?.key,
    );
    return { replaced };
  }

  async failWaveform(trackId: string, runId: string, message: string): Promise<void> {
    await this.db
      .updateTable('track_media')
      .set({ waveform_state: 'error', message, updated_at: new Date() })
      .where('track_id', '=', trackId)
      .where('run_id', '=', runId)
      .execute();
  }

  /** Forgets the derived files of a track (deleted): returns what the storage still holds of them. */
  async forgetMedia(trackId: string): Promise<TrackMediaRow | undefined> {
    return this.db.deleteFrom('track_media').where('track_id', '=', trackId).returningAll().executeTakeFirst();
  }

  // ---- audio versions

  async versions(trackId: string): Promise<TrackVersionRow[]> {
    return this.db
      .selectFrom('track_versions')
      .selectAll()
      .where('track_id', '=', trackId)
      .orderBy('version_number', 'desc')
      .execute();
  }

  async version(trackId: string, versionId: string): Promise<TrackVersionRow | undefined> {
    return this.db
      .selectFrom('track_versions')
      .selectAll()
      .where('track_id', '=', trackId)
      .where('id', '=', versionId)
      .executeTakeFirst();
  }

  async currentVersion(trackId: string): Promise<TrackVersionRow | undefined> {
    return this.db
      .selectFrom('track_versions')
      .selectAll()
      .where('track_id', '=', trackId)
      .where('is_current', '=', true)
      .executeTakeFirst();
  }

  /** Adds an audio as the track's newest version, current; the one it replaces stays as a version. */
  async addCurrentVersion(version: Omit<NewTrackVersion, 'version_number' | 'is_current'>): Promise<TrackVersionRow> {
    const last = await this.db
      .selectFrom('track_versions')
      .select((eb) => eb.fn.max('version_number').as('last'))
      .where('track_id', '=', version.track_id)
      .executeTakeFirst();
    await this.db
      .updateTable('track_versions')
      .set({ is_current: false })
      .where('track_id', '=', version.track_id)
      .where('is_current', '=', true)
      .execute();
    return this.db
      .insertInto('track_versions')
      .values({ ...version, version_number: Number(last?.last ?? 0) + 1, is_current: true })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async makeCurrent(trackId: string, versionId: string): Promise<void> {
    await this.db
      .updateTable('track_versions')
      .set({ is_current: false })
      .where('track_id', '=', trackId)
      .where('is_current', '=', true)
      .execute();
    await this.db
      .updateTable('track_versions')
      .set({ is_current: true })
      .where('track_id', '=', trackId)
      .where('id', '=', versionId)
      .execute();
  }

  /** Removes the oldest versions beyond `keep` (never the current one) and returns them, for their files. */
  async pruneVersions(trackId: string, keep: number): Promise<TrackVersionRow[]> {
    const all = await this.versions(trackId);
    const doomed = all.filter((version) => !version.is_current).slice(Math.max(0, keep - 1));
    if (doomed.length === 0) return [];
    await this.db
      .deleteFrom('track_versions')
      .where(
        'id',
        'in',
        doomed.map((version) => version.id),
      )
      .execute();
    return doomed;
  }

  /** Removes every version but the current one (a deleted track), returning them for their files. */
  async forgetOldVersions(trackId: string): Promise<TrackVersionRow[]> {
    return this.db
      .deleteFrom('track_versions')
      .where('track_id', '=', trackId)
      .where('is_current', '=', false)
      .returningAll()
      .execute();
  }

  // ---- avatars

  async avatar(userId: string): Promise<UserAvatarRow | undefined> {
    return this.db.selectFrom('user_avatars').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /** Sets the avatar, returning the one it replaces (its files to remove). */
  async setAvatar(avatar: Omit<UserAvatarRow, 'updated_at'>): Promise<UserAvatarRow | undefined> {
    const before = await this.db
      .selectFrom('user_avatars')
      .selectAll()
      .where('user_id', '=', avatar.user_id)
      .forUpdate()
      .executeTakeFirst();
    await this.db
      .insertInto('user_avatars')
      .values(avatar)
      .onConflict((conflict) =>
        conflict.column('user_id').doUpdateSet({
          large_key: avatar.large_key,
          small_key: avatar.small_key,
          content_type: avatar.content_type,
          updated_at: new Date(),
        }),
      )
      .execute();
    return before;
  }

  async removeAvatar(userId: string): Promise<UserAvatarRow | undefined> {
    return this.db.deleteFrom('user_avatars').where('user_id', '=', userId).returningAll().executeTakeFirst();
  }
}
