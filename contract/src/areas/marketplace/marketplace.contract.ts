import { ordersContract } from './orders.contract.js';
import { productsContract } from './products.contract.js';
import { promoCodesContract } from './promo-codes.contract.js';

/**
 * The marketplace. Replies are the objects themselves, not enveloped (SPEC's marketplace table;
 * ADDENDUM Part 2 "Marketplace"); errors use the error envelope as everywhere.
 */
export const marketplaceContract = { ...productsContract, ...ordersContract, ...promoCodesContract };
