import type { ModeratedContent } from '../../platform/access/moderation.js';
import { moderatedTable } from '../../platform/access/moderated-table.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { sql } from 'kysely';
import type { GroupAccountData } from './group-account-data.js';
import type { GroupRow } from './groups.tables.js';

/**
 * The groups area's side of moderation: a group's state, read and set over its own table. A ban of
 * the owner (hideAllOf) first takes the account out of the groups it does not own and passes the
 * groups it owns to their oldest admin; only those left without one are hidden (and restored on unban).
 */
export function createGroupModeration(scope: DbScope, clock: Clock, accounts: GroupAccountData): ModeratedContent {
  const table = moderatedTable<GroupRow>(scope, clock, {
    table: 'groups',
    ownerColumn: 'owner_id',
    live: sql`deleted_at is null`,
    snapshot: (row) => ({
      name: row.name,
      description: row.description,
      visibility: row.visibility,
      join_policy: row.join_policy,
    }),
  });
  return {
    ...table,
    async hideAllOf(ownerId, reason) {
      await accounts.releaseGroupsOf(ownerId);
      return table.hideAllOf(ownerId, reason);
    },
  };
}
