import { contractRoutes } from '../../platform/http/contract-routes.js';
import { contract } from '@riff/contract';
import { unavailable } from '../../platform/errors/app-error.js';
import type { TokenSigner } from '../../platform/auth/token-signer.js';

export function systemRoutes(deps: { ping(): Promise<boolean>; signer: TokenSigner }) {
  return contractRoutes(contract.system, {
    health: async () => ({ status: 200, body: { status: 'ok' } }),
    ready: async () => {
      if (!(await deps.ping())) throw unavailable('The database does not answer', 2);
      return { status: 200, body: { status: 'ok' } };
    },
    jwks: async ({ res }) => {
      res.setHeader('Cache-Control', 'public, max-age=300');
      return { status: 200, body: deps.signer.jwks() };
    },
  });
}
