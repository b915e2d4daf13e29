import type { Selectable } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import type { SubsonicQueueClientsTable } from './subsonic.tables.js';

export type QueueClientRow = Selectable<SubsonicQueueClientsTable>;

/** All SQL of subsonic_queue_clients: which app saved each user's play queue last. */
export class QueueClientsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  find(userId: string): Promise<QueueClientRow | undefined> {
    return this.db.selectFrom('subsonic_queue_clients').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async save(userId: string, client: string, queueVersion: number, now: Date): Promise<void> {
    await this.db
      .insertInto('subsonic_queue_clients')
      .values({ user_id: userId, client, queue_version: queueVersion, saved_at: now })
      .onConflict((conflict) =>
        conflict.column('user_id').doUpdateSet({ client, queue_version: queueVersion, saved_at: now }),
      )
      .execute();
  }

  async removeOfUser(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('subsonic_queue_clients').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
