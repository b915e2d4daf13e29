import type { DbScope } from '../../platform/db/transactions.js';
import type { StreamColumns, TrackStreamRow } from './track-stream-state.js';

/** The SQL of TrackStreamState: the track columns the media pipeline reads and keeps. */
export class StreamStateRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The track, deleted or not. */
  find(trackId: string): Promise<TrackStreamRow | undefined> {
    return this.db
      .selectFrom('tracks')
      .select([
        'id',
        'creator_id',
        'is_public',
        'file_key',
        'duration',
        'status',
        'stream_status',
        'status_message',
        'deleted_at',
        'share_secret_hash',
        'moderation_status',
      ])
      .where('id', '=', trackId)
      .executeTakeFirst();
  }

  async set(trackId: string, columns: StreamColumns): Promise<void> {
    await this.db
      .updateTable('tracks')
      .set({ ...columns, updated_at: new Date() })
      .where('id', '=', trackId)
      .execute();
  }
}
