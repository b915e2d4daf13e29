import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { AppPasswordsService } from './app-passwords.service.js';

export function appPasswordsRoutes(passwords: AppPasswordsService) {
  return contractRoutes(contract.subsonic, {
    listAppPasswords: async ({ req }) => ({ status: 200, body: ok(await passwords.list(signedInActor(req))) }),
    createAppPassword: async ({ body, req }) => ({
      status: 201,
      body: ok(await passwords.create(signedInActor(req), body)),
    }),
    revokeAppPassword: async ({ params, req }) => ({
      status: 200,
      body: ok(await passwords.revoke(signedInActor(req), params.id)),
    }),
  });
}
