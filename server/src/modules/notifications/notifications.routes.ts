import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { NotificationsService } from './notifications.service.js';

export function notificationsRoutes(notifications: NotificationsService) {
  return contractRoutes(contract.notifications, {
    list: async ({ query, req }) => ({ status: 200, body: ok(await notifications.list(signedInActor(req), query)) }),
    unreadCount: async ({ req }) => ({ status: 200, body: ok(await notifications.unreadCount(signedInActor(req))) }),
    markRead: async ({ body, req }) => ({
      status: 200,
      body: ok(await notifications.markRead(signedInActor(req), body)),
    }),
    remove: async ({ params, req }) => ({
      status: 200,
      body: ok(await notifications.remove(signedInActor(req), params.id)),
    }),
  });
}
