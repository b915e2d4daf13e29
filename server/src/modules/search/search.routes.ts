import { contract } from '@riff/contract';
import { actorOf } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { SearchService } from './search.service.js';

export function searchRoutes(search: SearchService) {
  return contractRoutes(contract.search, {
    search: async ({ query, req }) => ({ status: 200, body: ok(await search.search(actorOf(req), query)) }),
    suggestions: async ({ query, req }) => ({ status: 200, body: ok(await search.suggestions(actorOf(req), query)) }),
  });
}
