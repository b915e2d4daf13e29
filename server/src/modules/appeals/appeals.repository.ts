import type { AppealStatus, AppealSubjectType } from '@riff/contract';
import { sql } from 'kysely';
import { countOf, pageWithTotal, totalCount } from '../../platform/db/page-total.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { AppealRow, NewAppeal } from './appeals.tables.js';

interface Subject {
  type: AppealSubjectType;
  id: string;
}

/** All SQL of the appeals area, on its own table. */
export class AppealsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** Serialises appeals of one subject until the transaction ends (one open appeal per subject). */
  async lockSubject(subject: Subject): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`appeal|${subject.type}|${subject.id}`}, 0))`.execute(
      this.db,
    );
  }

  openOf(subject: Subject): Promise<AppealRow | undefined> {
    return this.db
      .selectFrom('appeals')
      .selectAll()
      .where('subject_type', '=', subject.type)
      .where('subject_id', '=', subject.id)
      .where('status', '=', 'open')
      .executeTakeFirst();
  }

  /** Of these subjects, those with an open appeal. */
  async openSubjects(type: AppealSubjectType, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('appeals')
      .select('subject_id')
      .where('subject_type', '=', type)
      .where('subject_id', 'in', ids)
      .where('status', '=', 'open')
      .execute();
    return new Set(rows.map((row) => row.subject_id));
  }

  insert(row: NewAppeal): Promise<AppealRow> {
    return this.db.insertInto('appeals').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** The appeal, locked for its decision. */
  lock(id: string): Promise<AppealRow | undefined> {
    return this.db.selectFrom('appeals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }

  decide(id: string, decision: { status: AppealStatus; note: string; by: string; at: Date }): Promise<AppealRow> {
    return this.db
      .updateTable('appeals')
      .set({ status: decision.status, note: decision.note, decided_by: decision.by, decided_at: decision.at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** One appeal of this user (undefined for another's or an unknown one). */
  ofUserById(userId: string, id: string): Promise<AppealRow | undefined> {
    return this.db
      .selectFrom('appeals')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The user's appeals, newest first. */
  async ofUser(userId: string, limit: number, offset: number) {
    const query = this.db.selectFrom('appeals').where('user_id', '=', userId);
    const rows = await query
      .selectAll()
      .select(totalCount())
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return pageWithTotal(rows, () => countOf(query));
  }

  /** Appeals of one status, oldest first (the longest waiting are decided first). */
  async withStatus(status: AppealStatus, limit: number, offset: number) {
    const query = this.db.selectFrom('appeals').where('status', '=', status);
    const rows = await query
      .selectAll()
      .select(totalCount())
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(limit)
      .offset(offset)
      .execute();
    return pageWithTotal(rows, () => countOf(query));
  }

  async openCount(): Promise<number> {
    const { count } = await this.db
      .selectFrom('appeals')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', '=', 'open')
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  async deleteOf(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('appeals').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
