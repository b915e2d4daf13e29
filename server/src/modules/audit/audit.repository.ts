import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool } from 'kysely';
import type { RequestOrigin } from '../../platform/access/actor.js';
import type { Database } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';

export interface AuditEntry {
  userId: string | null;
  action: string;
  resource: string;
  resourceId?: string | null;
  metadata?: Record<string, unknown>;
}

export type AuditRow = Selectable<Database['audit_logs']>;

export interface AuditFilter {
  /** Undefined means every user's entries (admins). */
  userId?: string | undefined;
  action?: string | undefined;
  resource?: string | undefined;
  resourceId?: string | undefined;
  ipAddress?: string | undefined;
  userAgent?: string | undefined;
  from?: Date | undefined;
  /** Exclusive. */
  until?: Date | undefined;
}

/** The audit log is append-only: there is no update or delete here. */
export class AuditRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** `db` is transitional, for callers still in their own transactions: areas record events instead. */
  async record(
    entry: AuditEntry,
    origin: Pick<RequestOrigin, 'ip' | 'userAgent'>,
    db: Kysely<Database> = this.db,
  ): Promise<void> {
    await db
      .insertInto('audit_logs')
      .values({
        user_id: entry.userId,
        action: entry.action,
        resource: entry.resource,
        resource_id: entry.resourceId ?? null,
        ip_address: origin.ip,
        user_agent: origin.userAgent,
        metadata: JSON.stringify(entry.metadata ?? {}),
      })
      .execute();
  }

  private where(eb: ExpressionBuilder<Database, 'audit_logs'>, filter: AuditFilter): Expression<SqlBool> {
    const conditions: Expression<SqlBool>[] = [];
    if (filter.userId !== undefined) conditions.push(eb('user_id', '=', filter.userId));
    if (filter.action) conditions.push(eb('action', '=', filter.action));
    if (filter.resource) conditions.push(eb('resource', '=', filter.resource));
    if (filter.resourceId) conditions.push(eb('resource_id', '=', filter.resourceId));
    if (filter.ipAddress) conditions.push(eb('ip_address', '=', filter.ipAddress));
    if (filter.userAgent) conditions.push(eb('user_agent', '=', filter.userAgent));
    if (filter.from) conditions.push(eb('created_at', '>=', filter.from));
    if (filter.until) conditions.push(eb('created_at', '<', filter.until));
    return eb.and(conditions);
  }

  async list(filter: AuditFilter, limit: number, offset: number): Promise<{ rows: AuditRow[]; total: number }> {
    const rows = await this.db
      .selectFrom('audit_logs')
      .selectAll()
      .where((eb) => this.where(eb, filter))
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
    const counted = await this.db
      .selectFrom('audit_logs')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where((eb) => this.where(eb, filter))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(counted.total) };
  }

  async allFor(userId: string): Promise<AuditRow[]> {
    return this.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async stats(filter: AuditFilter) {
    const byAction = await this.db
      .selectFrom('audit_logs')
      .select((eb) => ['action', eb.fn.countAll<number>().as('count')])
      .where((eb) => this.where(eb, filter))
      .groupBy('action')
      .execute();
    const byResource = await this.db
      .selectFrom('audit_logs')
      .select((eb) => ['resource', eb.fn.countAll<number>().as('count')])
      .where((eb) => this.where(eb, filter))
      .groupBy('resource')
      .execute();
    const range = await this.db
      .selectFrom('audit_logs')
      .select((eb) => [
        eb.fn.min('created_at').as('first_at'),
        eb.fn.max('created_at').as('last_at'),
        eb.fn.countAll<number>().as('total'),
      ])
      .where((eb) => this.where(eb, filter))
      .executeTakeFirstOrThrow();
    return {
      total: Number(range.total),
      by_action: Object.fromEntries(byAction.map((row) => [row.action, Number(row.count)])),
      by_resource: Object.fromEntries(byResource.map((row) => [row.resource, Number(row.count)])),
      first_at: range.first_at ? new Date(range.first_at).toISOString() : null,
      last_at: range.last_at ? new Date(range.last_at).toISOString() : null,
    };
  }
}
