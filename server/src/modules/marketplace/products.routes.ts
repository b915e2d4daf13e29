import type { MarketplaceParts } from './marketplace.parts.js';

/** The products part of contract.marketplace. */
export function productRoutes(_parts: MarketplaceParts) {
  return {};
}
