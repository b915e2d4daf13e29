import { sql, type Insertable } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import { countOf } from '../../platform/db/page-total.js';
import type { NotificationRow, NotificationsTable } from './notifications.tables.js';

export type NewNotification = Insertable<NotificationsTable>;

/** All SQL of the notifications area, on its one table. */
export class NotificationsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  async insertMany(rows: readonly NewNotification[]): Promise<NotificationRow[]> {
    if (rows.length === 0) return [];
    return this.db
      .insertInto('notifications')
      .values([...rows])
      .returningAll()
      .execute();
  }

  async insert(row: NewNotification): Promise<NotificationRow> {
    return this.db.insertInto('notifications').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /**
   * Holds the fold of `key` for this user until the transaction ends, so that two likes handled at
   * once by two workers fold into one notification instead of making two.
   */
  async lockFold(userId: string, key: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`${userId}|${key}`}, 0))`.execute(this.db);
  }

  /** The unread notification of this fold that began after `since`, if any. */
  async openFold(userId: string, key: string, since: Date): Promise<NotificationRow | undefined> {
    return this.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .where('fold_key', '=', key)
      .where('read_at', 'is', null)
      .where('first_at', '>', since)
      .orderBy('first_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async fold(
    id: string,
    changes: { actor_ids: string[]; count: number; message: string; created_at: Date; email_due: boolean },
  ): Promise<NotificationRow> {
    return this.db
      .updateTable('notifications')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The inbox shown: what the user keeps in the app, nothing naming a user in `hiddenActors` (blocks). */
  private inbox(userId: string, hiddenActors: readonly string[]) {
    let query = this.db.selectFrom('notifications').where('user_id', '=', userId).where('in_app', '=', true);
    if (hiddenActors.length > 0)
      query = query.where(sql<boolean>`not (actor_ids && ${sql.val([...hiddenActors])}::uuid[])`);
    return query;
  }

  /** A page of the inbox, newest first, and how many the inbox (or its unread part) holds. */
  async page(
    userId: string,
    filter: { unreadOnly: boolean; hiddenActors: readonly string[] },
    limit: number,
    offset: number,
  ) {
    let query = this.inbox(userId, filter.hiddenActors);
    if (filter.unreadOnly) query = query.where('read_at', 'is', null);
    const rows = await query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    // a page that is not full and not past the end is the last: its rows tell the total
    if (rows.length > 0 && rows.length < limit) return { rows, total: offset + rows.length };
    // counted apart from the index (notifications_inbox, or notifications_unread), not from the rows:
    // `count(*) over ()` read every row of the inbox, scattered through the table, for every page
    return { rows, total: await countOf(query) };
  }

  async unreadCount(userId: string, hiddenActors: readonly string[]): Promise<number> {
    const { count } = await this.inbox(userId, hiddenActors)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** Marks the user's unread notifications read (these ids, or all); returns how many changed. */
  async markRead(userId: string, ids: readonly string[] | 'all', at: Date): Promise<number> {
    let query = this.db
      .updateTable('notifications')
      .set({ read_at: at })
      .where('user_id', '=', userId)
      .where('in_app', '=', true)
      .where('read_at', 'is', null);
    if (ids !== 'all') query = query.where('id', 'in', ids);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('notifications')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('in_app', '=', true)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteBefore(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('notifications').where('created_at', '<', before).executeTakeFirst();
    await this.db.deleteFrom('announcement_batches').where('delivered_at', '<', before).execute();
    return Number(result.numDeletedRows);
  }

  /**
   * Marks an announcement's batch delivered, in the caller's transaction: false when it was already
   * (a retried job), and then the caller files nothing. A concurrent duplicate waits on the key.
   */
  async claimAnnouncementBatch(announcementId: string, after: string | null): Promise<boolean> {
    const claimed = await this.db
      .insertInto('announcement_batches')
      .values({ announcement_id: announcementId, after_key: after ?? '' })
      .onConflict((conflict) => conflict.doNothing())
      .returning('announcement_id')
      .executeTakeFirst();
    return claimed !== undefined;
  }

  /** Users with notifications still to be mailed, at most `limit` of them. */
  async usersWithEmailDue(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('notifications')
      .select('user_id')
      .distinct()
      .where('email_due', '=', true)
      .limit(limit)
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** The user's notifications still to be mailed, oldest first, marked as mailed in the same statement. */
  async takeEmailDue(userId: string): Promise<NotificationRow[]> {
    const rows = await this.db
      .updateTable('notifications')
      .set({ email_due: false })
      .where('user_id', '=', userId)
      .where('email_due', '=', true)
      .returningAll()
      .execute();
    return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
  }

  /** Every notification the user has (the inbox, the ones kept for the digest only, blocked actors' too), newest first. */
  allOf(userId: string): Promise<NotificationRow[]> {
    return this.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async removeAllOf(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('notifications').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** An erased account leaves the actors of others' notifications: it is no longer named there. */
  async forgetActor(userId: string): Promise<void> {
    await sql`update notifications set actor_ids = array_remove(actor_ids, ${userId}::uuid) where ${userId}::uuid = any(actor_ids)`.execute(
      this.db,
    );
  }
}
