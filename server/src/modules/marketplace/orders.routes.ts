import type { MarketplaceParts } from './marketplace.parts.js';

/** The orders part of contract.marketplace. */
export function orderRoutes(_parts: MarketplaceParts) {
  return {};
}
