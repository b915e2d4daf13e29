import type { UserActor } from '../../platform/access/actor.js';
import { CONTENT_TYPES } from '../tracks/audio-probe.js';
import { albumId, isUuid } from './album-ids.js';
import { notFoundError } from './rest-error.js';
import type { SubsonicNode } from './rest-serializer.js';
import type {
  CatalogueAlbumRow,
  CatalogueTrackRow,
  SubsonicCatalogueRepository,
} from './subsonic-catalogue.repository.js';

/** Articles left out when artists are sorted and indexed (`ignoredArticles` tells apps, space separated). */
export const IGNORED_ARTICLES = ['The', 'El', 'La', 'Los', 'Las', 'Le', 'Les'] as const;

export interface CatalogueDeps {
  repository: SubsonicCatalogueRepository;
  /** Creators' usernames by id (the users area's PeopleReader.names). */
  names(ids: readonly string[]): Promise<Map<string, { username: string }>>;
  /** The tracks area's search (the JSON API's engine): ids of the tracks matching `q`, best first. */
  searchTracks(actor: UserActor, q: string, page: { limit: number; offset: number }): Promise<string[]>;
}

/** How many of each kind search3 answers, from where. */
export interface SearchPages {
  artists: { limit: number; offset: number };
  albums: { limit: number; offset: number };
  songs: { limit: number; offset: number };
}

const folded = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en');

/** An artist as the methods list it: a creator with their username and number of albums. */
export interface CatalogueArtist {
  id: string;
  name: string;
  albumCount: number;
}

/** An album of the library, its id computed, with its artist's name. */
export interface CatalogueAlbum {
  id: string;
  row: CatalogueAlbumRow;
  artist: string;
}

const iso = (date: Date) => date.toISOString();

/** OpenSubsonic's `genres` (ItemGenre): each genre once, in the order given, blanks left out. */
const itemGenres = (names: readonly (string | null | undefined)[]) => {
  const unique = [...new Set(names.map((name) => name?.trim() ?? '').filter((name) => name !== ''))];
  return unique.map((name) => ({ name }));
};

/** The name an artist is sorted and indexed by: without a leading ignored article. */
export function sortName(name: string): string {
  for (const article of IGNORED_ARTICLES) {
    if (name.length > article.length + 1 && name.toLowerCase().startsWith(`${article.toLowerCase()} `)) {
      return name.slice(article.length + 1).trimStart();
    }
  }
  return name;
}

/** The index an artist is filed under: the first letter of its sort name, upper case; `#` for anything else. */
export function indexName(name: string): string {
  const first = [...sortName(name)][0] ?? '';
  return /\p{L}/u.test(first) ? first.toLocaleUpperCase('en') : '#';
}

/** Artists filed by index, letters in order then `#`, each index's artists by sort name. */
export function byIndex<T extends { name: string }>(artists: readonly T[]): { name: string; artist: T[] }[] {
  const groups = new Map<string, T[]>();
  const sorted = [...artists].sort((a, b) =>
    sortName(a.name).localeCompare(sortName(b.name), 'en', { sensitivity: 'base' }),
  );
  for (const artist of sorted) {
    const key = indexName(artist.name);
    const list = groups.get(key);
    if (list) list.push(artist);
    else groups.set(key, [artist]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === '#' ? 1 : b === '#' ? -1 : a.localeCompare(b, 'en')))
    .map(([name, artist]) => ({ name, artist }));
}

/**
 * Riff's tracks as Subsonic's catalogue, in one place. Artists are the creators with tracks in the
 * caller's library (id: the user id, name: the username); a creator's albums are the distinct album
 * tags of their tracks, compared trimmed and in any case, and a track without one is a single, an
 * album of its own named after it; album ids are UUID v5 (album-ids.ts). Songs are the tracks, in
 * the order they were published within their album. Cover art ids: a song's is the track id, an
 * album's the album id (getCoverArt takes both).
 */
export class SubsonicCatalogue {
  constructor(private readonly deps: CatalogueDeps) {}

  private async usernames(ids: readonly string[]): Promise<Map<string, string>> {
    const names = await this.deps.names([...new Set(ids)]);
    return new Map([...names].map(([id, person]) => [id, person.username]));
  }

  /** Every artist of the caller's library. */
  async artists(actor: UserActor): Promise<CatalogueArtist[]> {
    const rows = await this.deps.repository.artists(actor);
    const names = await this.usernames(rows.map((row) => row.creator_id));
    return rows.flatMap((row) => {
      const name = names.get(row.creator_id);
      return name === undefined ? [] : [{ id: row.creator_id, name, albumCount: row.album_count }];
    });
  }

