import type { Suggestion, Track, TrackSearchQuery } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import { invalidField } from '../../platform/errors/app-error.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { Searcher } from '../../platform/search/searcher.js';
import { toTrackDto } from './track.mapper.js';
import type { TrackSearchFilter, TrackSearchRepository } from './track-search.repository.js';

/** GET /tracks/search, and the tracks' part of GET /search and its suggestions. */
export class TrackSearchService implements Searcher<Track> {
  constructor(private readonly deps: { search: TrackSearchRepository; publicBaseUrl: string }) {}

  async searchTracks(actor: Actor, query: TrackSearchQuery) {
    if (query.bpm_min !== undefined && query.bpm_max !== undefined && query.bpm_min > query.bpm_max) {
      throw invalidField('bpm_min', 'must not be above bpm_max', query.bpm_min);
    }
    if (
      query.duration_min !== undefined &&
      query.duration_max !== undefined &&
      query.duration_min > query.duration_max
    ) {
      throw invalidField('duration_min', 'must not be above duration_max', query.duration_min);
    }
    const filter: TrackSearchFilter = {
      q: query.q,
      genre: query.genre,
      bpmMin: query.bpm_min,
      bpmMax: query.bpm_max,
      musicalKey: query.musical_key,
      durationMin: query.duration_min,
      durationMax: query.duration_max,
      sort: query.sort,
    };
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.search.search(actor, filter, window);
    return {
      tracks: rows.map((row) => toTrackDto(row, actor, this.deps.publicBaseUrl)),
      pagination: paginate(window, total),
    };
  }

  async search(actor: Actor, q: string, page: { page: number; limit: number }) {
    const { rows, total } = await this.deps.search.search(
      actor,
      { q, sort: 'relevance' },
      pageWindow(page.page, page.limit),
    );
    return { items: rows.map((row) => toTrackDto(row, actor, this.deps.publicBaseUrl)), total };
  }

  /**
   * The ids of the tracks matching `q`, best first, by offset (the Subsonic interface's search3 pages
   * so): the same engine and rules as search.
   */
  async matchingIds(actor: Actor, q: string, page: { limit: number; offset: number }): Promise<string[]> {
    const { rows } = await this.deps.search.search(actor, { q, sort: 'relevance' }, page);
    return rows.map((row) => row.id);
  }

  async suggest(actor: Actor, prefix: string, limit: number): Promise<Suggestion[]> {
    const [titles, artists] = await Promise.all([
      this.deps.search.titlesStartingWith(actor, prefix, limit),
      this.deps.search.artistsStartingWith(actor, prefix, limit),
    ]);
    return [
      ...titles.map((row) => ({ type: 'track' as const, ...row })),
      ...artists.map((row) => ({ type: 'artist' as const, ...row })),
    ];
  }
}
