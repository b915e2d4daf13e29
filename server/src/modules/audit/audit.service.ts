import type { AuditLogsQuery, AuditStatsQuery } from '@riff/contract';
import type { UserRow } from '../../platform/db/database.schema.js';
import { AppError } from '../../platform/errors/app-error.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import { toAuditEntryDto } from './audit.mapper.js';
import type { AuditFilter, AuditRepository } from './audit.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** YYYY-MM-DD bounds as [start of start_date, end of end_date) in UTC. */
function dateRange(start: string | undefined, end: string | undefined): Pick<AuditFilter, 'from' | 'until'> {
  const from = start ? new Date(`${start}T00:00:00.000Z`) : undefined;
  const until = end ? new Date(new Date(`${end}T00:00:00.000Z`).getTime() + DAY_MS) : undefined;
  if (from && until && from >= until) {
    throw new AppError('VALIDATION_FAILED', 'start_date must not be after end_date', {
      details: [{ field: 'query.start_date', message: 'must not be after end_date', value: start ?? '' }],
    });
  }
  return { from, until };
}

/** Entries are read-only; a user reads their own, an admin everyone's. */
export class AuditService {
  constructor(private readonly audit: AuditRepository) {}

  private scope(viewer: UserRow): string | undefined {
    return viewer.is_admin ? undefined : viewer.id;
  }

  async activity(viewer: UserRow, limit: number) {
    const { rows } = await this.audit.list({ userId: viewer.id }, limit, 0);
    return { activities: rows.map(toAuditEntryDto) };
  }

  async logs(
    viewer: UserRow,
    query: AuditLogsQuery,
  ) {
    const filter: AuditFilter = {
      userId: this.scope(viewer),
      action: query.action,
      resource: query.resource,
      resourceId: query.resource_id,
      ipAddress: query.ip_address,
      userAgent: query.user_agent,
      ...dateRange(query.start_date, query.end_date),
    };
    const window = pageWindow(query.page, query.limit, query.offset);
    const { rows, total } = await this.audit.list(filter, window.limit, window.offset);
    return { logs: rows.map(toAuditEntryDto), pagination: paginate(window, total) };
  }

  async stats(viewer: UserRow, query: AuditStatsQuery) {
    return { stats: await this.audit.stats({ userId: this.scope(viewer), ...dateRange(query.start_date, query.end_date) }) };
  }
}
