import type { SanctionKind } from '@riff/contract';
import type { DbScope } from '../../platform/db/transactions.js';
import type { NewSanction, SanctionRow } from './sanctions.tables.js';

export class SanctionsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  insert(row: NewSanction): Promise<SanctionRow> {
    return this.db.insertInto('sanctions').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** The account's sanctions of this kind still in force (not lifted), newest first. */
  inForce(userId: string, kind: SanctionKind): Promise<SanctionRow[]> {
    return this.db
      .selectFrom('sanctions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('lifted_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Lifts the sanctions of this kind still in force on the account: the rows as lifted. */
  liftAll(userId: string, kind: SanctionKind, at: Date, by: string | null): Promise<SanctionRow[]> {
    return this.db
      .updateTable('sanctions')
      .set({ lifted_at: at, lifted_by: by })
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('lifted_at', 'is', null)
      .returningAll()
      .execute();
  }

  /** Suspensions still in force whose end has passed: whose accounts the job frees. */
  async endedSuspensionUsers(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sanctions')
      .select('user_id')
      .distinct()
      .where('kind', '=', 'suspend')
      .where('lifted_at', 'is', null)
      .where('ends_at', '<=', now)
      .limit(limit)
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** Lifts the account's suspensions whose end has passed (nobody lifted them: they ran out). */
  endSuspensions(userId: string, now: Date): Promise<SanctionRow[]> {
    return this.db
      .updateTable('sanctions')
      .set({ lifted_at: now, lifted_by: null })
      .where('user_id', '=', userId)
      .where('kind', '=', 'suspend')
      .where('lifted_at', 'is', null)
      .where('ends_at', '<=', now)
      .returningAll()
      .execute();
  }

  /** Every sanction of the account, newest first. */
  listOf(userId: string): Promise<SanctionRow[]> {
    return this.db
      .selectFrom('sanctions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** The sanction an appeal token names, its token used up (single use); undefined for an unknown or used one. */
  consumeAppealToken(hash: string): Promise<SanctionRow | undefined> {
    return this.db
      .updateTable('sanctions')
      .set({ appeal_token_hash: null })
      .where('appeal_token_hash', '=', hash)
      .returningAll()
      .executeTakeFirst();
  }

  async deleteOf(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('sanctions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
