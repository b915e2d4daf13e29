import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { PlaysService } from '../social/plays.service.js';
import type { SocialService } from '../social/social.service.js';
import type { FollowsService } from '../users/follows.service.js';
import { isUuid } from './album-ids.js';
import { SUBSONIC_ERROR, SubsonicError, notFoundError } from './rest-error.js';
import type { SubsonicNode } from './rest-serializer.js';
import type { SubsonicAnnotationsRepository } from './subsonic-annotations.repository.js';
import type { CatalogueTrackRow, SubsonicCatalogueRepository } from './subsonic-catalogue.repository.js';
import type { SubsonicCatalogue } from './subsonic-catalogue.js';

/**
 * How long after a track's end "now playing" still shows it: a player that paused, buffered or lost
 * its network for a while is still playing it; one that went away without a word stops showing then.
 */
export const NOW_PLAYING_MARGIN_MS = 5 * 60 * 1000;

/** At most this many artists, albums and songs in getStarred2 each (Subsonic does not page it). */
export const STARRED_MAX = 1_000;

export interface AnnotationsDeps {
  catalogue: SubsonicCatalogue;
  /** The catalogue's SQL: what is in the caller's library. */
  library: SubsonicCatalogueRepository;
  annotations: SubsonicAnnotationsRepository;
  /** Usernames by id (the users area's PeopleReader.names). */
  names(ids: readonly string[]): Promise<Map<string, { username: string }>>;
  /** The social area's likes: a star is a like, with its events, notifications and webhooks. */
  social: Pick<SocialService, 'like' | 'unlike'>;
  /** The social area's plays: a scrobble is a play. */
  plays: Pick<PlaysService, 'play'>;
  /** The users area's follows: starring an artist follows the creator. */
  follows: Pick<FollowsService, 'follow' | 'unfollow'>;
  clock: Clock;
}

/** What star and unstar are asked about: `id` (a song, or an album or artist of folder-based apps), `albumId`, `artistId`. */
export interface StarTargets {
  ids: readonly string[];
  albumIds: readonly string[];
  artistIds: readonly string[];
}

/** An item of the caller's library, as setRating and star find it by id. */
type LibraryItem =
  | { type: 'song'; id: string }
  | { type: 'artist'; id: string }
  | { type: 'album'; id: string; songs: string[] };

/**
 * Subsonic's media annotations over Riff: a star is a like (of a song, of each song of an album) or
 * a follow (of an artist), done through the social and users areas' services so that they are the
 * same likes and follows as the API's; a scrobble is a play (source `subsonic`) or, before it
 * counts, "now playing"; ratings, which Riff has not, are the subsonic area's own. Only what the
 * caller's library holds may be starred, rated or scrobbled (else error 70).
 */
export class SubsonicAnnotations {
  constructor(private readonly deps: AnnotationsDeps) {}

  private async usernames(ids: readonly string[]): Promise<Map<string, string>> {
    const names = await this.deps.names([...new Set(ids)]);
    return new Map([...names].map(([id, person]) => [id, person.username]));
  }

  /** Songs of the caller's library, in the order asked; error 70 if any is not there. */
  private async songs(actor: UserActor, ids: readonly string[]): Promise<CatalogueTrackRow[]> {
    const unique = [...new Set(ids)];
    if (unique.some((id) => !isUuid(id))) throw notFoundError('Song');
    const rows = new Map((await this.deps.library.tracks(actor, { trackIds: unique })).map((row) => [row.id, row]));
    return unique.map((id) => {
      const row = rows.get(id);
      if (!row) throw notFoundError('Song');
      return row;
    });
  }

  private async isArtist(actor: UserActor, id: string): Promise<boolean> {
    return isUuid(id) && (await this.deps.catalogue.artistsAmong(actor, [id])).length > 0;
  }

  /** The song ids of one album of the caller's library; undefined when it is not one. */
  private async albumSongs(actor: UserActor, id: string): Promise<string[] | undefined> {
    if (!isUuid(id)) return undefined;
    try {
      return (await this.deps.catalogue.albumWithSongs(actor, id)).songs.map((song) => song.id);
    } catch (error) {
      if (error instanceof SubsonicError && error.code === SUBSONIC_ERROR.notFound) return undefined;
      throw error;
    }
  }

