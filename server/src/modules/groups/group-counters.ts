import { sql } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';

/**
 * The counters the groups area keeps on a group for changes another area makes: its post_count is
 * the group's top-level posts, which the posts' area adds to and takes from in the unit of work of
 * each post (and of an erased author's posts), so the count never drifts from the rows.
 */
export interface GroupCounters {
  addPosts(groupId: string, delta: number): Promise<void>;
}

export function createGroupCounters(scope: DbScope): GroupCounters {
  return {
    async addPosts(groupId, delta) {
      await scope.db
        .updateTable('groups')
        .set({ post_count: sql`greatest(post_count + ${delta}, 0)` })
        .where('id', '=', groupId)
        .execute();
    },
  };
}
