import type { DbScope } from '../../platform/db/transactions.js';

export interface StoredPreferences {
  settings: Record<string, unknown>;
  do_not_sell_at: Date | null;
}

export class PreferencesRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  async find(userId: string): Promise<StoredPreferences | undefined> {
    return this.db
      .selectFrom('user_preferences')
      .select(['settings', 'do_not_sell_at'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async findMany(userIds: readonly string[]): Promise<Map<string, StoredPreferences>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('user_preferences')
      .select(['user_id', 'settings', 'do_not_sell_at'])
      .where('user_id', 'in', [...userIds])
      .execute();
    return new Map(rows.map(({ user_id, ...stored }) => [user_id, stored]));
  }

  async save(userId: string, settings: Record<string, unknown>): Promise<void> {
    await this.db
      .insertInto('user_preferences')
      .values({ user_id: userId, settings: JSON.stringify(settings) })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ settings: JSON.stringify(settings), updated_at: new Date() }),
      )
      .execute();
  }

  /** The first opt-out time is kept: answers it. */
  async optOutOfSale(userId: string, at: Date): Promise<Date> {
    const row = await this.db
      .insertInto('user_preferences')
      .values({ user_id: userId, settings: '{}', do_not_sell_at: at })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet((eb) => ({
          do_not_sell_at: eb.fn.coalesce('user_preferences.do_not_sell_at', eb.val(at)),
          updated_at: at,
        })),
      )
      .returning('do_not_sell_at')
      .executeTakeFirstOrThrow();
    return row.do_not_sell_at ?? at;
  }

  async remove(userId: string): Promise<void> {
    await this.db.deleteFrom('user_preferences').where('user_id', '=', userId).execute();
  }
}
