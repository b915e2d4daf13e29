import type { Insertable, Selectable } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { AppPasswordsTable } from './subsonic.tables.js';

export type AppPasswordRow = Selectable<Database['app_passwords']>;

/** All SQL of app passwords. */
export class AppPasswordsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  async countOfUser(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('app_passwords')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  insert(row: Insertable<AppPasswordsTable>): Promise<AppPasswordRow> {
    return this.db.insertInto('app_passwords').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Newest first; the sealed passwords come along (a sign-in tries each). */
  listOfUser(userId: string): Promise<AppPasswordRow[]> {
    return this.db
      .selectFrom('app_passwords')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  find(id: string): Promise<AppPasswordRow | undefined> {
    return this.db.selectFrom('app_passwords').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('app_passwords').where('id', '=', id).execute();
  }

  async removeOfUser(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('app_passwords').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Records a use; a no-op when one was recorded after `since` (so at most one write a minute per password). */
  async touch(id: string, now: Date, since: Date): Promise<void> {
    await this.db
      .updateTable('app_passwords')
      .set({ last_used_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
      .execute();
  }
}
