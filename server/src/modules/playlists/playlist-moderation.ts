import type { ModeratedContent } from '../../platform/access/moderation.js';
import { moderatedTable } from '../../platform/access/moderated-table.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { PlaylistRow } from './playlists.repository.js';

/** The playlists area's side of moderation: a playlist's state, read and set over its own table. */
export function createPlaylistModeration(scope: DbScope, clock: Clock): ModeratedContent {
  return moderatedTable<PlaylistRow>(scope, clock, {
    table: 'playlists',
    ownerColumn: 'user_id',
    snapshot: (row) => ({
      title: row.title,
      description: row.description,
      cover_url: row.cover_url,
      is_public: row.is_public,
    }),
  });
}
