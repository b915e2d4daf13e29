import { sql } from 'kysely';
import type { DbScope } from '../../../platform/db/transactions.js';

/** INV-<year>-<number>, six digits at least. */
export const formatInvoiceNumber = (year: number, number: number) => `INV-${year}-${String(number).padStart(6, '0')}`;

/**
 * Invoice numbers, sequential per calendar year (UTC) without gaps (`INV-2026-000001`).
 * One statement takes the next number: the upsert locks the year's counter row until the unit of
 * work it runs in ends, so concurrent callers queue behind it, and a unit of work that rolls back
 * gives its number back instead of leaving a hole. Call it inside the transaction that stores the
 * invoice.
 */
export class InvoiceNumbers {
  constructor(private readonly scope: DbScope) {}

  async next(issuedAt: Date): Promise<string> {
    const year = issuedAt.getUTCFullYear();
    const row = await this.scope.db
      .insertInto('invoice_counters')
      .values({ year, last_number: 1 })
      .onConflict((conflict) =>
        conflict.column('year').doUpdateSet({ last_number: sql<number>`invoice_counters.last_number + 1` }),
      )
      .returning('last_number')
      .executeTakeFirstOrThrow();
    return formatInvoiceNumber(year, row.last_number);
  }
}
