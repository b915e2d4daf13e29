import type { Db } from '../../platform/db/database.js';

/** Where a request came from, recorded with every audit entry. */
export interface RequestContext {
  ip: string | null;
  userAgent: string | null;
}

export interface AuditEntry {
  userId: string | null;
  action: string;
  resource: string;
  resourceId?: string | null;
  metadata?: Record<string, unknown>;
}

export class AuditRepository {
  constructor(private readonly db: Db) {}

  async record(entry: AuditEntry, context: RequestContext, db: Db = this.db): Promise<void> {
    await db
      .insertInto('audit_logs')
      .values({
        user_id: entry.userId,
        action: entry.action,
        resource: entry.resource,
        resource_id: entry.resourceId ?? null,
        ip_address: context.ip,
        user_agent: context.userAgent,
        metadata: JSON.stringify(entry.metadata ?? {}),
      })
      .execute();
  }
}
