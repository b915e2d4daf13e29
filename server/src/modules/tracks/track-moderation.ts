import { sql } from 'kysely';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import { moderatedTable } from '../../platform/access/moderated-table.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { TrackRow } from './tracks.tables.js';

/** The tracks area's side of moderation: a live track's state, read and set over its own table. */
export function createTrackModeration(scope: DbScope, clock: Clock): ModeratedContent {
  return moderatedTable<TrackRow>(scope, clock, {
    table: 'tracks',
    ownerColumn: 'creator_id',
    live: sql`deleted_at is null`,
    snapshot: (row) => ({
      title: row.title,
      artist: row.artist,
      album: row.album,
      tags: row.tags ?? [],
      is_public: row.is_public,
      duration: row.duration,
      stream_path: row.file_key ? `/api/v1/tracks/${row.id}/stream` : null,
      cover_art_path: row.cover_art_path,
    }),
  });
}
