import type { UserActor } from '../../platform/access/actor.js';
import type { CatalogueTrackRow } from './subsonic-catalogue.repository.js';
import type { SubsonicCatalogue } from './subsonic-catalogue.js';

/** How many of an artist's most played songs seed the search for similar ones. */
const SEEDS = 3;
/** How many similar tracks the social area is asked for, for each seed (its own maximum). */
const PER_SEED = 20;

export interface SimilarDeps {
  catalogue: SubsonicCatalogue;
  /**
   * The social area's recommendations (GET /tracks/{id}/recommendations): ids of the tracks like
   * this one, best first, as the caller may see them.
   */
  similarTracks(actor: UserActor, trackId: string, limit: number): Promise<string[]>;
}

/**
 * Songs like an artist's: Riff recommends by track (shared genres and tags, likes in common, tempo
 * and key), so the artist's SEEDS most played songs of the library seed it, and their similar tracks
 * are taken in turn (each seed's best first), without the seeds, then kept to the caller's library
 * (its rules: blocks, hidden content) in that order.
 */
export async function songsLikeArtist(
  deps: SimilarDeps,
  actor: UserActor,
  artistId: string,
): Promise<{ seeds: CatalogueTrackRow[]; similar: CatalogueTrackRow[] }> {
  const seeds = await deps.catalogue.trackRows(actor, {
    creatorId: artistId,
    order: 'plays',
    page: { limit: SEEDS, offset: 0 },
  });
  // the social area reads as any listener; what it finds passes the library's rules below
  const listener: UserActor = { ...actor, isAdmin: false, isStaff: false };
  const lists = await Promise.all(seeds.map((seed) => deps.similarTracks(listener, seed.id, PER_SEED)));
  const seen = new Set(seeds.map((seed) => seed.id));
  const ids: string[] = [];
  for (let rank = 0; rank < PER_SEED; rank++) {
    for (const list of lists) {
      const id = list[rank];
      if (id !== undefined && !seen.has(id)) {
        seen.add(id);
        ids.push(id);
      }
    }
  }
  const rows = new Map((await deps.catalogue.trackRows(actor, { trackIds: ids })).map((row) => [row.id, row]));
  return { seeds, similar: ids.flatMap((id) => rows.get(id) ?? []) };
}
