/** Promo codes of a seller (ADDENDUM Part 2 "Marketplace"). */
export const promoCodesContract = {};
