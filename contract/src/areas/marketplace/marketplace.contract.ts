import { ordersContract } from './orders.contract.js';
import { productsContract } from './products.contract.js';
import { promoCodesContract } from './promo-codes.contract.js';

/**
 * The marketplace. Replies are the objects themselves, not enveloped (lists are plain arrays with
 * their pagination in headers), as its published API has always answered; errors use the error
 * envelope as everywhere.
 */
export const marketplaceContract = { ...productsContract, ...ordersContract, ...promoCodesContract };
