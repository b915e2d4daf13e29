import '../sanctions/sanctions.events.js';
import type { EventHandler } from '../../platform/events/event-bus.js';
import type { OrderSettlement } from './order-settlement.js';
import type { ProductsService } from './products.service.js';

/** A banned seller's products are archived in the ban's own transaction, as part of the same fact. */
export function archiveBannedSellers(catalog: Pick<ProductsService, 'archiveAllOf'>): EventHandler<'user.banned'> {
  return {
    name: 'marketplace.archive-banned-seller',
    types: ['user.banned'],
    delivery: 'in-transaction',
    handle: async (event) => {
      if (event.subject.id) await catalog.archiveAllOf(event.subject.id);
    },
  };
}

/** A suspended or banned buyer's pending orders end as failed (after the commit, a job: idempotent). */
export function failSanctionedBuyersOrders(
  settlement: Pick<OrderSettlement, 'failPendingOf'>,
): EventHandler<'user.suspended' | 'user.banned'> {
  return {
    name: 'marketplace.fail-sanctioned-orders',
    types: ['user.suspended', 'user.banned'],
    handle: async (event) => {
      if (!event.subject.id) return;
      const why = event.type === 'user.banned' ? 'banned' : 'suspended';
      await settlement.failPendingOf(event.subject.id, `the buyer's account was ${why}`);
    },
  };
}
