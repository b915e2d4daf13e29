import type { RiffModule } from '../../platform/module.js';
import { searchRoutes } from './search.routes.js';
import { SearchService, type SearchSources } from './search.service.js';

export type SearchModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { search: SearchService };
};

/**
 * Search across areas: GET /search and GET /search/suggestions. The matching and the rules of who
 * sees what stay in each area (its searcher over the engine of platform/search); this module only
 * asks them all and puts the answers together.
 */
export function createSearchModule(sources: SearchSources): SearchModule {
  const search = new SearchService({ sources });
  return { name: 'search', routes: { search: searchRoutes(search) }, services: { search } };
}
