import type { ModerationStatus } from '@riff/contract';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Generated } from 'kysely';
import type { Timestamp } from '../db/column-types.js';
import type { Actor } from './actor.js';
import { forbidden } from '../errors/app-error.js';

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

/**
 * Whose hidden or removed items an actor sees beside everyone's visible ones: everyone's (staff and
 * the service itself), or one owner's (a signed-in user's own; nobody's when anonymous). A count kept
 * per moderation status (instead of over the rows) answers with it.
 */
export type ModeratedReach = { everyone: true } | { everyone: false; ownerId: string | null };

export function moderatedReachOf(actor: Actor): ModeratedReach {
  if (actor.kind === 'system' || (actor.kind === 'user' && actor.isStaff)) return { everyone: true };
  return { everyone: false, ownerId: actor.kind === 'user' ? actor.id : null };
}

/** moderationAllows as SQL over a table under `alias` whose owner is `ownerColumn`. */
export function moderationAllowsSql(actor: Actor, alias: string, ownerColumn: string): RawBuilder<SqlBool> {
  return moderationReachSql(moderatedReachOf(actor), alias, ownerColumn);
}

export function moderationReachSql(reach: ModeratedReach, alias: string, ownerColumn: string): RawBuilder<SqlBool> {
  if (reach.everyone) return sql<SqlBool>`true`;
  const status = sql.ref(`${alias}.moderation_status`);
  if (reach.ownerId === null) return sql<SqlBool>`${status} = 'visible'`;
  return sql<SqlBool>`(${status} = 'visible' or ${sql.ref(`${alias}.${ownerColumn}`)} = ${reach.ownerId})`;
}

/** Whether the caller sees an item's moderation status and reason: its owner and staff. */
export function seesModerationState(actor: Actor, ownerId: string | null | undefined): boolean {
  return actor.kind === 'system' || (actor.kind === 'user' && (actor.isStaff || actor.id === ownerId));
}

/** A moderated item as the moderation area sees it, whoever owns it and whatever its state. */
export interface ModeratedItem {
  id: string;
  owner_id: string | null;
  moderation_status: ModerationStatus;
  moderation_reason: string | null;
  /** When it was last hidden or removed. */
  moderated_at: Date | null;
  /** What staff judge: the item's title and text and, for staff, its files' URLs, as it is now. */
  snapshot: Record<string, unknown>;
}

/**
 * What a content area lets the moderation area do to its items (tracks, comments, playlists,
 * products, …). Each area implements it over its own table: the moderation area never reads them.
 */
export interface ModeratedContent {
  /** A live (not deleted) item, whatever its state; undefined when it does not exist. */
  find(id: string): Promise<ModeratedItem | undefined>;
  /** Sets an item's state (in the caller's transaction); the item as it was before, or undefined if gone. */
  setStatus(id: string, status: ModerationStatus, reason: string | null): Promise<ModeratedItem | undefined>;
  /** Hides every visible item of an owner with `reason` (a ban): the ids hidden. */
  hideAllOf(ownerId: string, reason: string): Promise<string[]>;
  /** Makes visible again the items of an owner that were hidden with `reason` (an unban): the ids restored. */
  restoreAllOf(ownerId: string, reason: string): Promise<string[]>;
  /** An owner's items that are hidden or removed (what they may appeal). */
  moderatedOf(ownerId: string): Promise<ModeratedItem[]>;
}

/** The refusal of any change to removed content by its owner: it stays as moderation left it. */
export const removedContent = () =>
  forbidden('This was removed by moderation and cannot be changed or published again; you may appeal');

/**
 * The moderation fields of an item's reply: only on hidden or removed items, which reach nobody but
 * their owner and staff. Set after the object is built, as the mappers do for optional fields.
 */
export function withModerationState<T extends object>(
  dto: T,
  row: { moderation_status: ModerationStatus; moderation_reason: string | null },
): T {
  if (row.moderation_status !== 'visible') {
    Object.assign(dto, { moderation_status: row.moderation_status, moderation_reason: row.moderation_reason });
  }
  return dto;
}