  /** One artist and their albums; error 70 unless they have tracks in the caller's library. */
  async artist(actor: UserActor, id: string): Promise<{ artist: CatalogueArtist; albums: CatalogueAlbum[] }> {
    const found = isUuid(id) ? await this.findArtist(actor, id) : undefined;
    if (!found) throw notFoundError('Artist');
    return found;
  }

  private async findArtist(actor: UserActor, id: string) {
    const [row] = await this.deps.repository.artists(actor, id);
    const name = row && (await this.usernames([id])).get(id);
    if (!row || name === undefined) return undefined;
    const albums = (await this.deps.repository.albums(actor, id)).map((album) => this.album(album, name));
    return { artist: { id, name, albumCount: row.album_count }, albums };
  }

  private album(row: CatalogueAlbumRow, artist: string): CatalogueAlbum {
    return { id: albumId(row.creator_id, row.album_key, row.single_id ?? ''), row, artist };
  }

  /** The albums of the caller's library (every creator's), oldest first. */
  async albums(actor: UserActor): Promise<CatalogueAlbum[]> {
    const rows = await this.deps.repository.albums(actor);
    const names = await this.usernames(rows.map((row) => row.creator_id));
    return rows.flatMap((row) => {
      const name = names.get(row.creator_id);
      return name === undefined ? [] : [this.album(row, name)];
    });
  }

  /** One album and its songs; error 70 unless it is in the caller's library. */
  async albumWithSongs(actor: UserActor, id: string): Promise<{ album: CatalogueAlbum; songs: CatalogueTrackRow[] }> {
    // an album id is a hash: the album is found among the library's (there is no column to look it up by)
    const album = isUuid(id) ? (await this.albums(actor)).find((candidate) => candidate.id === id) : undefined;
    if (!album) throw notFoundError('Album');
    const { row } = album;
    const songs = await this.deps.repository.tracks(
      actor,
      row.single_id !== null ? { trackId: row.single_id } : { creatorId: row.creator_id, albumKey: row.album_key },
    );
    if (songs.length === 0) throw notFoundError('Album');
    return { album, songs };
  }

  /** One song of the caller's library; error 70 otherwise. */
  async song(actor: UserActor, id: string): Promise<SubsonicNode> {
    const [row] = isUuid(id) ? await this.deps.repository.tracks(actor, { trackId: id }) : [];
    if (!row) throw notFoundError('Song');
    const artist = (await this.usernames([row.creator_id])).get(row.creator_id);
    if (artist === undefined) throw notFoundError('Song');
    // its album as getAlbum shows it (its name is the one its first track gives it)
    const ownAlbum = albumId(row.creator_id, row.album_key, row.id);
    const album = (await this.deps.repository.albums(actor, row.creator_id))
      .map((candidate) => this.album(candidate, artist))
      .find((candidate) => candidate.id === ownAlbum);
    return this.songNode(actor, row, { artist, ...(album ? { album } : {}) });
  }

  /** The genres of the caller's library with their songs and albums. */
  genres(actor: UserActor) {
    return this.deps.repository.genres(actor);
  }

  /** When the caller's library last changed, in ms (0 when empty). */
  async lastModified(actor: UserActor): Promise<number> {
    return (await this.deps.repository.lastModified(actor))?.getTime() ?? 0;
  }

  /**
   * search3: artists and albums whose name holds the query (in any case and accents), songs as the
   * tracks area's search finds them, each kind paged by its own offset. An empty query lists
   * everything (offline-sync apps page through the whole library so): artists and albums by name,
   * songs in the order they were published.
   */
  async search(actor: UserActor, query: string, pages: SearchPages): Promise<SubsonicNode> {
    const q = folded(query);
    const page = <T>(items: T[], window: { limit: number; offset: number }) =>
      items.slice(window.offset, window.offset + window.limit);
    const [artists, albums] = await Promise.all([
      pages.artists.limit > 0 ? this.artists(actor) : [],
      pages.albums.limit > 0 ? this.albums(actor) : [],
    ]);
    const matchedArtists = artists
      .filter((artist) => folded(artist.name).includes(q))
      .sort((a, b) => sortName(a.name).localeCompare(sortName(b.name), 'en', { sensitivity: 'base' }));
    const matchedAlbums = albums
      .filter((album) => folded(album.row.name).includes(q))
      .sort((a, b) => a.row.name.localeCompare(b.row.name, 'en', { sensitivity: 'base' }));
    const songs = await this.searchSongs(actor, query.trim(), pages.songs);
    const names = await this.usernames(songs.map((song) => song.creator_id));
    return {
      artist: page(matchedArtists, pages.artists).map((artist) => this.artistNode(artist)),
      album: page(matchedAlbums, pages.albums).map((album) => this.albumNode(album)),
      song: songs.flatMap((song) => {
        const artist = names.get(song.creator_id);
        return artist === undefined ? [] : [this.songNode(actor, song, { artist })];
      }),
    };
  }

