import type { MarketplaceParts } from './marketplace.parts.js';

/** The promo-codes part of contract.marketplace. */
export function promoCodeRoutes(_parts: MarketplaceParts) {
  return {};
}
