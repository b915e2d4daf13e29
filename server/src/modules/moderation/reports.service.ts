import { REPORTS_PER_DAY, type CreateReportRequest, type Report } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, badRequest, fieldIssue, notFound, rateLimited } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import { describeTarget, type ModerationTargetPorts } from './moderation-targets.js';
import { toReportDto } from './moderation.mapper.js';
import type { ModerationRepository } from './moderation.repository.js';

const DAY_MS = 86_400_000;

export interface ReportsServiceDeps {
  scope: DbScope;
  clock: Clock;
  events: EventBus;
  repository: ModerationRepository;
  targets: ModerationTargetPorts;
}

/** Users' reports: filed against what they can see, grouped into the target's open case. */
export class ReportsService {
  constructor(private readonly deps: ReportsServiceDeps) {}

  async report(actor: UserActor, body: CreateReportRequest) {
    const { repository, targets, clock, scope } = this.deps;
    const target = { type: body.target_type, id: body.target_id };
    if (!(await targets.visibleTo(actor, target))) throw notFound('Report target');
    const described = await describeTarget(targets, target);
    if (!described) throw notFound('Report target');
    if (described.owner?.id === actor.id) throw badRequest('You cannot report yourself or your own content');
    return scope.transaction(async () => {
      await repository.lockReporter(actor.id);
      const now = clock.now();
      const recent = await repository.reportsSince(actor.id, new Date(now.getTime() - DAY_MS));
      if (recent.count >= REPORTS_PER_DAY) {
        // the next one is allowed once the oldest of the day's reports is 24 hours old
        const wait = ((recent.oldest?.getTime() ?? now.getTime()) + DAY_MS - now.getTime()) / 1000;
        throw rateLimited(wait, `At most ${REPORTS_PER_DAY} reports in 24 hours: try again later`);
      }
      const open = await repository.openReportOf(actor.id, target);
      if (open) {
        throw new AppError('CONFLICT', 'You already reported this; your report is still open', {
          details: [fieldIssue('report_id', 'Your open report of this target', open.id)],
        });
      }
      // the first report freezes the target as staff will judge it, whatever its owner does next
      await repository.lockTarget(target);
      const caseRow =
        (await repository.openCase(target)) ??
        (await repository.openNewCase(target, described.owner?.id ?? null, described.snapshot, now));
      const report = await repository.addReport(caseRow, {
        reporterId: actor.id,
        reason: body.reason,
        details: body.details?.length ? body.details : null,
        at: now,
      });
      await this.deps.events.record(actor, 'report.created', {
        subject: { resource: 'report', id: report.id },
        data: { target_type: target.type, target_id: target.id, reason: body.reason },
      });
      return { report: toReportDto(report) };
    });
  }

  async mine(actor: UserActor, query: { page: number; limit: number }) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.repository.reportsOf(actor.id, window.limit, window.offset);
    return { reports: rows.map(toReportDto), pagination: paginate(window, total) };
  }

  /** One of the caller's reports as GET /reports/mine shows it; undefined for another's. */
  async reportFor(reader: UserActor, id: string): Promise<Report | undefined> {
    const row = await this.deps.repository.reportOf(reader.id, id);
    return row && toReportDto(row);
  }

  /** The user's reports for their data export. */
  async exportFor(owner: UserActor) {
    const { rows } = await this.deps.repository.reportsOf(owner.id, 100_000, 0);
    return rows.map(toReportDto);
  }

  async eraseFor(owner: UserActor) {
    return { anonymised_reports: await this.deps.repository.forgetReporter(owner.id) };
  }
}