  private async searchSongs(actor: UserActor, query: string, page: { limit: number; offset: number }) {
    if (page.limit === 0) return [];
    if (query === '') return this.deps.repository.tracks(actor, { page });
    // the search reads as a listener (see the repository), and the library's rules then keep what a player may play
    const listener: UserActor = { ...actor, isAdmin: false, isStaff: false };
    const ids = await this.deps.searchTracks(listener, query, page);
    const rows = new Map((await this.deps.repository.tracks(actor, { trackIds: ids })).map((row) => [row.id, row]));
    return ids.flatMap((id) => rows.get(id) ?? []);
  }

  // ---- nodes, in the XSD's order

  /** ArtistID3 (getArtists, getArtist). */
  artistNode(artist: CatalogueArtist): SubsonicNode {
    return { id: artist.id, name: artist.name, albumCount: artist.albumCount };
  }

  /** AlbumID3 (getArtist, getAlbum, getAlbumList2). */
  albumNode(album: CatalogueAlbum): SubsonicNode {
    const { row } = album;
    return {
      id: album.id,
      name: row.name,
      artist: album.artist,
      artistId: row.creator_id,
      coverArt: album.id,
      songCount: row.song_count,
      duration: row.duration,
      created: iso(row.created),
      year: row.year ?? undefined,
      genre: row.genre ?? undefined,
      genres: itemGenres([row.genre]),
    };
  }

  /** An album as a directory entry of its artist (getMusicDirectory of an artist). */
  albumChild(album: CatalogueAlbum): SubsonicNode {
    const { row } = album;
    return {
      id: album.id,
      parent: row.creator_id,
      isDir: true,
      title: row.name,
      album: row.name,
      artist: album.artist,
      year: row.year ?? undefined,
      genre: row.genre ?? undefined,
      coverArt: album.id,
      duration: row.duration,
      created: iso(row.created),
      albumId: album.id,
      artistId: row.creator_id,
    };
  }

  /**
   * A song (Child). `track` is its place in its album when listed there; playCount is shown to the
   * track's owner only, as the API shows it; starred is when the caller liked it; userRating the
   * caller's setRating (Riff itself has no ratings).
   */
  songNode(
    actor: UserActor,
    row: CatalogueTrackRow,
    context: { artist: string; album?: CatalogueAlbum; track?: number },
  ): SubsonicNode {
    const album = context.album?.id ?? albumId(row.creator_id, row.album_key, row.id);
    const albumName = context.album?.row.name ?? (row.album_key === null ? row.title : (row.album ?? '').trim());
    return {
      id: row.id,
      parent: album,
      isDir: false,
      title: row.title,
      album: albumName,
      artist: context.artist,
      track: context.track,
      year: row.year ?? undefined,
      genre: row.genre?.trim() || undefined,
      coverArt: row.id,
      size: Number(row.file_size),
      contentType: CONTENT_TYPES[row.format],
      suffix: row.format,
      duration: Math.round(row.duration),
      bitRate: row.bitrate ?? undefined,
      userRating: row.user_rating ?? undefined,
      playCount: row.creator_id === actor.id ? Number(row.play_count) : undefined,
      created: iso(row.created_at),
      starred: row.liked_at ? iso(row.liked_at) : undefined,
      albumId: album,
      artistId: row.creator_id,
      type: 'music',
      bpm: row.bpm ?? undefined,
      mediaType: 'song',
      genres: itemGenres([row.genre, ...(row.genres ?? [])]),
    };
  }

  /** getMusicDirectory: an artist id lists their albums as directories, an album id its songs; error 70 otherwise. */
  async directory(actor: UserActor, id: string): Promise<SubsonicNode> {
    if (!isUuid(id)) throw notFoundError('Directory');
    const artist = await this.findArtist(actor, id);
    if (artist) {
      return { id, name: artist.artist.name, child: artist.albums.map((album) => this.albumChild(album)) };
    }
    const { album, songs } = await this.albumWithSongs(actor, id);
    return {
      id: album.id,
      parent: album.row.creator_id,
      name: album.row.name,
      child: songs.map((song, index) => this.songNode(actor, song, { artist: album.artist, album, track: index + 1 })),
    };
  }
}
