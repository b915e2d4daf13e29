import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { conflict } from '../../platform/errors/app-error.js';

const KEPT_MS = 24 * 60 * 60 * 1000;

/** JSON with sorted keys: the same body hashes the same whatever the order of its fields. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, entry]) => `${JSON.stringify(key)}:${canonical(entry)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface StoredReply<T> {
  status: number;
  body: T;
}

/**
 * Idempotency-Key: the same key and body within 24 h give the first reply; another body
 * is 409. The key row is written in the same transaction as the work, so a concurrent duplicate
 * waits on its primary key until the first commits and then reads its reply (or, if the first
 * failed and rolled back, does the work itself): one order however many duplicates arrive at once.
 */
export class IdempotencyKeys {
  constructor(private readonly deps: { scope: DbScope; clock: Clock }) {}

  async run<T>(
    userId: string,
    scope: string,
    key: string | undefined,
    request: unknown,
    work: () => Promise<StoredReply<T>>,
  ): Promise<StoredReply<T>> {
    if (key === undefined) return work();
    const { scope: db, clock } = this.deps;
    const hash = createHash('sha256').update(canonical(request)).digest('hex');
    return db.transaction(async () => {
      const now = clock.now();
      await db.db
        .deleteFrom('idempotency_keys')
        .where('user_id', '=', userId)
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('expires_at', '<=', now)
        .execute();
      const claimed = await db.db
        .insertInto('idempotency_keys')
        .values({ user_id: userId, scope, key, request_hash: hash, expires_at: new Date(now.getTime() + KEPT_MS) })
        .onConflict((oc) => oc.columns(['user_id', 'scope', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (!claimed) {
        const stored = await db.db
          .selectFrom('idempotency_keys')
          .selectAll()
          .where('user_id', '=', userId)
          .where('scope', '=', scope)
          .where('key', '=', key)
          .executeTakeFirst();
        if (!stored || stored.status_code === null || stored.response_body === null)
          throw conflict('A request with this Idempotency-Key is still in progress');
        if (stored.request_hash !== hash) throw conflict('This Idempotency-Key was used with another request body');
        return { status: stored.status_code, body: JSON.parse(stored.response_body) as T };
      }
      const reply = await work();
      await db.db
        .updateTable('idempotency_keys')
        .set({ status_code: reply.status, response_body: JSON.stringify(reply.body) })
        .where('user_id', '=', userId)
        .where('scope', '=', scope)
        .where('key', '=', key)
        .execute();
      return reply;
    });
  }

  /** Removes keys past their 24 hours (a periodic job). */
  async prune(): Promise<{ removed: number }> {
    const result = await this.deps.scope.db
      .deleteFrom('idempotency_keys')
      .where('expires_at', '<=', sql<Date>`now()`)
      .executeTakeFirst();
    return { removed: Number(result.numDeletedRows) };
  }
}
