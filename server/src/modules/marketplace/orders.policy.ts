import { isOwner, isOwnerOrAdmin } from '../../platform/access/ownership.js';
import type { Actor } from '../../platform/access/actor.js';
import type { OrderItemRow, OrderRow } from './orders.repository.js';

/** The buyer, the sellers of its items, admins. */
export const canReadOrder = (actor: Actor, order: OrderRow, items: OrderItemRow[]) =>
  (order.buyer_id !== null && isOwnerOrAdmin(actor, order.buyer_id)) || items.some((item) => item.seller_id !== null && isOwner(actor, item.seller_id));

export const isBuyer = (actor: Actor, order: OrderRow) => order.buyer_id !== null && isOwner(actor, order.buyer_id);

/** The seller of every item (or an admin) may refund at any time. */
export const canRefundAsSeller = (actor: Actor, items: OrderItemRow[]) =>
  actor.isAdmin || (items.length > 0 && items.every((item) => item.seller_id !== null && isOwner(actor, item.seller_id)));
