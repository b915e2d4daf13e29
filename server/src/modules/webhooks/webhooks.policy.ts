import type { UserActor } from '../../platform/access/actor.js';
import { isOwner } from '../../platform/access/ownership.js';
import type { WebhookRow } from './webhooks.repository.js';

/** A webhook is its owner's alone (admins included: it holds their secrets); for anyone else it does not exist (404). */
export function canUseWebhook(actor: UserActor, webhook: Pick<WebhookRow, 'user_id'>): boolean {
  return isOwner(actor, webhook.user_id);
}
