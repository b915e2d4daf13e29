import { randomUUID } from 'node:crypto';
import { sql, type Selectable, type Updateable } from 'kysely';
import type { QueueItemsTable, QueuesTable } from './queue.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';

export type QueueRow = Selectable<QueuesTable>;
export type QueueItemRow = Selectable<QueueItemsTable>;

/** All SQL of a user's play queue. Writes run after `lock`, in the writer's unit of work. */
export class QueueRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  find(userId: string): Promise<QueueRow | undefined> {
    return this.db.selectFrom('queues').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /**
   * The user's queue row, created if missing, locked until the unit of work ends: writes of one
   * queue (two devices at once) run one after the other, each on the positions the last one left.
   */
  async lock(userId: string): Promise<QueueRow> {
    await this.db
      .insertInto('queues')
      .values({ user_id: userId })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return this.db.selectFrom('queues').selectAll().where('user_id', '=', userId).forUpdate().executeTakeFirstOrThrow();
  }

  items(userId: string): Promise<QueueItemRow[]> {
    return this.db.selectFrom('queue_items').selectAll().where('user_id', '=', userId).orderBy('position').execute();
  }

  count(userId: string): Promise<number> {
    return this.db
      .selectFrom('queue_items')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }

  /** Inserts at `position`, moving the items from there on one place down. */
  async insertAt(userId: string, trackId: string, position: number, now: Date): Promise<QueueItemRow> {
    await this.db
      .updateTable('queue_items')
      .set({ position: sql`position + 1` })
      .where('user_id', '=', userId)
      .where('position', '>=', position)
      .execute();
    return this.db
      .insertInto('queue_items')
      .values({ id: randomUUID(), user_id: userId, track_id: trackId, position, added_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Removes one item and closes the gap; the removed row, if it was there. */
  async remove(userId: string, itemId: string): Promise<QueueItemRow | undefined> {
    const removed = await this.db
      .deleteFrom('queue_items')
      .where('user_id', '=', userId)
      .where('id', '=', itemId)
      .returningAll()
      .executeTakeFirst();
    if (removed) {
      await this.db
        .updateTable('queue_items')
        .set({ position: sql`position - 1` })
        .where('user_id', '=', userId)
        .where('position', '>', removed.position)
        .execute();
    }
    return removed;
  }

  /** Replaces every item with these tracks, in order. */
  async replace(userId: string, trackIds: readonly string[], now: Date): Promise<void> {
    await this.clear(userId);
    if (trackIds.length === 0) return;
    await this.db
      .insertInto('queue_items')
      .values(
        trackIds.map((trackId, position) => ({
          id: randomUUID(),
          user_id: userId,
          track_id: trackId,
          position,
          added_at: now,
        })),
      )
      .execute();
  }

  async clear(userId: string): Promise<void> {
    await this.db.deleteFrom('queue_items').where('user_id', '=', userId).execute();
  }

  /** Saves the playback state and bumps the version. */
  update(userId: string, changes: Omit<Updateable<QueuesTable>, 'user_id' | 'version'>, now: Date): Promise<QueueRow> {
    return this.db
      .updateTable('queues')
      .set({ ...changes, version: sql`version + 1`, updated_at: now })
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Account erasure: the queue and its items. */
  async erase(userId: string): Promise<number> {
    const items = await this.db.deleteFrom('queue_items').where('user_id', '=', userId).executeTakeFirst();
    await this.db.deleteFrom('queues').where('user_id', '=', userId).execute();
    return Number(items.numDeletedRows);
  }
}
