import { sql, type Kysely } from 'kysely';

/**
 * Groups at scale (issue 33's bench, bench/groups.ts: a group of 100k members and 1M posts within 2× of
 * one of 1k).
 *
 * - group_posts_moderated_replies: a post's replies moderation withholds, counted for each reader
 *   who is not staff (replyCount filters on parent_id only); without it the count walked
 *   group_posts_moderated, every withheld post of every group, and read each row to test its parent.
 *
 * Not here: an index of a group's members in the list's order. While the member list selects
 * count(*) over () beside its page, every member is read anyway, and with such an index PostgreSQL
 * walks it probing users once per member, slower than the hash join it makes without (the bench:
 * 135 ms against 90 ms at 10k members). It belongs with the change of the query that drops the count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index group_posts_moderated_replies on group_posts (parent_id, author_id)
    where moderation_status <> 'visible' and parent_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists group_posts_moderated_replies`.execute(db);
}
