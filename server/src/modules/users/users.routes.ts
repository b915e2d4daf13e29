import { contractRoutes } from '../../platform/http/contract-routes.js';
import { contract } from '@riff/contract';
import { isOwner } from '../../platform/access/ownership.js';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import { clearRefreshCookie } from '../../platform/auth/refresh-cookie.js';
import { ok } from '../../platform/http/envelope.js';
import type { AccountLifecycleService } from './account-lifecycle.service.js';
import type { FollowsService } from './follows.service.js';
import type { PreferencesService } from './preferences.service.js';
import type { ProfilesService } from './profiles.service.js';
import { buffer } from 'node:stream/consumers';
import { validationFailed } from '../../platform/errors/app-error.js';
import { parseMultipart } from '../../platform/http/multipart.js';

/** An avatar upload is at most 10 MiB. */
const AVATAR_MAX_BYTES = 10 * 1024 * 1024;

export interface UsersRoutesDeps {
  profiles: ProfilesService;
  follows: FollowsService;
  preferences: PreferencesService;
  accounts: AccountLifecycleService;
}

export function usersRoutes(
  { profiles, follows, preferences, accounts }: UsersRoutesDeps,
  options: { secureCookies: boolean },
) {
  return contractRoutes(contract.users, {
    list: async ({ query, req }) => ({ status: 200, body: ok(await profiles.list(actorOf(req), query)) }),
    search: async ({ query, req }) => ({ status: 200, body: ok(await profiles.search(actorOf(req), query)) }),
    suggestions: async ({ query, req }) => ({
      status: 200,
      body: ok(await profiles.suggestions(signedInActor(req), query.limit)),
    }),
    byUsername: async ({ params, req }) => ({
      status: 200,
      body: ok(await profiles.getByUsername(actorOf(req), params.username)),
    }),
    get: async ({ params, req }) => ({ status: 200, body: ok(await profiles.get(actorOf(req), params.id)) }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await profiles.update(signedInActor(req), params.id, body)),
    }),
    remove: async ({ params, req, res }) => {
      const actor = signedInActor(req);
      const result = await accounts.deactivate(actor, params.id);
      if (isOwner(actor, params.id)) clearRefreshCookie(res, options.secureCookies);
      return { status: 200, body: ok(result) };
    },
    setAvatar: async ({ req }) => {
      const actor = signedInActor(req);
      const { file } = await parseMultipart(req, {
        fileField: 'file',
        maxFileBytes: AVATAR_MAX_BYTES,
        onFile: (stream) => buffer(stream),
      });
      if (!file) throw validationFailed('Send the image in the field "file"');
      return { status: 200, body: ok(await profiles.setAvatar(actor, file)) };
    },
    removeAvatar: async ({ req }) => ({ status: 200, body: ok(await profiles.removeAvatar(signedInActor(req))) }),
    avatar: async ({ params, query, req, res }) => {
      const image = await profiles.avatar(actorOf(req), params.id, query.size);
      res.setHeader('Content-Type', image.contentType);
      res.setHeader('Cache-Control', 'private, max-age=60');
      image.body.on('error', () => res.destroy());
      return { status: 200, body: image.body };
    },
    completion: async ({ params, req }) => ({
      status: 200,
      body: ok(await profiles.completion(signedInActor(req), params.id)),
    }),
    follow: async ({ params, req }) => ({ status: 200, body: ok(await follows.follow(signedInActor(req), params.id)) }),
    unfollow: async ({ params, req }) => ({
      status: 200,
      body: ok(await follows.unfollow(signedInActor(req), params.id)),
    }),
    followers: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await follows.relations(actorOf(req), params.id, 'followers', query)),
    }),
    following: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await follows.relations(actorOf(req), params.id, 'following', query)),
    }),
    block: async ({ params, req }) => ({ status: 200, body: ok(await follows.block(signedInActor(req), params.id)) }),
    unblock: async ({ params, req }) => ({
      status: 200,
      body: ok(await follows.unblock(signedInActor(req), params.id)),
    }),
    upgradeCreator: async ({ req }) => ({ status: 200, body: ok(await profiles.upgradeToCreator(signedInActor(req))) }),
    privacyOptOut: async ({ req }) => ({ status: 200, body: ok(await preferences.optOutOfSale(signedInActor(req))) }),
    getPreferences: async ({ req }) => ({ status: 200, body: ok(await preferences.preferences(signedInActor(req))) }),
    updatePreferences: async ({ body, req }) => ({
      status: 200,
      body: ok(await preferences.updatePreferences(signedInActor(req), body)),
    }),
    exportData: async ({ req, res }) => {
      const document = await accounts.exportData(signedInActor(req));
      res.setHeader(
        'Content-Disposition',
        `attachment; filename="riff-export-${document.exported_at.slice(0, 10)}.json"`,
      );
      res.setHeader('Cache-Control', 'no-store');
      return { status: 200, body: document };
    },
    deleteAccount: async ({ body, req, res }) => {
      const result = await accounts.deleteAccount(signedInActor(req), body);
      clearRefreshCookie(res, options.secureCookies);
      return { status: 200, body: ok(result) };
    },
  });
}