  /** A song, an artist or an album of the caller's library by its id (ids of the three never collide: UUIDs). */
  private async item(actor: UserActor, id: string): Promise<LibraryItem | undefined> {
    if (!isUuid(id)) return undefined;
    if ((await this.deps.library.tracks(actor, { trackId: id })).length > 0) return { type: 'song', id };
    if (await this.isArtist(actor, id)) return { type: 'artist', id };
    const songs = await this.albumSongs(actor, id);
    return songs && { type: 'album', id, songs };
  }

  /**
   * star: likes each song (of `id`, and of each album), follows each artist. Everything is checked
   * before anything changes: one id the caller may not see (error 70) stars nothing. A song already
   * liked, an artist already followed, stays so.
   */
  async star(actor: UserActor, targets: StarTargets): Promise<void> {
    const { songs, artists } = await this.resolve(actor, targets);
    if (artists.has(actor.id)) {
      throw new SubsonicError(SUBSONIC_ERROR.generic, 'Starring an artist follows them: you cannot follow yourself');
    }
    for (const id of songs) await this.deps.social.like(actor, id);
    for (const id of artists) await this.deps.follows.follow(actor, id);
  }

  /**
   * unstar: the reverse. A song liked before it left the caller's library (made private since) may
   * still be unstarred by its id, as the API lets its like be removed; an artist may be unfollowed
   * whatever their songs.
   */
  async unstar(actor: UserActor, targets: StarTargets): Promise<void> {
    const songs = new Set<string>();
    const artists = new Set<string>(targets.artistIds.filter(isUuid));
    const elsewhere: string[] = [];
    if (targets.artistIds.some((id) => !isUuid(id))) throw notFoundError('Artist');
    for (const id of targets.ids) {
      const item = await this.item(actor, id);
      if (!item && !isUuid(id)) throw notFoundError('Song');
      if (!item) elsewhere.push(id);
      else if (item.type === 'song') songs.add(item.id);
      else if (item.type === 'artist') artists.add(item.id);
      else for (const song of item.songs) songs.add(song);
    }
    await this.addAlbumSongs(actor, targets.albumIds, songs);
    for (const id of songs) await this.deps.social.unlike(actor, id);
    // the social area's rule says whether a like outside the library may go (its 404 is error 70)
    for (const id of elsewhere) await this.deps.social.unlike(actor, id);
    for (const id of artists) await this.deps.follows.unfollow(actor, id);
  }

  /** Adds the songs of each album (of the caller's library; error 70 otherwise) to `songs`. */
  private async addAlbumSongs(actor: UserActor, albumIds: readonly string[], songs: Set<string>): Promise<void> {
    for (const id of albumIds) {
      const album = await this.albumSongs(actor, id);
      if (!album) throw notFoundError('Album');
      for (const song of album) songs.add(song);
    }
  }

  /** The songs and artists star names, each of the caller's library; error 70 otherwise. */
  private async resolve(actor: UserActor, targets: StarTargets) {
    const songs = new Set<string>();
    const artists = new Set<string>();
    for (const id of targets.ids) {
      const item = await this.item(actor, id);
      if (!item) throw notFoundError('Song');
      if (item.type === 'song') songs.add(item.id);
      else if (item.type === 'artist') artists.add(item.id);
      else for (const song of item.songs) songs.add(song);
    }
    await this.addAlbumSongs(actor, targets.albumIds, songs);
    for (const id of targets.artistIds) {
      if (!(await this.isArtist(actor, id))) throw notFoundError('Artist');
      artists.add(id);
    }
    return { songs, artists };
  }

  /** setRating: 1–5 sets the caller's rating of a song, album or artist of their library, 0 removes it. */
  async rate(actor: UserActor, id: string, rating: number): Promise<void> {
    const item = await this.item(actor, id);
    if (!item) throw notFoundError('Item');
    if (rating === 0) await this.deps.annotations.unrate(actor.id, item.id);
    else await this.deps.annotations.rate(actor.id, { id: item.id, type: item.type }, rating, this.deps.clock.now());
  }

  /**
   * scrobble with submission: each song counts as a play of its whole length with source
   * `subsonic`, through the social area (its rules: once per listener and track per 30 minutes,
   * the listening history unless the user turned it off, the plays budget). The play is counted
   * when it is reported: the social area dates plays itself, so `time` is not used for that.
   */
  async scrobble(actor: UserActor, ids: readonly string[]): Promise<void> {
    for (const song of await this.songs(actor, ids)) {
      await this.deps.plays.play(actor, song.id, { duration_listened: song.duration, source: 'subsonic' });
    }
  }

