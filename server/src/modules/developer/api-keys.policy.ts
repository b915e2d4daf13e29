import type { UserActor } from '../../platform/access/actor.js';
import type { ApiKeyRow } from './api-keys.repository.js';

/** A key is its owner's alone: nobody else sees it exists (admins included: a key is a credential). */
export const canManageApiKey = (actor: UserActor, key: Pick<ApiKeyRow, 'user_id'>) => key.user_id === actor.id;
