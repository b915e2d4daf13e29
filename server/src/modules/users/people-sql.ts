import { type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * SQL fragments over the users area's tables for reads of other areas that filter or page in one
 * query (a feed, a comment thread, a list of playlists). The rules stay here, beside the tables they
 * read; the caller names only its own column holding a user id.
 */

/** An account others may deal with: live, active, not banned, email verified (as PeopleReader.findActive). */
export function activeUserSql(userIdColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from users active_user where active_user.id = ${sql.ref(userIdColumn)}
    and active_user.deleted_at is null and active_user.is_active and not active_user.is_banned and active_user.is_verified)`;
}

/**
 * An account activeUserSql leaves out. Such accounts are few beside the active ones and read from
 * their own partial index (migration 0041), so counting the inactive among a large set of users costs
 * what the few cost, not what the set does.
 */
export function inactiveUserSql(userIdColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(userIdColumn)} in (select inactive_user.id from users inactive_user
    where not (inactive_user.deleted_at is null and inactive_user.is_active and not inactive_user.is_banned and inactive_user.is_verified))`;
}

/**
 * An account that may act now: active as activeUserSql says and not suspended (a suspension whose
 * end has passed no longer counts), as every credential is checked. Discovery lists (gear) show
 * only these accounts' items.
 */
export function actingUserSql(userIdColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from users acting_user where acting_user.id = ${sql.ref(userIdColumn)}
    and acting_user.deleted_at is null and acting_user.is_active and not acting_user.is_banned and acting_user.is_verified
    and (acting_user.suspended_at is null or (acting_user.suspended_until is not null and acting_user.suspended_until <= now())))`;
}

/**
 * The accounts others may deal with (as activeUserSql), with their usernames, as a derived table to
 * join or page by name: `from ${activeUsersSql()} u where riff_norm(u.username::text) like …` reads
 * the username's trigram and order indexes.
 */
export function activeUsersSql(): RawBuilder<{ id: string; username: string }> {
  return sql<{ id: string; username: string }>`(select named_user.id, named_user.username from users named_user
    where named_user.deleted_at is null and named_user.is_active and not named_user.is_banned and named_user.is_verified)`;
}

/** True when the viewer blocked the user in `userIdColumn` or was blocked by them. */
export function blockedEitherWaySql(viewerId: string, userIdColumn: string): RawBuilder<SqlBool> {
  const other = sql.ref(userIdColumn);
  return sql<SqlBool>`exists (select 1 from blocks blk where (blk.blocker_id = ${viewerId} and blk.blocked_id = ${other})
    or (blk.blocker_id = ${other} and blk.blocked_id = ${viewerId}))`;
}

/** Neither the viewer nor the user in `userIdColumn` blocks the other. */
export function notBlockedSql(viewerId: string, userIdColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`not ${blockedEitherWaySql(viewerId, userIdColumn)}`;
}

/** The ids of the users `userId` follows, as a subquery: `author_id in ${followeesSql(me)}`. */
export function followeesSql(userId: string): RawBuilder<unknown> {
  return sql`(select followed.followee_id from follows followed where followed.follower_id = ${userId})`;
}

/**
 * True unless the user turned their listening history off (privacy.show_listening_history false);
 * true for no user (null). The default is on, so a user without preferences keeps it.
 */
export function keepsListeningHistorySql(userId: string | null): RawBuilder<SqlBool> {
  return keepsHistory(sql`${userId}::uuid`);
}

/** As keepsListeningHistorySql, for the user in `userIdColumn` (what they play is shown to others only then). */
export function keepsListeningHistoryOfSql(userIdColumn: string): RawBuilder<SqlBool> {
  return keepsHistory(sql.ref(userIdColumn));
}

function keepsHistory(user: RawBuilder<unknown>): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from user_preferences prefs where prefs.user_id = ${user}
    and prefs.settings -> 'privacy' ->> 'show_listening_history' = 'false')`;
}
