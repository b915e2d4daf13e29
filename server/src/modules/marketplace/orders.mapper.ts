import type { Order } from '@riff/contract';
import { majorUnits } from './order-pricing.js';
import type { OrderItemRow, OrderRow } from './orders.repository.js';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/**
 * An order as the contract shows it: money in major units in the plain-number fields (price,
 * total_amount), integer cents in *_cents.
 */
export function toOrderDto(order: OrderRow, items: OrderItemRow[]): Order {
  const pending = order.status === 'pending';
  return {
    id: order.id,
    buyer_id: order.buyer_id,
    items: items.map((item) => ({
      id: item.id,
      order_id: item.order_id,
      product_id: item.product_id,
      title: item.title,
      license_type: item.license_type,
      price: majorUnits(Number(item.price_cents)),
      price_cents: Number(item.price_cents),
      discount_cents: Number(item.discount_cents),
    })),
    total_amount: majorUnits(Number(order.total_cents)),
    subtotal_cents: Number(order.subtotal_cents),
    total_cents: Number(order.total_cents),
    currency: order.currency,
    discount_amount_cents: Number(order.discount_amount_cents),
    promo_code_id: order.promo_code_id,
    status: order.status,
    payment_status: order.payment_status,
    payment_provider_payment_id: order.payment_provider_payment_id,
    payment_intent: order.payment_session_id,
    payment: {
      provider: order.payment_provider,
      checkout_url: pending ? order.checkout_url : null,
      expires_at: pending ? iso(order.payment_expires_at) : null,
    },
    refund_deadline: iso(order.refund_deadline),
    completed_at: iso(order.completed_at),
    refunded_at: iso(order.refunded_at),
    created_at: order.created_at.toISOString(),
    updated_at: order.updated_at.toISOString(),
  };
}

/**
 * An order as one of its sellers sees it among their sales: only that seller's lines, the amounts
 * of those lines, and nothing of the payment. Another seller's lines, the buyer's checkout (whose
 * address lets its holder pay or decline) and a promo code of another seller are the buyer's business.
 */
export function toSaleDto(order: OrderRow, items: OrderItemRow[], sellerId: string): Order {
  const own = items.filter((item) => item.seller_id === sellerId);
  const subtotal = own.reduce((sum, item) => sum + Number(item.price_cents), 0);
  const discount = own.reduce((sum, item) => sum + Number(item.discount_cents), 0);
  const whole = toOrderDto(order, own);
  return {
    ...whole,
    subtotal_cents: subtotal,
    discount_amount_cents: discount,
    total_cents: subtotal - discount,
    total_amount: majorUnits(subtotal - discount),
    // a code discounts only its own seller's lines: without a discount here, the code is another seller's
    promo_code_id: discount > 0 ? order.promo_code_id : null,
    payment_provider_payment_id: null,
    payment_intent: null,
    payment: { provider: order.payment_provider, checkout_url: null, expires_at: null },
  };
}

/** Groups items by order, keeping their order. */
export function itemsByOrder(items: OrderItemRow[]): Map<string, OrderItemRow[]> {
  const map = new Map<string, OrderItemRow[]>();
  for (const item of items) map.set(item.order_id, [...(map.get(item.order_id) ?? []), item]);
  return map;
}
