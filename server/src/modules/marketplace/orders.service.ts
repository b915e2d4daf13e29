import { PAYMENT_WINDOW_MINUTES, type CreateOrderRequest, type Order, type RefundOrderRequest } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, badRequest, conflict, forbidden, notFound, unavailable } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { discountLines, type PricedLine } from './order-pricing.js';
import { isExclusiveItem, type OrderSettlement } from './order-settlement.js';
import { itemsByOrder, toOrderDto, toSaleDto } from './orders.mapper.js';
import { canRefundAsSeller, isBuyer, sellsIn } from './orders.policy.js';
import {
  pickLicense,
  type LicenseRow,
  type OrderItemRow,
  type OrderRow,
  type OrdersRepository,
  type ProductRow,
  type PromoCodeRow,
} from './orders.repository.js';
import type { PaymentProvider } from './payments/payment-provider.js';
import { productWithheld } from './products.policy.js';

export interface OrdersServiceDeps {
  scope: DbScope;
  clock: Clock;
  events: EventBus;
  orders: OrdersRepository;
  settlement: OrderSettlement;
  provider: PaymentProvider;
}

interface Line extends PricedLine {
  product: ProductRow;
  license: LicenseRow | undefined;
}

/** An order and its items, 404 when unknown; who may see what of it is the caller's to check. */
export async function findOrder(
  orders: OrdersRepository,
  id: string,
): Promise<{ order: OrderRow; items: OrderItemRow[] }> {
  const order = await orders.find(id);
  if (!order) throw notFound('Order');
  return { order, items: await orders.itemsOf([id]) };
}

/** Another user's order is 403, not 404: the order routes name that status (a seller of its lines included). */
const notYours = () => forbidden('This order is not yours');

const invalidPromo = () => new AppError('INVALID_PROMO_CODE', 'This promo code is unknown, expired or used up');

/** Orders: creation (prices copied, exclusive holds, promo codes), reading, refunds. */
export class OrdersService {
  constructor(private readonly deps: OrdersServiceDeps) {}

  /** Creates the order in the caller's unit of work (the idempotency record joins it). */
  async create(actor: UserActor, body: CreateOrderRequest): Promise<Order> {
    const { scope, clock, orders, events, provider, settlement } = this.deps;
    return scope.transaction(async () => {
      const now = clock.now();
      const lines = await this.price(actor, body);
      const currency = lines[0]!.product.currency;
      const promo = body.promo_code ? await this.promo(body.promo_code, lines, currency, now) : undefined;
      const discounts = promo ? discountLines(lines, promo) : lines.map(() => 0);
      const subtotal = lines.reduce((sum, line) => sum + line.priceCents, 0);
      const discount = discounts.reduce((sum, share) => sum + share, 0);
      const expiresAt = new Date(now.getTime() + PAYMENT_WINDOW_MINUTES * 60_000);
      let order = await orders.insertOrder({
        buyer_id: actor.id,
        currency,
        subtotal_cents: subtotal,
        discount_amount_cents: discount,
        total_cents: subtotal - discount,
        promo_code_id: promo?.id ?? null,
        payment_provider: provider.name,
        payment_expires_at: expiresAt,
      });
      const items = await orders.insertItems(
        lines.map((line, index) => ({
          order_id: order.id,
          product_id: line.product.id,
          seller_id: line.product.seller_id,
          license_id: line.license?.id ?? null,
          license_type: line.license?.license_type ?? null,
          title: line.product.title,
          price_cents: line.priceCents,
          discount_cents: discounts[index]!,
          // order_items has no position: a millisecond apart, the items read back in the order they were asked for
          created_at: new Date(now.getTime() + index),
        })),
      );
      for (const [index, item] of items.entries()) {
        if (!isExclusiveItem(item, lines[index]!.product.license_type)) continue;
        if (!(await orders.takeHold(item.product_id, order.id, expiresAt, now))) {
          throw conflict(`The exclusive license of "${item.title}" is sold or reserved by another order`);
        }
      }
      await events.record(actor, 'order.created', {
        subject: { resource: 'order', id: order.id },
        data: { total_cents: Number(order.total_cents), currency, status: order.status },
      });
      if (Number(order.total_cents) === 0) {
        order = await settlement.complete(order, null);
      } else {
        const checkout = await provider
          .createCheckout({
            orderId: order.id,
            amountCents: Number(order.total_cents),
            currency,
            description: items
              .map((item) => item.title)
              .join(', ')
              .slice(0, 500),
            buyerEmail: actor.user.email ?? undefined,
            expiresAt,
          })
          .catch((error: unknown) => {
            if (error instanceof AppError) throw error;
            throw unavailable('The payment provider cannot be reached; try again', 5);
          });
        order = await orders.setCheckout(order.id, checkout);
      }
      return toOrderDto(order, items);
    });
  }

