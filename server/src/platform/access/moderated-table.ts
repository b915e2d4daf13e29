import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Clock } from '../clock.js';
import type { DbScope } from '../db/transactions.js';
import type { ModeratedContent, ModeratedItem } from './moderation.js';

/** How a content area's table carries moderation. */
export interface ModeratedTableSpec<Row> {
  /** The area's own table. Always a string literal at the call: the table-ownership test reads it there. */
  table: string;
  /** The column naming the item's owner. */
  ownerColumn: string;
  /** Which rows exist (a soft-deleted one does not), over the table's own columns; all rows without it. */
  live?: RawBuilder<SqlBool>;
  /** What staff judge of an item: its title, text, files. */
  snapshot(row: Row): Record<string, unknown>;
}

/**
 * A content area's side of moderation (ModeratedContent) over its own table, which carries the
 * moderation columns: every area's tables spell them alike, so the statements are written once
 * here and each area names its table, owner column and what a snapshot of an item holds.
 */
export function moderatedTable<Row extends { id: string }>(
  scope: DbScope,
  clock: Clock,
  spec: ModeratedTableSpec<Row>,
): ModeratedContent {
  const table = sql.table(spec.table);
  const owner = sql.ref(spec.ownerColumn);
  const live = spec.live ?? sql<SqlBool>`true`;
  const item = (row: Row & Record<string, unknown>): ModeratedItem => ({
    id: row.id,
    owner_id: (row[spec.ownerColumn] as string | null) ?? null,
    moderation_status: row['moderation_status'] as ModeratedItem['moderation_status'],
    moderation_reason: (row['moderation_reason'] as string | null) ?? null,
    moderated_at: (row['moderated_at'] as Date | null) ?? null,
    snapshot: spec.snapshot(row),
  });
  const rows = async (query: RawBuilder<Row & Record<string, unknown>>) =>
    (await query.execute(scope.db)).rows.map(item);
  const ids = async (query: RawBuilder<{ id: string }>) => (await query.execute(scope.db)).rows.map((row) => row.id);
  return {
    async find(id) {
      return (await rows(sql`select * from ${table} where id = ${id} and ${live}`))[0];
    },
    async setStatus(id, status, reason) {
      const [before] = await rows(sql`select * from ${table} where id = ${id} and ${live} for update`);
      if (!before) return undefined;
      const stated = status === 'visible' ? null : reason;
      await sql`update ${table} set moderation_status = ${status}, moderation_reason = ${stated},
        moderated_at = ${clock.now()} where id = ${id}`.execute(scope.db);
      return before;
    },
    hideAllOf(ownerId, reason) {
      return ids(sql`update ${table} set moderation_status = 'hidden', moderation_reason = ${reason},
        moderated_at = ${clock.now()} where ${owner} = ${ownerId} and moderation_status = 'visible' and ${live}
        returning id`);
    },
    restoreAllOf(ownerId, reason) {
      return ids(sql`update ${table} set moderation_status = 'visible', moderation_reason = null,
        moderated_at = ${clock.now()} where ${owner} = ${ownerId} and moderation_status = 'hidden'
        and moderation_reason = ${reason} returning id`);
    },
    moderatedOf(ownerId) {
      return rows(sql`select * from ${table} where ${owner} = ${ownerId} and moderation_status <> 'visible'
        and ${live} order by moderated_at desc nulls last, id`);
    },
  };
}
