import type { GroupsRepository } from './groups.repository.js';

/**
 * The counters the groups area keeps on a group for changes another area makes: its post_count is
 * the group's top-level posts, which the posts' area adds to and takes from in the unit of work of
 * each post (and of an erased author's posts), so the count never drifts from the rows.
 */
export interface GroupCounters {
  addPosts(groupId: string, delta: number): Promise<void>;
}

export function createGroupCounters(groups: GroupsRepository): GroupCounters {
  return { addPosts: (groupId, delta) => groups.addToPostCount(groupId, delta) };
}
