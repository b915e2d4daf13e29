import { initServer } from '@ts-rest/express';
import { ok } from '../../platform/http/envelope.js';
import { contract } from '@riff/contract';
import { principalOf } from '../../platform/auth/authenticate.middleware.js';
import { requestContext } from '../../platform/http/request-context.js';
import type { UsersService } from './users.service.js';
import { clearRefreshCookie } from '../auth/refresh-cookie.js';

const s = initServer();

export function usersRoutes(users: UsersService, options: { secureCookies: boolean }) {
  return s.router(contract.users, {
    list: async ({ query, req }) => ({ status: 200, body: ok(await users.list(query, req.principal?.user)) }),
    search: async ({ query, req }) => ({ status: 200, body: ok(await users.search(query, req.principal?.user)) }),
    suggestions: async ({ query, req }) => ({ status: 200, body: ok(await users.suggestions(principalOf(req).user, query.limit)) }),
    byUsername: async ({ params, req }) => ({ status: 200, body: ok(await users.getByUsername(params.username, req.principal?.user)) }),
    get: async ({ params, req }) => ({ status: 200, body: ok(await users.get(params.id, req.principal?.user)) }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await users.update(params.id, principalOf(req).user, body, requestContext(req))),
    }),
    remove: async ({ params, req, res }) => {
      const viewer = principalOf(req).user;
      const result = await users.deactivate(params.id, viewer, requestContext(req));
      if (params.id === viewer.id) clearRefreshCookie(res, options.secureCookies);
      return { status: 200, body: ok(result) };
    },
    completion: async ({ params, req }) => ({ status: 200, body: ok(await users.completion(params.id, principalOf(req).user)) }),
    follow: async ({ params, req }) => ({ status: 200, body: ok(await users.follow(params.id, principalOf(req).user, requestContext(req))) }),
    unfollow: async ({ params, req }) => ({ status: 200, body: ok(await users.unfollow(params.id, principalOf(req).user, requestContext(req))) }),
    followers: async ({ params, query, req }) => ({ status: 200, body: ok(await users.relations(params.id, 'followers', query, req.principal?.user)) }),
    following: async ({ params, query, req }) => ({ status: 200, body: ok(await users.relations(params.id, 'following', query, req.principal?.user)) }),
    block: async ({ params, req }) => ({ status: 200, body: ok(await users.block(params.id, principalOf(req).user, requestContext(req))) }),
    unblock: async ({ params, req }) => ({ status: 200, body: ok(await users.unblock(params.id, principalOf(req).user, requestContext(req))) }),
    upgradeCreator: async ({ req }) => ({ status: 200, body: ok(await users.upgradeToCreator(principalOf(req).user, requestContext(req))) }),
    privacyOptOut: async ({ req }) => ({ status: 200, body: ok(await users.optOutOfSale(principalOf(req).user, requestContext(req))) }),
    getPreferences: async ({ req }) => ({ status: 200, body: ok({ preferences: await users.preferencesOf(principalOf(req).user.id) }) }),
    updatePreferences: async ({ body, req }) => ({
      status: 200,
      body: ok(await users.updatePreferences(principalOf(req).user, body, requestContext(req))),
    }),
    exportData: async ({ req, res }) => {
      const document = await users.exportData(principalOf(req).user, requestContext(req));
      res.setHeader('Content-Disposition', `attachment; filename="riff-export-${document.exported_at.slice(0, 10)}.json"`);
      res.setHeader('Cache-Control', 'no-store');
      return { status: 200, body: document };
    },
    deleteAccount: async ({ body, req, res }) => {
      const result = await users.deleteAccount(principalOf(req).user, body, requestContext(req));
      clearRefreshCookie(res, options.secureCookies);
      return { status: 200, body: ok(result) };
    },
  });
}
