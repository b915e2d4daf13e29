import type { GroupRole, GroupVisibility } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';

/** A group as another area needs it: who owns it, who may see it, and the caller's place in it. */
export interface GroupAccess {
  id: string;
  name: string;
  slug: string;
  owner_id: string;
  visibility: GroupVisibility;
  /** Its top-level posts (kept by the posts' area through GroupCounters). */
  post_count: number;
  /** The caller's role; null when they are not a member (an invite or a request is not membership). */
  role: GroupRole | null;
}

/**
 * The groups area's read port: the one rule of who reaches a group, asked by every other area (the
 * posts of a group, notifications, webhooks, moderation's snapshots) instead of its tables.
 * A group is unreachable when it is deleted, when moderation hid or removed it (but for its owner and
 * staff), and when it is private to anyone but its members, a user holding an invite, and admins.
 */
export interface GroupReader {
  /** The group as the caller may reach it; undefined where it is 404 to them. */
  readable(actor: Actor, groupId: string): Promise<GroupAccess | undefined>;
  /** The groups of `ids` the caller may reach, by id (one query for a list). */
  readableMany(actor: Actor, ids: readonly string[]): Promise<Map<string, GroupAccess>>;
}
