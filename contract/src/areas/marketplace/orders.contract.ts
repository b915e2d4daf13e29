/** Orders, payments, promo codes, refunds, invoices, downloads, reviews, seller stats (ADDENDUM Part 2 "Marketplace"). */
export const ordersContract = {};
