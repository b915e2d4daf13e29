import type { CaseAction, ModerationQueueQuery, ReportOutcome, ReportReason, ReportTargetType } from '@riff/contract';
import { sql } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import { countOf, pageWithTotal, totalCount } from '../../platform/db/page-total.js';
import type { CaseEventRow, CaseRow, ReportRow } from './moderation.tables.js';

export interface Target {
  type: ReportTargetType;
  id: string;
}

/** All SQL of the moderation area's reports and cases. */
export class ModerationRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** Reports the reporter filed since `since`, and when the oldest of them was (the daily limit). */
  async reportsSince(reporterId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const row = await this.db
      .selectFrom('reports')
      .select([(eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.min('created_at').as('oldest')])
      .where('reporter_id', '=', reporterId)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), oldest: row.oldest ? new Date(row.oldest) : null };
  }

  /** Serialises the reports of one reporter (their daily limit) until the transaction ends. */
  async lockReporter(reporterId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`report|${reporterId}`}, 0))`.execute(this.db);
  }

  /** Serialises everything done to one target's case until the transaction ends. */
  async lockTarget(target: Target): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`case|${target.type}|${target.id}`}, 0))`.execute(
      this.db,
    );
  }

  /** One report of this reporter (undefined for another's or an unknown one). */
  reportOf(reporterId: string, id: string): Promise<ReportRow | undefined> {
    return this.db
      .selectFrom('reports')
      .selectAll()
      .where('id', '=', id)
      .where('reporter_id', '=', reporterId)
      .executeTakeFirst();
  }

  async openReportOf(reporterId: string, target: Target): Promise<ReportRow | undefined> {
    return this.db
      .selectFrom('reports')
      .selectAll()
      .where('reporter_id', '=', reporterId)
      .where('target_type', '=', target.type)
      .where('target_id', '=', target.id)
      .where('status', '=', 'open')
      .executeTakeFirst();
  }

  async openCase(target: Target): Promise<CaseRow | undefined> {
    return this.db
      .selectFrom('moderation_cases')
      .selectAll()
      .where('target_type', '=', target.type)
      .where('target_id', '=', target.id)
      .where('status', '=', 'open')
      .executeTakeFirst();
  }

  /** The target's open case, else its last closed one. */
  async latestCase(target: Target): Promise<CaseRow | undefined> {
    return this.db
      .selectFrom('moderation_cases')
      .selectAll()
      .where('target_type', '=', target.type)
      .where('target_id', '=', target.id)
      .orderBy(sql`status = 'open'`, 'desc')
      .orderBy('first_reported_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async openNewCase(target: Target, ownerId: string | null, snapshot: Record<string, unknown>, at: Date) {
    return this.db
      .insertInto('moderation_cases')
      .values({
        target_type: target.type,
        target_id: target.id,
        owner_id: ownerId,
        target_snapshot: JSON.stringify(snapshot),
        first_reported_at: at,
        last_reported_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async addReport(
    caseRow: CaseRow,
    report: { reporterId: string; reason: ReportReason; details: string | null; at: Date },
  ): Promise<ReportRow> {
    await this.db
      .updateTable('moderation_cases')
      .set((eb) => ({ report_count: eb('report_count', '+', 1), last_reported_at: report.at }))
      .where('id', '=', caseRow.id)
      .execute();
    return this.db
      .insertInto('reports')
      .values({
        case_id: caseRow.id,
        reporter_id: report.reporterId,
        target_type: caseRow.target_type,
        target_id: caseRow.target_id,
        reason: report.reason,
        details: report.details,
        created_at: report.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async reportsOf(reporterId: string, limit: number, offset: number) {
    const query = this.db.selectFrom('reports').where('reporter_id', '=', reporterId);
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

  /**
   * The queue: cases most reported first, then oldest, and how many the filter holds. The total is
   * read from the count deltas of (status, target type, assigned) when the filter is made of those
   * (a handful of rows, whatever the queue's size); a moderator's own cases are counted from their
   * index, a reason from the reports for it.
   */
  async queue(filter: ModerationQueueQuery & { staffId: string }, limit: number, offset: number) {
    let query = this.db.selectFrom('moderation_cases as c').where('c.status', '=', filter.status);
    if (filter.target_type) query = query.where('c.target_type', '=', filter.target_type);
    if (filter.assigned === 'me') query = query.where('c.assigned_to', '=', filter.staffId);
    if (filter.assigned === 'none') query = query.where('c.assigned_to', 'is', null);
    if (filter.reason) {
      const reason = filter.reason;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('reports as r')
            .select('r.id')
            .whereRef('r.case_id', '=', 'c.id')
            .where('r.reason', '=', reason),
        ),
      );
    }
    // a case about a staff member's own account or content is not theirs to read (who reported them,
    // and why): left out of their page, and out of its total, which the counts below take whole
    const matching = query;
    const ownCases = () => countOf(matching.where('c.owner_id', '=', filter.staffId));
    query = query.where((eb) => eb.or([eb('c.owner_id', 'is', null), eb('c.owner_id', '<>', filter.staffId)]));
    const rows = await query
      .selectAll('c')
      .orderBy('c.report_count', 'desc')
      .orderBy('c.first_reported_at', 'asc')
      .orderBy('c.id', 'asc')
      .limit(limit)
      .offset(offset)
      .execute();
    // a page that is not full and not past the end is the last: its rows tell the total
    if (rows.length > 0 && rows.length < limit) return { rows, total: offset + rows.length };
    if (filter.assigned === 'me') return { rows, total: await countOf(query) };
    const all = filter.reason ? await this.countWithReason(filter, filter.reason) : await this.countByKey(filter);
    return { rows, total: all - (await ownCases()) };
  }

  /**
   * Cases of the filter with at least one report for `reason`. A report's status is its case's
   * (reports are filed into an open case and closed with it, by close()), so without an assignment
   * filter the count reads the reports' index alone (reports_reason), not every case of the status.
   */
  private async countWithReason(filter: ModerationQueueQuery, reason: ReportReason): Promise<number> {
    if (filter.assigned === 'none') {
      let query = this.db
        .selectFrom('moderation_cases as c')
        .where('c.status', '=', filter.status)
        .where('c.assigned_to', 'is', null)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('reports as r')
              .select('r.id')
              .whereRef('r.case_id', '=', 'c.id')
              .where('r.reason', '=', reason),
          ),
        );
      if (filter.target_type) query = query.where('c.target_type', '=', filter.target_type);
      return countOf(query);
    }
    let cases = this.db
      .selectFrom('reports')
      .select('case_id')
      .where('reason', '=', reason)
      .where('status', '=', filter.status)
      .groupBy('case_id');
    if (filter.target_type) cases = cases.where('target_type', '=', filter.target_type);
    const row = await this.db
      .selectFrom(cases.as('cases'))
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private async countByKey(filter: ModerationQueueQuery): Promise<number> {
    let deltas = this.db
      .selectFrom('moderation_case_count_deltas')
      .select(sql<string>`coalesce(sum(delta), 0)`.as('count'))
      .where('status', '=', filter.status);
    if (filter.target_type) deltas = deltas.where('target_type', '=', filter.target_type);
    if (filter.assigned === 'none') deltas = deltas.where('assigned', '=', false);
    return Number((await deltas.executeTakeFirstOrThrow()).count);
  }

  /** Folds the count deltas into one row per key (a periodic job); a reader's sum is the same before and after. */
  async foldCaseCountDeltas(): Promise<void> {
    await sql`with folded as (delete from moderation_case_count_deltas returning status, target_type, assigned, delta)
      insert into moderation_case_count_deltas (status, target_type, assigned, delta)
      select status, target_type, assigned, sum(delta) from folded group by status, target_type, assigned
      having sum(delta) <> 0`.execute(this.db);
  }

  /** Reports per reason of each case. */
  async reasonCounts(caseIds: readonly string[]): Promise<Map<string, Partial<Record<ReportReason, number>>>> {
    const counts = new Map<string, Partial<Record<ReportReason, number>>>();
    if (caseIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('reports')
      .select(['case_id', 'reason', (eb) => eb.fn.countAll<number>().as('count')])
      .where('case_id', 'in', [...caseIds])
      .groupBy(['case_id', 'reason'])
      .execute();
    for (const row of rows) {
      const reasons = counts.get(row.case_id) ?? {};
      reasons[row.reason] = Number(row.count);
      counts.set(row.case_id, reasons);
    }
    return counts;
  }

  async reportsOfCase(caseId: string): Promise<ReportRow[]> {
    return this.db
      .selectFrom('reports')
      .selectAll()
      .where('case_id', '=', caseId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async eventsOfCase(caseId: string): Promise<CaseEventRow[]> {
    return this.db
      .selectFrom('moderation_case_events')
      .selectAll()
      .where('case_id', '=', caseId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async addEvent(caseId: string, event: { actorId: string | null; action: string; note: string | null; at: Date }) {
    await this.db
      .insertInto('moderation_case_events')
      .values({
        case_id: caseId,
        actor_id: event.actorId,
        action: event.action,
        note: event.note,
        created_at: event.at,
      })
      .execute();
  }

  async assign(caseId: string, staffId: string): Promise<void> {
    await this.db.updateTable('moderation_cases').set({ assigned_to: staffId }).where('id', '=', caseId).execute();
  }

  /** Closes a case and every open report of it; returns the reports closed. */
  async close(
    caseId: string,
    close: {
      status: 'resolved' | 'dismissed';
      action: CaseAction | null;
      by: string;
      outcome: ReportOutcome;
      at: Date;
    },
  ): Promise<ReportRow[]> {
    await this.db
      .updateTable('moderation_cases')
      .set({ status: close.status, action: close.action, resolved_by: close.by, resolved_at: close.at })
      .where('id', '=', caseId)
      .execute();
    return this.db
      .updateTable('reports')
      .set({ status: close.status, outcome: close.outcome, resolved_at: close.at })
      .where('case_id', '=', caseId)
      .where('status', '=', 'open')
      .returningAll()
      .execute();
  }

  /** An erased reporter's reports stay in their cases, without them or their words. */
  async forgetReporter(reporterId: string): Promise<number> {
    const result = await this.db
      .updateTable('reports')
      .set({ reporter_id: null, details: null })
      .where('reporter_id', '=', reporterId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Open reports against a user or their content, per user (admin lists). */
  async openReportsAgainst(userIds: readonly string[]): Promise<Map<string, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('moderation_cases')
      .select(['owner_id', (eb) => eb.fn.sum<number>('report_count').as('count')])
      .where('owner_id', 'in', [...userIds])
      .where('status', '=', 'open')
      .groupBy('owner_id')
      .execute();
    return new Map(rows.map((row) => [row.owner_id as string, Number(row.count)]));
  }

  /** Accounts with open reports against them or their content, most reported first. */
  async mostReported(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('moderation_cases')
      .select(['owner_id', (eb) => eb.fn.sum<number>('report_count').as('count')])
      .where('status', '=', 'open')
      .where('owner_id', 'is not', null)
      .groupBy('owner_id')
      .orderBy('count', 'desc')
      .orderBy('owner_id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.owner_id as string);
  }

  /** The queue's figures: open reports and cases now, and the median time to close a case closed since `since`. */
  async figures(
    since: Date,
  ): Promise<{ open_reports: number; open_cases: number; median_hours_to_resolve: number | null }> {
    const open = await this.db
      .selectFrom('moderation_cases')
      .select([
        (eb) => eb.fn.countAll<number>().as('cases'),
        (eb) => eb.fn.coalesce(eb.fn.sum<number>('report_count'), sql<number>`0`).as('reports'),
      ])
      .where('status', '=', 'open')
      .executeTakeFirstOrThrow();
    const median = await sql<{ hours: number | null }>`select percentile_cont(0.5) within group
      (order by extract(epoch from resolved_at - first_reported_at) / 3600) as hours
      from moderation_cases where status <> 'open' and resolved_at >= ${since}`.execute(this.db);
    const hours = median.rows[0]?.hours;
    return {
      open_reports: Number(open.reports),
      open_cases: Number(open.cases),
      median_hours_to_resolve: hours === null || hours === undefined ? null : Math.round(Number(hours) * 10) / 10,
    };
  }
}
