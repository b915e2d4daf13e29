import type { StaffLogQuery } from '@riff/contract';
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import { pageWithTotal, totalCount } from '../../platform/db/page-total.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { StaffLogRow } from './admin.tables.js';

type StaffLogFilter = Omit<StaffLogQuery, 'page' | 'limit'>;

/** Reads of the staff log (its writer is staff-log.ts). */
export class StaffLogQueries {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The staff member of the newest entry of one of `actions` on the target (who took the decision last). */
  async lastActorOf(targetType: string, targetId: string, actions: readonly string[]): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('staff_log')
      .select('actor_id')
      .where('target_type', '=', targetType)
      .where('target_id', '=', targetId)
      .where('action', 'in', actions)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.actor_id ?? undefined;
  }

  async page(
    filter: StaffLogFilter,
    window: { limit: number; offset: number },
  ): Promise<{ rows: StaffLogRow[]; total: number }> {
    const where = (eb: ExpressionBuilder<Database, 'staff_log'>) => {
      const conditions = [];
      if (filter.actor_id) conditions.push(eb('actor_id', '=', filter.actor_id));
      if (filter.action) conditions.push(eb('action', '=', filter.action));
      if (filter.target_type) conditions.push(eb('target_type', '=', filter.target_type));
      if (filter.target_id) conditions.push(eb('target_id', '=', filter.target_id));
      if (filter.from) conditions.push(eb('created_at', '>=', new Date(filter.from)));
      if (filter.to) conditions.push(eb('created_at', '<', new Date(filter.to)));
      return eb.and(conditions);
    };
    const rows = await this.db
      .selectFrom('staff_log')
      .selectAll()
      .select(totalCount())
      .where(where)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(window.limit)
      .offset(window.offset)
      .execute();
    return pageWithTotal(rows, async () => {
      const counted = await this.db
        .selectFrom('staff_log')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where(where)
        .executeTakeFirstOrThrow();
      return Number(counted.n);
    });
  }
}
