import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { anonymousActor, type Actor, type UserActor } from '../../platform/access/actor.js';
import { moderationAllows, moderationAllowsSql } from '../../platform/access/moderation.js';
import { isOwnerOrAdmin } from '../../platform/access/ownership.js';
import type { TrackRow } from './tracks.tables.js';
import { secretOpens } from './track-secret.js';

type Owned = Pick<TrackRow, 'creator_id'>;

/**
 * Public tracks are everyone's to read; a private one only its owner's (and admins'), or anyone's
 * who presents its secret link (`secret`): others get 404. A hidden or removed track (moderation) is
 * its owner's and staff's alone, secret link or not: for everyone else it does not exist.
 */
export function canReadTrack(
  actor: Actor,
  track: Owned & Pick<TrackRow, 'is_public' | 'moderation_status'> & Partial<Pick<TrackRow, 'share_secret_hash'>>,
  secret?: string,
): boolean {
  if (!moderationAllows(actor, track.moderation_status, track.creator_id)) return false;
  return track.is_public || isOwnerOrAdmin(actor, track.creator_id) || secretOpens(track.share_secret_hash, secret);
}

/**
 * Whether moderation withholds the track from the actor (hidden or removed, and the actor neither its
 * owner nor staff): for them it is as if deleted, gone from every list that held it.
 */
export function moderationWithholdsTrack(actor: Actor, track: Owned & Pick<TrackRow, 'moderation_status'>): boolean {
  return !moderationAllows(actor, track.moderation_status, track.creator_id);
}

/** canReadTrack over the live tracks, without secret links, as SQL on the tracks table under `alias`. */
export function trackVisibleSql(actor: Actor, alias: string): RawBuilder<SqlBool> {
  const live = sql<SqlBool>`${sql.ref(`${alias}.deleted_at`)} is null`;
  if (actor.isAdmin) return live;
  const moderated = moderationAllowsSql(actor, alias, 'creator_id');
  if (actor.kind !== 'user') return sql<SqlBool>`(${live} and ${sql.ref(`${alias}.is_public`)} and ${moderated})`;
  return sql<SqlBool>`(${live} and (${sql.ref(`${alias}.is_public`)} or ${sql.ref(`${alias}.creator_id`)} = ${actor.id}) and ${moderated})`;
}

/**
 * The moderation part of trackVisibleSql for a listing that knows its viewer by id alone (null:
 * nobody signed in): a statement compiled once per kind of viewer takes the id as its parameter.
 */
export function trackModerationSql(
  viewer: { id: string | null; isStaff: boolean },
  alias: string,
): RawBuilder<SqlBool> {
  // the rule reads only who the viewer is and whether they are staff
  const actor: Actor =
    viewer.id === null ? anonymousActor() : ({ kind: 'user', id: viewer.id, isStaff: viewer.isStaff } as UserActor);
  return moderationAllowsSql(actor, alias, 'creator_id');
}

/** Metadata, lyrics and visibility: the owner or an admin. */
export function canEditTrack(actor: Actor, track: Owned): boolean {
  return isOwnerOrAdmin(actor, track.creator_id);
}

export function canDeleteTrack(actor: Actor, track: Owned): boolean {
  return isOwnerOrAdmin(actor, track.creator_id);
}

/** The owner's figures (play and like counts) and processing status: others see neither, even on a public track. */
export function canSeeTrackInsights(actor: Actor, track: Owned): boolean {
  return isOwnerOrAdmin(actor, track.creator_id);
}

/** A user's upload quota: their own, or anyone's for an admin. */
export function canSeeQuota(actor: Actor, userId: string): boolean {
  return isOwnerOrAdmin(actor, userId);
}
