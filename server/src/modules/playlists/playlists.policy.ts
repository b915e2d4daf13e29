import type { PlaylistPermission } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import type { PlaylistRow } from './playlists.repository.js';
import type { RawBuilder, SqlBool } from 'kysely';
import { moderationAllows, moderationAllowsSql } from '../../platform/access/moderation.js';
import { isOwner } from '../../platform/access/ownership.js';

/**
 * What a caller is to a playlist, from most to least: its owner, a collaborator (admin, write,
 * read), a signed-in reader of a public one, or nobody (404: the playlist does not exist for them).
 * Admins of the service get no more than anyone: private playlists are their owners' business.
 * A playlist hidden or removed by moderation is nobody's but its owner's (and staff's, who read
 * a public one): its collaborators and followers lose it as if it were deleted.
 */
export type PlaylistRole = 'owner' | PlaylistPermission | 'public' | 'none';

type Seen = Pick<PlaylistRow, 'user_id' | 'is_public' | 'moderation_status'> & {
  permission: PlaylistPermission | null;
};

const RANK: Record<PlaylistRole, number> = { none: 0, public: 1, read: 2, write: 3, admin: 4, owner: 5 };

export function roleOf(actor: Actor, playlist: Seen): PlaylistRole {
  if (isOwner(actor, playlist.user_id)) return 'owner';
  if (!moderationAllows(actor, playlist.moderation_status, playlist.user_id)) return 'none';
  if (playlist.moderation_status !== 'visible') return actor.kind === 'user' && playlist.is_public ? 'public' : 'none';
  if (actor.kind === 'user' && playlist.permission) return playlist.permission;
  if (actor.kind === 'user' && playlist.is_public) return 'public';
  return 'none';
}

/**
 * roleOf's moderation part as SQL over the playlists table under `alias`: a playlist hidden or
 * removed by moderation is left out of every list, search and suggestion but its owner's and staff's.
 */
export function playlistModerationSql(actor: Actor, alias: string): RawBuilder<SqlBool> {
  return moderationAllowsSql(actor, alias, 'user_id');
}

const atLeast = (role: PlaylistRole, needed: PlaylistRole) => RANK[role] >= RANK[needed];

/** Sees the playlist (its details, the tracks they may see, its collaborators). */
export const canReadPlaylist = (role: PlaylistRole): boolean => atLeast(role, 'public');
/** Adds, removes and reorders tracks. */
export const canEditTracks = (role: PlaylistRole): boolean => atLeast(role, 'write');
/** Edits details, manages collaborators, shares; sees analytics. */
export const canAdministerPlaylist = (role: PlaylistRole): boolean => atLeast(role, 'admin');
/** Deletes the playlist or gives it away. */
export const isPlaylistOwner = (role: PlaylistRole): boolean => role === 'owner';
/** is_editorial: the service's admins only. */
export const canSetEditorial = (actor: Actor): boolean => actor.kind === 'user' && actor.isAdmin;
/** Follows: others' public playlists. */
export const canFollow = (role: PlaylistRole, playlist: { is_public: boolean }): boolean =>
  role !== 'owner' && playlist.is_public;
/** Removing a collaborator: an administrator removes anyone, a collaborator themselves. */
export const canRemoveCollaborator = (actor: Actor, role: PlaylistRole, userId: string): boolean =>
  canAdministerPlaylist(role) || (role !== 'none' && role !== 'public' && isOwner(actor, userId));