  /**
   * scrobble without submission: the caller's player now plays this song (it replaces what it
   * played). It shows to the caller's followers until the song's end and NOW_PLAYING_MARGIN_MS.
   * `startedAt` (the app's `time`) is taken within the song's length before now, else now.
   */
  async nowPlaying(actor: UserActor, id: string, client: string, startedAt?: number): Promise<void> {
    const [song] = await this.songs(actor, [id]);
    const now = this.deps.clock.now().getTime();
    const lengthMs = Math.max(0, song!.duration) * 1000;
    const start = startedAt !== undefined && startedAt <= now && startedAt >= now - lengthMs ? startedAt : now;
    await this.deps.annotations.nowPlaying({
      user_id: actor.id,
      track_id: song!.id,
      client: client.slice(0, 200),
      started_at: new Date(start),
      expires_at: new Date(start + lengthMs + NOW_PLAYING_MARGIN_MS),
    });
  }

  /**
   * getNowPlaying: what the users the caller follows are playing, most recent first, each a song of
   * the caller's library (another's private track, a hidden one, never shows), with who plays it,
   * since how many minutes and in which app. Users who keep their listening to themselves
   * (privacy.show_listening_history off) are left out.
   */
  async playingNow(actor: UserActor): Promise<SubsonicNode[]> {
    const now = this.deps.clock.now();
    const rows = await this.deps.annotations.playingAmongFollowed(actor.id, now);
    if (rows.length === 0) return [];
    const tracks = new Map(
      (await this.deps.library.tracks(actor, { trackIds: rows.map((row) => row.track_id) })).map((row) => [
        row.id,
        row,
      ]),
    );
    const names = await this.usernames([
      ...rows.map((row) => row.user_id),
      ...[...tracks.values()].map((t) => t.creator_id),
    ]);
    return rows.flatMap((row) => {
      const track = tracks.get(row.track_id);
      const username = names.get(row.user_id);
      const artist = track && names.get(track.creator_id);
      if (!track || username === undefined || artist === undefined) return [];
      return [
        {
          ...this.deps.catalogue.songNode(actor, track, { artist }),
          username,
          minutesAgo: Math.max(0, Math.floor((now.getTime() - row.started_at.getTime()) / 60_000)),
          // Riff keeps one player per user and no player ids
          playerId: 0,
          playerName: row.client,
        },
      ];
    });
  }

  /**
   * getStarred2: the followed creators with songs in the caller's library (by name), the albums
   * holding a song they liked (latest like first, as getAlbumList2 starred) and the liked songs,
   * latest like first. Subsonic pages none of the three: each is cut at STARRED_MAX.
   */
  async starred(actor: UserActor): Promise<SubsonicNode> {
    const { catalogue, library } = this.deps;
    const all = { limit: STARRED_MAX, offset: 0 };
    const [artists, albums, songs] = await Promise.all([
      catalogue.followedArtists(actor),
      catalogue.albumsActedOn(actor, 'liked', all),
      library.tracks(actor, { liked: true, page: all }),
    ]);
    const names = await this.usernames(songs.map((row) => row.creator_id));
    return {
      artist: artists.slice(0, STARRED_MAX).map((artist) => catalogue.artistNode(artist)),
      album: albums.map((album) => catalogue.albumNode(album)),
      song: songs.flatMap((song) => {
        const artist = names.get(song.creator_id);
        return artist === undefined ? [] : [catalogue.songNode(actor, song, { artist })];
      }),
    };
  }

  // ---- account data

  async exportFor(owner: UserActor) {
    const { ratings, nowPlaying } = await this.deps.annotations.exportOf(owner.id);
    return {
      subsonic_ratings: ratings.map((row) => ({
        item_type: row.item_type,
        item_id: row.item_id,
        rating: row.rating,
        rated_at: row.rated_at.toISOString(),
      })),
      subsonic_now_playing: nowPlaying
        ? {
            track_id: nowPlaying.track_id,
            client: nowPlaying.client,
            started_at: nowPlaying.started_at.toISOString(),
          }
        : null,
    };
  }

  async eraseFor(owner: UserActor) {
    const removed = await this.deps.annotations.eraseOf(owner.id);
    return { removed_subsonic_ratings: removed.ratings, removed_now_playing: removed.nowPlaying };
  }
}
