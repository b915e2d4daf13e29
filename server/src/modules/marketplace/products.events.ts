// The products part's domain events, each recorded in the transaction of its change: an audit entry
// for the seller (product.sold, of the webhook table, belongs to the orders part).
declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'product.created': { title: string; product_type: string };
    'product.updated': { fields: string[]; status: string };
    'product.deleted': { title: string };
    'product.archived': { title: string };
  }
}

export {};
