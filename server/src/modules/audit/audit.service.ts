import type { AuditLogsQuery, AuditStatsQuery } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import { fieldIssue, validationFailed } from '../../platform/errors/app-error.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import { toAuditEntryDto } from './audit.mapper.js';
import { readableAuditOwner } from './audit.policy.js';
import type { AuditFilter, AuditRepository } from './audit.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** YYYY-MM-DD bounds as [start of start_date, end of end_date) in UTC. */
function dateRange(start: string | undefined, end: string | undefined): Pick<AuditFilter, 'from' | 'until'> {
  const from = start ? new Date(`${start}T00:00:00.000Z`) : undefined;
  const until = end ? new Date(new Date(`${end}T00:00:00.000Z`).getTime() + DAY_MS) : undefined;
  if (from && until && from >= until) {
    throw validationFailed('start_date must not be after end_date', [
      fieldIssue('query.start_date', 'must not be after end_date', start),
    ]);
  }
  return { from, until };
}

export interface AuditServiceDeps {
  audit: AuditRepository;
}

/** Entries are read-only; a user reads their own, an admin everyone's. */
export class AuditService {
  constructor(private readonly deps: AuditServiceDeps) {}

  async activity(actor: UserActor, limit: number) {
    const { rows } = await this.deps.audit.list({ userId: actor.id }, limit, 0);
    return { activities: rows.map(toAuditEntryDto) };
  }

  async logs(actor: UserActor, query: AuditLogsQuery) {
    const filter: AuditFilter = {
      userId: readableAuditOwner(actor),
      action: query.action,
      resource: query.resource,
      resourceId: query.resource_id,
      ipAddress: query.ip_address,
      userAgent: query.user_agent,
      ...dateRange(query.start_date, query.end_date),
    };
    const window = pageWindow(query.page, query.limit, query.offset);
    const { rows, total } = await this.deps.audit.list(filter, window.limit, window.offset);
    return { logs: rows.map(toAuditEntryDto), pagination: paginate(window, total) };
  }

  /** The owner's whole log, for their data export. */
  async exportFor(owner: UserActor) {
    return { audit_logs: (await this.deps.audit.allFor(owner.id)).map(toAuditEntryDto) };
  }

  async stats(actor: UserActor, query: AuditStatsQuery) {
    return {
      stats: await this.deps.audit.stats({
        userId: readableAuditOwner(actor),
        ...dateRange(query.start_date, query.end_date),
      }),
    };
  }
}
