import type { Invoice, InvoiceParty } from '@riff/contract';
import type { UserActor } from '../../../platform/access/actor.js';
import type { Clock } from '../../../platform/clock.js';
import type { UserRow } from '../../users/users.tables.js';
import type { DbScope } from '../../../platform/db/transactions.js';
import { forbidden, notFound } from '../../../platform/errors/app-error.js';
import type { PeopleReader } from '../../users/people-reader.js';
import { isBuyer, sellsIn } from '../orders.policy.js';
import { findOrder } from '../orders.service.js';
import type { OrderItemRow, OrderRow, OrdersRepository } from '../orders.repository.js';
import type { InvoiceNumbers } from './invoice-numbers.js';
import type { InvoiceRow, InvoicesRepository } from './invoices.repository.js';

export interface InvoicesServiceDeps {
  scope: DbScope;
  clock: Clock;
  orders: OrdersRepository;
  invoices: InvoicesRepository;
  numbers: InvoiceNumbers;
  people: PeopleReader;
}

const INVOICED = new Set(['completed', 'refunded']);

/** The name an invoice gives a person: their full name when they gave one, else their username. */
const nameOf = (user: Pick<UserRow, 'first_name' | 'last_name' | 'username'>) =>
  [user.first_name, user.last_name].filter(Boolean).join(' ').trim() || user.username;

/**
 * Invoices of completed and refunded orders. An order's invoice is
 * issued the first time the buyer or a seller asks for it: the next number of the year (gapless,
 * invoice-numbers.ts) and the parties as they are then; every later read gives the same document.
 */
export class InvoicesService {
  constructor(private readonly deps: InvoicesServiceDeps) {}

  async invoiceOf(actor: UserActor, orderId: string): Promise<Invoice> {
    // as for the order itself: another user's is 403
    const { order, items } = await findOrder(this.deps.orders, orderId);
    const buyer = isBuyer(actor, order);
    if (!buyer && !sellsIn(actor, items)) throw forbidden('This order is not yours');
    if (!INVOICED.has(order.status)) throw notFound('Invoice');
    const row = (await this.deps.invoices.findByOrder(orderId)) ?? (await this.issue(orderId, items));
    const invoice = toInvoice(row, order, items);
    // a seller reads the lines they sold (and their amounts), never another seller's part of the order
    return buyer ? invoice : sellerPart(invoice, items, actor.id);
  }

  /** Issues the order's invoice under the order's row lock, so two first reads take one number. */
  private issue(orderId: string, items: OrderItemRow[]): Promise<InvoiceRow> {
    const { scope, clock, orders, invoices, numbers } = this.deps;
    return scope.transaction(async () => {
      const order = await orders.findForUpdate(orderId);
      if (!order) throw notFound('Order');
      const existing = await invoices.findByOrder(orderId);
      if (existing) return existing;
      // an order's items never change once it is made: the ones read for the access check serve
      const issuedAt = clock.now();
      return invoices.insert({
        order_id: orderId,
        number: await numbers.next(issuedAt),
        issued_at: issuedAt,
        buyer: JSON.stringify(await this.buyer(order)),
        seller: JSON.stringify(await this.seller(items)),
      });
    });
  }

  private async buyer(order: OrderRow): Promise<InvoiceParty> {
    if (!order.buyer_id) return { id: null, name: 'Former customer', email: null };
    const user = await this.deps.people.findActive(order.buyer_id);
    if (user) return { id: user.id, name: nameOf(user), email: user.email };
    const profile = (await this.deps.people.accountProfiles([order.buyer_id])).get(order.buyer_id);
    return { id: order.buyer_id, name: profile?.username ?? 'Customer', email: null };
  }

  /** The seller of every line; an order bought from several sellers is invoiced by the marketplace on their behalf. */
  private async seller(items: OrderItemRow[]): Promise<InvoiceParty> {
    const sellers = [...new Set(items.map((item) => item.seller_id))];
    const only = sellers.length === 1 ? sellers[0] : undefined;
    if (!only)
      return {
        id: null,
        name: sellers.length > 1 ? `Riff marketplace, for ${sellers.length} sellers` : 'Former seller',
        email: null,
      };
    const user = await this.deps.people.findActive(only);
    const name = user
      ? nameOf(user)
      : ((await this.deps.people.accountProfiles([only])).get(only)?.username ?? 'Former seller');
    return { id: only, name, email: null };
  }
}

/** The invoice cut to one seller's lines, its totals summed over them. */
function sellerPart(invoice: Invoice, items: OrderItemRow[], sellerId: string): Invoice {
  const own = new Set(items.filter((item) => item.seller_id === sellerId).map((item) => item.id));
  const lines = invoice.lines.filter((_, index) => own.has(items[index]!.id));
  return {
    ...invoice,
    lines,
    discount_cents: lines.reduce((sum, line) => sum + line.discount_cents, 0),
    total_cents: lines.reduce((sum, line) => sum + line.total_cents, 0),
  };
}

const party = (value: unknown): InvoiceParty => (typeof value === 'string' ? JSON.parse(value) : value) as InvoiceParty;

export function toInvoice(row: InvoiceRow, order: OrderRow, items: OrderItemRow[]): Invoice {
  return {
    number: row.number,
    issued_at: row.issued_at.toISOString(),
    seller: party(row.seller),
    buyer: party(row.buyer),
    lines: items.map((item) => ({
      product_id: item.product_id,
      title: item.title,
      license_type: item.license_type,
      price_cents: Number(item.price_cents),
      discount_cents: Number(item.discount_cents),
      total_cents: Number(item.price_cents) - Number(item.discount_cents),
    })),
    discount_cents: Number(order.discount_amount_cents),
    total_cents: Number(order.total_cents),
    currency: order.currency,
  };
}
