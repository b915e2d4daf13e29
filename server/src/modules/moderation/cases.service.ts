import type { CaseAction, ModerationQueueQuery, ResolveCaseRequest } from '@riff/contract';
import { onStaffDecision, type UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { badRequest, fieldIssue, forbidden, notFound, validationFailed } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { StaffLog } from '../admin/staff-log.js';
import { moderateContent } from './moderation-actions.js';
import { describeTarget, isContentType, type ModerationTargetPorts } from './moderation-targets.js';
import { toCaseDto, toCaseEventDto, toReportDto } from './moderation.mapper.js';
import { assertMayActOn } from '../../platform/access/staff-limits.js';
import type { ModerationRepository, Target } from './moderation.repository.js';
import type { CaseRow, ReportRow } from './moderation.tables.js';

const DAY_MS = 86_400_000;

/** The sanctions a resolution may impose on the owner of the target, as the sanctions area imposes them. */
export interface CaseSanctions {
  warn(actor: UserActor, userId: string, reason: string): Promise<unknown>;
  suspend(actor: UserActor, userId: string, input: { reason: string; until: Date }): Promise<unknown>;
  ban(actor: UserActor, userId: string, reason: string): Promise<unknown>;
}

export interface CasesServiceDeps {
  scope: DbScope;
  clock: Clock;
  events: EventBus;
  staffLog: StaffLog;
  repository: ModerationRepository;
  targets: ModerationTargetPorts;
  sanctions: CaseSanctions;
}

/** The staff's queue: cases (reports grouped by target), taken, resolved with an action, dismissed. */
/**
 * A case about a staff member's own account or content is not theirs to read or take: it names who
 * reported them and why (the queue leaves such cases out too). 403, as acting on it is.
 */
function assertNotOwnCase(actor: UserActor, row: CaseRow): void {
  if (row.owner_id === actor.id) throw forbidden('Staff never handle a case about their own account or content');
}

export class CasesService {
  constructor(private readonly deps: CasesServiceDeps) {}

  async queue(actor: UserActor, query: ModerationQueueQuery) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.repository.queue(
      { ...query, staffId: actor.id },
      window.limit,
      window.offset,
    );
    const cases = await this.dtos(rows);
    return { cases, pagination: paginate(window, total) };
  }

  private async dtos(rows: readonly CaseRow[]) {
    const owners = rows.flatMap((row) => (row.owner_id ? [row.owner_id] : []));
    const [profiles, reasons] = await Promise.all([
      this.deps.targets.profiles(owners),
      this.deps.repository.reasonCounts(rows.map((row) => row.id)),
    ]);
    return rows.map((row) =>
      toCaseDto(row, row.owner_id ? profiles.get(row.owner_id) : undefined, reasons.get(row.id) ?? {}),
    );
  }

  async get(actor: UserActor, target: Target) {
    const row = await this.deps.repository.latestCase(target);
    if (!row) throw notFound('Case');
    assertNotOwnCase(actor, row);
    return this.detail(row);
  }

  private async detail(row: CaseRow) {
    const [[base], reports, history, described] = await Promise.all([
      this.dtos([row]),
      this.deps.repository.reportsOfCase(row.id),
      this.deps.repository.eventsOfCase(row.id),
      describeTarget(this.deps.targets, { type: row.target_type, id: row.target_id }),
    ]);
    return {
      case: {
        ...base!,
        reports: reports.map((report) => ({ ...toReportDto(report), reporter_id: report.reporter_id })),
        history: history.map(toCaseEventDto),
        current: described?.content
          ? { moderation_status: described.content.status, moderation_reason: described.content.reason }
          : null,
      },
    };
  }

  /** The open case of the target, held until the transaction ends. */
  private async openCase(target: Target): Promise<CaseRow> {
    await this.deps.repository.lockTarget(target);
    const row = await this.deps.repository.openCase(target);
    if (!row) throw notFound('Open case');
    return row;
  }

  async assign(actor: UserActor, target: Target) {
    const { repository, scope, clock } = this.deps;
    const row = await scope.transaction(async () => {
      const open = await this.openCase(target);
      assertNotOwnCase(actor, open);
      await repository.assign(open.id, actor.id);
      await repository.addEvent(open.id, { actorId: actor.id, action: 'assigned', note: null, at: clock.now() });
      await this.deps.events.record(actor, 'case.assigned', {
        subject: { resource: 'moderation_case', id: open.id },
        data: { target_type: target.type, target_id: target.id },
      });
      return { ...open, assigned_to: actor.id };
    });
    return this.detail(row);
  }

  async resolve(actor: UserActor, target: Target, body: ResolveCaseRequest) {
    checkResolution(target, body);
    const row = await this.deps.scope.transaction(async () => {
      const open = await this.openCase(target);
      const described = await describeTarget(this.deps.targets, target);
      assertMayActOn(actor, described?.owner);
      await this.carryOut(actor, target, open, body, described?.owner?.id);
      const outcome = body.action === 'none' ? 'no_violation' : 'action_taken';
      return this.close(actor, open, { status: 'resolved', action: body.action, note: body.note, outcome });
    });
    return this.detail(row);
  }

  async dismiss(actor: UserActor, target: Target, note: string) {
    const row = await this.deps.scope.transaction(async () => {
      const open = await this.openCase(target);
      const described = await describeTarget(this.deps.targets, target);
      assertMayActOn(actor, described?.owner);
      return this.close(actor, open, { status: 'dismissed', action: null, note, outcome: 'no_violation' });
    });
    return this.detail(row);
  }

  private async carryOut(
    actor: UserActor,
    target: Target,
    open: CaseRow,
    body: ResolveCaseRequest,
    ownerId: string | undefined,
  ): Promise<void> {
    const { action, note } = body;
    if (action === 'none') return;
    if (action === 'hide' || action === 'remove') {
      const port = isContentType(target.type) ? this.deps.targets.content[target.type] : undefined;
      if (!port || !isContentType(target.type)) throw badRequest('Only content can be hidden or removed');
      // content deleted since the report: nothing left to hide, the case still closes
      if (!(await port.find(target.id))) return;
      await moderateContent(
        this.deps,
        actor,
        port,
        { type: target.type, id: target.id },
        {
          action,
          note,
          logAction: `case.${action}`,
        },
      );
      return;
    }
    const userId = ownerId ?? open.owner_id;
    if (!userId) throw badRequest('Whoever this belonged to no longer has an account: hide or remove it instead');
    const { sanctions, clock } = this.deps;
    if (action === 'warn') await sanctions.warn(actor, userId, note);
    else if (action === 'ban') await sanctions.ban(actor, userId, note);
    else
      await sanctions.suspend(actor, userId, {
        reason: note,
        until: new Date(clock.now().getTime() + body.duration_days! * DAY_MS),
      });
  }

  private async close(
    actor: UserActor,
    open: CaseRow,
    close: {
      status: 'resolved' | 'dismissed';
      action: CaseAction | null;
      note: string;
      outcome: ReportRow['outcome'] & {};
    },
  ): Promise<CaseRow> {
    const { repository, clock, events, staffLog } = this.deps;
    const at = clock.now();
    const closed = await repository.close(open.id, { ...close, by: actor.id, at });
    const verb = close.status === 'resolved' ? `resolved:${close.action}` : 'dismissed';
    await repository.addEvent(open.id, { actorId: actor.id, action: verb, note: close.note, at });
    const target = { target_type: open.target_type, target_id: open.target_id };
    await staffLog.record(actor, {
      action: close.status === 'resolved' ? 'case.resolve' : 'case.dismiss',
      target_type: open.target_type,
      target_id: open.target_id,
      reason: close.note,
      before: { status: 'open', report_count: open.report_count },
      after: { status: close.status, action: close.action, outcome: close.outcome },
    });
    const subject = { resource: 'moderation_case', id: open.id };
    if (close.status === 'resolved') {
      await events.record(actor, 'case.resolved', {
        subject,
        data: { ...target, action: close.action!, reports: closed.length },
      });
    } else {
      await events.record(actor, 'case.dismissed', { subject, data: { ...target, reports: closed.length } });
    }
    for (const report of closed) {
      if (!report.reporter_id) continue;
      await events.record(onStaffDecision(actor), 'report.closed', {
        subject: { resource: 'report', id: report.id },
        userId: report.reporter_id,
        data: { ...target, outcome: close.outcome },
      });
    }
    return { ...open, status: close.status, action: close.action, resolved_at: at, resolved_by: actor.id };
  }
}

/** What a resolution needs: a length for a suspension and only then, content for hide and remove. */
function checkResolution(target: Target, body: ResolveCaseRequest): void {
  if (body.action === 'suspend' && body.duration_days === undefined) {
    throw validationFailed('A suspension needs its length', [fieldIssue('duration_days', 'Required to suspend')]);
  }
  if (body.action !== 'suspend' && body.duration_days !== undefined) {
    throw validationFailed('duration_days is for a suspension only', [
      fieldIssue('duration_days', 'Only with action suspend', body.duration_days),
    ]);
  }
  if ((body.action === 'hide' || body.action === 'remove') && !isContentType(target.type)) {
    throw badRequest('A user cannot be hidden or removed: warn, suspend or ban them');
  }
}