  /** The order's lines: products checked, licenses chosen, prices copied (integer cents). */
  private async price(actor: UserActor, body: CreateOrderRequest): Promise<Line[]> {
    const { orders } = this.deps;
    const ids = body.items.map((item) => item.product_id);
    if (new Set(ids).size !== ids.length) throw badRequest('A product appears twice in the order');
    const products = new Map((await orders.findProducts(ids)).map((product) => [product.id, product]));
    const holds = await orders.findHolds(ids);
    const licenses = await orders.findLicenses(ids);
    const lines = body.items.map((item): Line => {
      const product = products.get(item.product_id);
      if (!product || productWithheld(actor, product)) throw notFound('Product');
      if (product.seller_id === actor.id) throw badRequest('You cannot buy your own product');
      if (holds.some((hold) => hold.product_id === product.id && hold.sold))
        throw conflict(`The exclusive license of "${product.title}" is sold`);
      if (product.status !== 'active') throw badRequest(`"${product.title}" is not on sale`);
      const license = pickLicense(
        licenses.filter((row) => row.product_id === product.id),
        item.license_type,
      );
      if (license === 'unknown') throw badRequest(`"${product.title}" has no ${item.license_type} license`);
      if (license === 'unavailable') throw conflict(`This license of "${product.title}" is no longer available`);
      return {
        product,
        license,
        productId: product.id,
        priceCents: Number(license?.price_cents ?? product.price_cents),
        eligible: false,
      };
    });
    if (new Set(lines.map((line) => line.product.currency)).size > 1)
      throw badRequest('An order is paid in one currency: order products of other currencies separately');
    return lines;
  }

  /** The code of one of the items' sellers, valid now; its redemptions are reserved by pending orders under its row lock. */
  private async promo(code: string, lines: Line[], currency: string, now: Date): Promise<PromoCodeRow> {
    const { orders } = this.deps;
    const promo = await orders.findPromoCodeForUpdate(code.trim().toLowerCase(), [
      ...new Set(lines.map((line) => line.product.seller_id)),
    ]);
    if (!promo) throw invalidPromo();
    if (promo.expires_at && promo.expires_at.getTime() <= now.getTime()) throw invalidPromo();
    if (promo.amount_off_cents !== null && promo.currency && promo.currency !== currency) throw invalidPromo();
    if (
      promo.max_redemptions !== null &&
      promo.redemption_count + (await orders.pendingWithPromo(promo.id)) >= promo.max_redemptions
    )
      throw invalidPromo();
    const restricted = await orders.promoProductIds(promo.id);
    for (const line of lines)
      line.eligible =
        line.product.seller_id === promo.seller_id && (restricted.size === 0 || restricted.has(line.product.id));
    if (!lines.some((line) => line.eligible && line.priceCents > 0)) throw invalidPromo();
    return promo;
  }

  async list(actor: UserActor): Promise<Order[]> {
    const { orders } = this.deps;
    const rows = await orders.listForBuyer(actor.id);
    const items = itemsByOrder(await orders.itemsOf(rows.map((row) => row.id)));
    return rows.map((row) => toOrderDto(row, items.get(row.id) ?? []));
  }

  /** The data export: the account's orders as a buyer, and its sales with its own lines only. */
  async exportFor(owner: UserActor): Promise<{ marketplace_orders: Order[]; marketplace_sales: Order[] }> {
    const { orders } = this.deps;
    const [bought, sold] = await Promise.all([orders.listForBuyer(owner.id), orders.listForSeller(owner.id)]);
    const items = itemsByOrder(await orders.itemsOf([...new Set([...bought, ...sold].map((row) => row.id))]));
    return {
      marketplace_orders: bought.map((row) => toOrderDto(row, items.get(row.id) ?? [])),
      marketplace_sales: sold.map((row) => toSaleDto(row, items.get(row.id) ?? [], owner.id)),
    };
  }

  async get(actor: UserActor, id: string): Promise<Order> {
    const { order, items } = await findOrder(this.deps.orders, id);
    if (!isBuyer(actor, order)) throw notYours();
    return toOrderDto(order, items);
  }

  /** The buyer within the refund window, the seller at any time: refunded in full through the provider. */
  async refund(actor: UserActor, id: string, body: RefundOrderRequest): Promise<Order> {
    const { scope, clock, orders, provider, settlement } = this.deps;
    return scope.transaction(async () => {
      const order = await orders.findForUpdate(id);
      if (!order) throw notFound('Order');
      const items = await orders.itemsOf([id]);
      const asSeller = canRefundAsSeller(actor, items);
      if (!asSeller && !isBuyer(actor, order)) throw notYours();
      if (order.status !== 'completed')
        throw new AppError('INVALID_TRANSITION', `A ${order.status} order cannot be refunded`);
      if (!asSeller && order.refund_deadline && clock.now().getTime() > order.refund_deadline.getTime()) {
        throw new AppError(
          'REFUND_WINDOW_CLOSED',
          `The refund window closed on ${order.refund_deadline.toISOString()}`,
        );
      }
      if (Number(order.total_cents) > 0 && order.payment_provider_payment_id) {
        if (order.payment_provider !== provider.name)
          throw unavailable(`This order was paid with ${order.payment_provider}, which is not configured now`, 60);
        await provider
          .refund({
            paymentId: order.payment_provider_payment_id,
            amountCents: Number(order.total_cents),
            currency: order.currency,
            orderId: order.id,
          })
          .catch((error: unknown) => {
            if (error instanceof AppError) throw error;
            throw unavailable('The payment provider cannot be reached; try again', 5);
          });
      }
      const refunded = await settlement.refunded(actor, order, body.reason ?? null);
      const result = refunded ?? (await orders.find(id))!;
      // the seller who refunds reads it as their sale (the buyer's payment details stay the buyer's)
      return isBuyer(actor, order) || !sellsIn(actor, items)
        ? toOrderDto(result, items)
        : toSaleDto(result, items, actor.id);
    });
  }
}
