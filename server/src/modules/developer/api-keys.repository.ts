import type { Insertable, Selectable } from 'kysely';
import type { ApiKeysTable } from './developer.tables.js';
import type { Database } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';

export type ApiKeyRow = Selectable<Database['api_keys']>;

/** All SQL of developer API keys. */
export class ApiKeysRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  async countOfUser(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  insert(row: Insertable<ApiKeysTable>): Promise<ApiKeyRow> {
    return this.db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
  }

  listOfUser(userId: string): Promise<ApiKeyRow[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  find(id: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('api_keys').where('id', '=', id).execute();
  }

  /** Records a use; a no-op when one was recorded after `since` (so at most one write a minute per key). */
  async touch(id: string, now: Date, since: Date): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
      .execute();
  }
}
