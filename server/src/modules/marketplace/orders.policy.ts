import { isOwner } from '../../platform/access/ownership.js';
import type { Actor } from '../../platform/access/actor.js';
import type { OrderItemRow, OrderRow } from './orders.repository.js';

/**
 * The order itself (its lines of every seller, the buyer's checkout) is the buyer's alone. Sellers
 * see their own lines through their sales: the invoice, the data export, the stats.
 */
export const isBuyer = (actor: Actor, order: OrderRow) => order.buyer_id !== null && isOwner(actor, order.buyer_id);

/** A seller of at least one of the order's lines. */
export const sellsIn = (actor: Actor, items: OrderItemRow[]) =>
  items.some((item) => item.seller_id !== null && isOwner(actor, item.seller_id));

/** The seller of every item (or an admin) may refund at any time. */
export const canRefundAsSeller = (actor: Actor, items: OrderItemRow[]) =>
  actor.isAdmin ||
  (items.length > 0 && items.every((item) => item.seller_id !== null && isOwner(actor, item.seller_id)));
