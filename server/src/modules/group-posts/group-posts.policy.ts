import { groupRoleAtLeast } from '@riff/contract';
import { sql, type SqlBool } from 'kysely';
import type { Actor } from '../../platform/access/actor.js';
import { moderationAllows, moderationAllowsSql } from '../../platform/access/moderation.js';
import { isOwner } from '../../platform/access/ownership.js';
import type { GroupAccess } from '../groups/group-reader.js';
import type { GroupPostRow, UnseenPosts } from './group-posts.repository.js';

/**
 * Who reads a group's posts: anyone who reaches a public group; of a private one its members and
 * admins (a user holding an invite reaches the group, not its posts, until they join).
 */
export function canReadPosts(actor: Actor, group: GroupAccess): boolean {
  return group.visibility === 'public' || group.role !== null || actor.isAdmin;
}

/** Members post; an invite, a request or staff rights are not membership. */
export const canPost = (group: GroupAccess): boolean => group.role !== null;

/** A post hidden or removed by moderation is seen by its author and staff only. */
export function canSeePost(actor: Actor, post: Pick<GroupPostRow, 'author_id' | 'moderation_status'>): boolean {
  return moderationAllows(actor, post.moderation_status, post.author_id);
}

/** Edit: the author only (not even the group's owner rewrites someone's words). */
export const canEditPost = (actor: Actor, post: Pick<GroupPostRow, 'author_id'>): boolean =>
  isOwner(actor, post.author_id);

/** In whose name a deletion may be done: the author, a group moderator (or above), staff; else null. */
export function deletionRole(actor: Actor, post: Pick<GroupPostRow, 'author_id'>, group: GroupAccess) {
  if (isOwner(actor, post.author_id)) return 'author' as const;
  if (groupRoleAtLeast(group.role, 'moderator')) return 'group_moderator' as const;
  if (actor.isStaff) return 'staff' as const;
  return null;
}

/** Pins: the group's moderators, admins and owner. */
export const canPin = (group: GroupAccess): boolean => groupRoleAtLeast(group.role, 'moderator');

/**
 * canSeePost and the reader's blocks (`hiddenAuthors`: whom they blocked and who blocked them) as
 * the posts a reader does not see, over the group_posts table; null when they see them all.
 */
export function postsUnseenSql(actor: Actor, hiddenAuthors: readonly string[]): UnseenPosts {
  const parts = [];
  if (hiddenAuthors.length > 0) parts.push(sql<SqlBool>`group_posts.author_id in (${sql.join(hiddenAuthors)})`);
  if (!actor.isStaff) parts.push(sql<SqlBool>`not ${moderationAllowsSql(actor, 'group_posts', 'author_id')}`);
  return parts.length === 0 ? null : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}
