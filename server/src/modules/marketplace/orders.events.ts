// The orders part's domain events, each recorded in the transaction of its change (an audit entry,
// and webhooks to the user each concerns: order.* to the buyer, product.sold to the seller).
declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'order.created': { total_cents: number; currency: string; status: string };
    'order.completed': { total_cents: number; currency: string; product_ids: string[] };
    'order.failed': { reason: string };
    'order.refunded': { total_cents: number; currency: string; reason: string | null };
    'product.sold': {
      order_id: string;
      order_item_id: string;
      license_type: string | null;
      price_cents: number;
      currency: string;
    };
  }
}

export {};
