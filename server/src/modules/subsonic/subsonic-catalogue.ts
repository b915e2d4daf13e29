import type { UserActor } from '../../platform/access/actor.js';
import { CONTENT_TYPES } from '../tracks/audio-probe.js';
import { isUuid } from './album-ids.js';
import { notFoundError } from './rest-error.js';
import type { SubsonicNode } from './rest-serializer.js';
import type { AlbumOrder, CatalogueAlbumRow, SubsonicAlbumsRepository, Window } from './subsonic-albums.repository.js';
import type { CatalogueTrackRow, SubsonicCatalogueRepository, TrackFilter } from './subsonic-catalogue.repository.js';

/** Articles left out when artists are sorted and indexed (`ignoredArticles` tells apps, space separated). */
export const IGNORED_ARTICLES = ['The', 'El', 'La', 'Los', 'Las', 'Le', 'Les'] as const;

export interface CatalogueDeps {
  repository: SubsonicCatalogueRepository;
  albums: SubsonicAlbumsRepository;
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

/** An artist as the methods list it: a creator with their username and number of albums. */
export interface CatalogueArtist {
  id: string;
  name: string;
  albumCount: number;
}

/** An album of the library with its artist's name. */
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
    const rows = await this.deps.albums.artists(actor);
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
    const [row] = await this.deps.albums.artists(actor, id);
    const name = row && (await this.usernames([id])).get(id);
    if (!row || name === undefined) return undefined;
    const albums = (await this.deps.albums.ofCreator(actor, id)).map((album) => this.album(album, name));
    return { artist: { id, name, albumCount: row.album_count }, albums };
  }

  private album(row: CatalogueAlbumRow, artist: string): CatalogueAlbum {
    return { id: row.album_id, row, artist };
  }

  /** Rows as albums with their artists' names, in their order (an album whose artist has no name left out). */
  private async named(rows: readonly CatalogueAlbumRow[]): Promise<CatalogueAlbum[]> {
    const names = await this.usernames(rows.map((row) => row.creator_id));
    return rows.flatMap((row) => {
      const name = names.get(row.creator_id);
      return name === undefined ? [] : [this.album(row, name)];
    });
  }

  /** A page of the library's albums in one of getAlbumList2's orders. */
  async albumPage(actor: UserActor, order: AlbumOrder, window: Window): Promise<CatalogueAlbum[]> {
    return this.named(await this.deps.albums.page(actor, order, window));
  }

  /** `size` albums of the library drawn at random. */
  async randomAlbums(actor: UserActor, size: number): Promise<CatalogueAlbum[]> {
    return this.named(await this.deps.albums.random(actor, size));
  }

  /** Albums holding a song the caller liked (most recently liked first) or played (most or last played first). */
  async albumsActedOn(
    actor: UserActor,
    activity: 'liked' | 'frequent' | 'recent',
    window: Window,
  ): Promise<CatalogueAlbum[]> {
    const ids =
      activity === 'liked'
        ? await this.deps.albums.liked(actor, window)
        : await this.deps.albums.played(actor, activity, window);
    const rows = new Map((await this.deps.albums.byIds(actor, ids)).map((row) => [row.album_id, row]));
    return this.named(ids.flatMap((id) => rows.get(id) ?? []));
  }

  /** One album of the caller's library (undefined for any other id). */
  private async findAlbum(actor: UserActor, id: string): Promise<CatalogueAlbum | undefined> {
    if (!isUuid(id)) return undefined;
    const [album] = await this.named(await this.deps.albums.byIds(actor, [id]));
    return album;
  }

  /** One album and its songs; error 70 unless it is in the caller's library. */
  async albumWithSongs(actor: UserActor, id: string): Promise<{ album: CatalogueAlbum; songs: CatalogueTrackRow[] }> {
    const album = await this.findAlbum(actor, id);
    if (!album) throw notFoundError('Album');
    const songs = await this.deps.repository.tracks(actor, { albumId: album.id });
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
    const album = await this.findAlbum(actor, row.album_id);
    return this.songNode(actor, row, { artist, ...(album ? { album } : {}) });
  }

  /** A track of the caller's library, or undefined (a malformed id included). */
  async track(actor: UserActor, id: string): Promise<CatalogueTrackRow | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await this.deps.repository.tracks(actor, { trackId: id });
    return row;
  }

  /** The rows of the caller's library a filter picks, in its order. */
  trackRows(actor: UserActor, filter: TrackFilter): Promise<CatalogueTrackRow[]> {
    return this.deps.repository.tracks(actor, filter);
  }

  /** The songs of the caller's library a filter picks (random, by genre, by plays …), in its order, as nodes. */
  async songs(actor: UserActor, filter: TrackFilter): Promise<SubsonicNode[]> {
    return this.songNodes(actor, await this.deps.repository.tracks(actor, filter));
  }

  /** Song nodes of rows of the library, each with its artist's name (a row whose creator has none is left out). */
  async songNodes(actor: UserActor, rows: readonly CatalogueTrackRow[]): Promise<SubsonicNode[]> {
    const names = await this.usernames(rows.map((row) => row.creator_id));
    return rows.flatMap((row) => {
      const artist = names.get(row.creator_id);
      return artist === undefined ? [] : [this.songNode(actor, row, { artist })];
    });
  }

  /** Of these creators, the artists of the caller's library, in the order given. */
  async artistsAmong(actor: UserActor, ids: readonly string[]): Promise<CatalogueArtist[]> {
    const unique = [...new Set(ids.filter(isUuid))];
    const rows = new Map((await this.deps.albums.artists(actor, unique)).map((row) => [row.creator_id, row]));
    const names = await this.usernames([...rows.keys()]);
    return unique.flatMap((id) => {
      const row = rows.get(id);
      const name = names.get(id);
      return row && name !== undefined ? [{ id, name, albumCount: row.album_count }] : [];
    });
  }

  /** The creators the caller follows with albums in their library, by name. */
  async followedArtists(actor: UserActor): Promise<CatalogueArtist[]> {
    const rows = await this.deps.albums.followedArtists(actor);
    const names = await this.usernames(rows.map((row) => row.creator_id));
    return rows
      .flatMap((row) => {
        const name = names.get(row.creator_id);
        return name === undefined ? [] : [{ id: row.creator_id, name, albumCount: row.album_count }];
      })
      .sort((a, b) => sortName(a.name).localeCompare(sortName(b.name), 'en', { sensitivity: 'base' }));
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
    const text = query.trim();
    const [artists, albums] = await Promise.all([
      pages.artists.limit > 0 ? this.deps.albums.artistsNamed(actor, text, pages.artists) : [],
      pages.albums.limit > 0 ? this.deps.albums.named(actor, text, pages.albums).then((rows) => this.named(rows)) : [],
    ]);
    const songs = await this.searchSongs(actor, text, pages.songs);
    const names = await this.usernames(songs.map((song) => song.creator_id));
    return {
      artist: artists.map((artist) =>
        this.artistNode({ id: artist.creator_id, name: artist.username, albumCount: artist.album_count }),
      ),
      album: albums.map((album) => this.albumNode(album)),
      song: songs.flatMap((song) => {
        const artist = names.get(song.creator_id);
        return artist === undefined ? [] : [this.songNode(actor, song, { artist })];
      }),
    };
  }

  private async searchSongs(actor: UserActor, query: string, page: { limit: number; offset: number }) {
    if (page.limit === 0) return [];
    // the search reads as a listener (see the repository), and the library's rules then keep what a player may play
    const listener: UserActor = { ...actor, isAdmin: false, isStaff: false };
    const ids =
      query === ''
        ? await this.deps.repository.publishedOrder(actor, page)
        : await this.deps.searchTracks(listener, query, page);
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
    const album = context.album?.id ?? row.album_id;
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
