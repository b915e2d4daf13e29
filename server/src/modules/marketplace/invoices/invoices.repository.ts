import type { Insertable, Selectable } from 'kysely';
import type { Database } from '../../../platform/db/database.schema.js';
import type { DbScope } from '../../../platform/db/transactions.js';

export type InvoiceRow = Selectable<Database['invoices']>;

/** The invoices of orders: one per order, issued once. */
export class InvoicesRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  findByOrder(orderId: string): Promise<InvoiceRow | undefined> {
    return this.db.selectFrom('invoices').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  }

  insert(invoice: Insertable<Database['invoices']>): Promise<InvoiceRow> {
    return this.db.insertInto('invoices').values(invoice).returningAll().executeTakeFirstOrThrow();
  }
}
