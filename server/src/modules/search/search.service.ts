import {
  searchTypesOf,
  type Playlist,
  type Product,
  type Profile,
  type SearchQuery,
  type SearchResponse,
  type SearchType,
  type Suggestion,
  type SuggestionsQuery,
  type Track,
} from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import type { SearchResult, Searcher } from '../../platform/search/searcher.js';

/** The areas GET /search reads, each through its own searcher (its rules, its shapes). */
export interface SearchSources {
  tracks: Searcher<Track>;
  users: Searcher<Profile>;
  playlists: Searcher<Playlist>;
  products: Searcher<Product>;
}

const nothing: SearchResult<never> = { items: [], total: 0 };

/** Case and accents aside, as the engine compares (for ordering suggestions of several kinds). */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export interface SearchServiceDeps {
  sources: SearchSources;
}

/** GET /search and GET /search/suggestions over every area's searcher. */
export class SearchService {
  constructor(private readonly deps: SearchServiceDeps) {}

  async search(actor: Actor, query: SearchQuery): Promise<SearchResponse> {
    const wanted = new Set<SearchType>(searchTypesOf(query.type));
    const page = { page: query.page, limit: query.limit };
    const run = <T>(type: SearchType, searcher: Searcher<T>) =>
      wanted.has(type) ? searcher.search(actor, query.q, page) : Promise.resolve(nothing);
    const [tracks, users, playlists, products] = await Promise.all([
      run('tracks', this.deps.sources.tracks),
      run('users', this.deps.sources.users),
      run('playlists', this.deps.sources.playlists),
      run('products', this.deps.sources.products),
    ]);
    return {
      query: query.q.replace(/\s+/g, ' '),
      results: { tracks: tracks.items, users: users.items, playlists: playlists.items, products: products.items },
      totals: { tracks: tracks.total, users: users.total, playlists: playlists.total, products: products.total },
    };
  }

  /** Each kind's first matches from its prefix index, merged: what equals q first, then the shortest, then in order. */
  async suggestions(actor: Actor, query: SuggestionsQuery): Promise<{ suggestions: Suggestion[] }> {
    const { tracks, users, playlists } = this.deps.sources;
    const found = (
      await Promise.all([tracks, users, playlists].map((source) => source.suggest(actor, query.q, query.limit)))
    ).flat();
    const typed = folded(query.q);
    const key = (suggestion: Suggestion) => folded(suggestion.text);
    const ranked = found.sort(
      (a, b) =>
        Number(key(b) === typed) - Number(key(a) === typed) ||
        key(a).length - key(b).length ||
        key(a).localeCompare(key(b)) ||
        a.type.localeCompare(b.type) ||
        a.id.localeCompare(b.id),
    );
    return { suggestions: ranked.slice(0, query.limit) };
  }
}
