import { type RawBuilder, sql } from 'kysely';
import type { UserActor } from '../../platform/access/actor.js';
import { visibleTracksSql } from '../tracks/track-sql.js';
import type { TrackRow } from '../tracks/tracks.tables.js';
import { activeUserSql, notBlockedSql } from '../users/people-sql.js';

/**
 * The tracks of a player's library as a derived table: what the caller may listen to as a listener.
 * Public tracks and their own, ready to play, of creators others may deal with (not banned,
 * deactivated or erased), neither blocking the other; moderation's hidden and removed tracks left out
 * but the caller's own. Staff browse it as anyone: their power to see others' private or hidden tracks
 * is for moderation, not for a music app.
 */
export function libraryTracksSql(actor: UserActor): RawBuilder<TrackRow> {
  const listener: UserActor = { ...actor, isAdmin: false, isStaff: false };
  return sql<TrackRow>`(select lt.* from ${visibleTracksSql(listener)} lt where lt.status = 'completed'
    and ${notBlockedSql(actor.id, 'lt.creator_id')} and ${activeUserSql('lt.creator_id')})`;
}
