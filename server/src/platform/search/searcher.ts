import type { Suggestion } from '@riff/contract';
import type { Actor } from '../access/actor.js';

/** One page of a search: what the caller may see among the matches, best first, and how many match. */
export interface SearchResult<T> {
  items: T[];
  total: number;
}

/**
 * What an area gives GET /search and GET /search/suggestions (the search module): its own
 * matches through the engine (text-search.ts), under its own visibility rules, in its own shapes.
 */
export interface Searcher<T> {
  search(actor: Actor, q: string, page: { page: number; limit: number }): Promise<SearchResult<T>>;
  /** Public names starting with `prefix` (normal form), shortest first, each read from a prefix index. */
  suggest(actor: Actor, prefix: string, limit: number): Promise<Suggestion[]>;
}
