import type { ProductStatus } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import { moderatedReachOf, moderationAllows, type ModeratedReach } from '../../platform/access/moderation.js';
import { isOwner, isOwnerOrAdmin } from '../../platform/access/ownership.js';
import type { ProductRow } from './products.repository.js';

/** Whether moderation withholds the product from the actor: for them it does not exist (404), on sale or not. */
export const productWithheld = (actor: Actor, product: Pick<ProductRow, 'seller_id' | 'moderation_status'>) =>
  !moderationAllows(actor, product.moderation_status, product.seller_id);

/**
 * Active products are seen by everyone; drafts and archived ones by their seller (and admins). A
 * product hidden or removed by moderation is its seller's and staff's alone.
 */
export const canSeeProduct = (actor: Actor, product: Pick<ProductRow, 'status' | 'seller_id' | 'moderation_status'>) =>
  !productWithheld(actor, product) && (product.status === 'active' || isOwnerOrAdmin(actor, product.seller_id));

/**
 * canSeeProduct's moderation part for lists: whose hidden or removed products the actor sees beside
 * everyone's visible ones. Every catalogue list and search, and its total, leaves the others out.
 */
export const productListReach = (actor: Actor): ModeratedReach => moderatedReachOf(actor);

/** Only the seller changes a product, its licenses and its media. */
export const canEditProduct = (actor: Actor, product: Pick<ProductRow, 'seller_id'>) =>
  isOwner(actor, product.seller_id);

/** The status moves a product may make; any other is 400 INVALID_TRANSITION. */
const MOVES: Record<ProductStatus, readonly ProductStatus[]> = {
  draft: ['active', 'archived'],
  active: ['archived'],
  archived: ['active'],
};

export const canMoveProduct = (from: ProductStatus, to: ProductStatus) => from === to || MOVES[from].includes(to);
