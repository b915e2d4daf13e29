import type { ModerationStatus } from '@riff/contract';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Generated } from 'kysely';
import type { Timestamp } from '../db/column-types.js';
import type { Actor } from './actor.js';

/** The columns every moderated table carries (tracks, comments, playlists, products, …). */
export interface ModerationColumns {
  moderation_status: Generated<ModerationStatus>;
  moderation_reason: string | null;
  /** When the status last changed to hidden or removed (a removal's files are purged 30 days later). */
  moderated_at: Timestamp | null;
}

/**
 * The moderation rule every content area's policy builds on: hidden or removed content is, for
 * everyone but its owner and staff, as if it did not exist. Staff (moderators and admins) see it so
 * that they can judge it; the owner sees it with its status so that they can appeal.
 */
export function moderationAllows(actor: Actor, status: ModerationStatus, ownerId: string | null | undefined): boolean {
  if (status === 'visible' || actor.kind === 'system') return true;
  return actor.kind === 'user' && (actor.isStaff || (ownerId != null && actor.id === ownerId));
}

/** moderationAllows as SQL over a table under `alias` whose owner is `ownerColumn`. */
export function moderationAllowsSql(actor: Actor, alias: string, ownerColumn: string): RawBuilder<SqlBool> {
  if (actor.kind === 'system' || (actor.kind === 'user' && actor.isStaff)) return sql<SqlBool>`true`;
  const status = sql.ref(`${alias}.moderation_status`);
  if (actor.kind !== 'user') return sql<SqlBool>`${status} = 'visible'`;
  return sql<SqlBool>`(${status} = 'visible' or ${sql.ref(`${alias}.${ownerColumn}`)} = ${actor.id})`;
}

/** Whether the caller sees an item's moderation status and reason: its owner and staff. */
export function seesModerationState(actor: Actor, ownerId: string | null | undefined): boolean {
  return actor.kind === 'system' || (actor.kind === 'user' && (actor.isStaff || actor.id === ownerId));
}
