import type { UserActor } from '../../platform/access/actor.js';
import { isUuid } from './album-ids.js';
import type { SubsonicNode } from './rest-serializer.js';
import type { SubsonicCatalogue } from './subsonic-catalogue.js';
import type { CatalogueTrackRow, SubsonicCatalogueRepository } from './subsonic-catalogue.repository.js';

/** Ids looked up per statement (each is a bound parameter). */
const BATCH = 1000;

export interface SubsonicSongsDeps {
  repository: Pick<SubsonicCatalogueRepository, 'tracks'>;
  /** Creators' usernames by id (the users area's PeopleReader.names). */
  names(ids: readonly string[]): Promise<Map<string, { username: string }>>;
  catalogue: Pick<SubsonicCatalogue, 'songNode'>;
}

/** The caller's library's songs among some track ids, with their artists' names. */
export interface LibrarySongs {
  rows: Map<string, CatalogueTrackRow>;
  artists: Map<string, string>;
}

/**
 * Lists of songs that other areas hold (a playlist's entries, the play queue, shared tracks) as the
 * player sees them: only what is in the caller's library (subsonic-catalogue.ts), in the list's
 * order, each as the catalogue's song node.
 */
export class SubsonicSongs {
  constructor(private readonly deps: SubsonicSongsDeps) {}

  /** Those of `ids` in the caller's library (anything else, a malformed id included, is left out). */
  async find(actor: UserActor, ids: readonly string[]): Promise<LibrarySongs> {
    const unique = [...new Set(ids.filter((id) => isUuid(id)).map((id) => id.toLowerCase()))];
    const rows = new Map<string, CatalogueTrackRow>();
    for (let start = 0; start < unique.length; start += BATCH) {
      const found = await this.deps.repository.tracks(actor, { trackIds: unique.slice(start, start + BATCH) });
      for (const row of found) rows.set(row.id, row);
    }
    const people = await this.deps.names([...new Set([...rows.values()].map((row) => row.creator_id))]);
    const artists = new Map([...people].map(([id, person]) => [id, person.username]));
    // a song whose creator has no name to show is not shown (as the catalogue does)
    for (const [id, row] of rows) if (!artists.has(row.creator_id)) rows.delete(id);
    return { rows, artists };
  }

  /** The ids that are songs of the caller's library, in order (repeats kept). */
  async inLibrary(actor: UserActor, ids: readonly string[]): Promise<string[]> {
    const { rows } = await this.find(actor, ids);
    return ids.map((id) => id.toLowerCase()).filter((id) => rows.has(id));
  }

  /** The song nodes of `ids` that are in the library, in order. */
  nodes(actor: UserActor, ids: readonly string[], found: LibrarySongs): SubsonicNode[] {
    return ids.flatMap((id) => {
      const row = found.rows.get(id.toLowerCase());
      const artist = row && found.artists.get(row.creator_id);
      return row && artist !== undefined ? [this.deps.catalogue.songNode(actor, row, { artist })] : [];
    });
  }
}
