import {
  API_PREFIX,
  PLAYLIST_ANALYTICS_DAYS,
  PLAYLIST_IMPORT_MAX_BYTES,
  PLAYLIST_TITLE_MAX,
  type ImportPlaylistRequest,
  type Playlist,
  type PlaylistExchangeFormat,
  type Suggestion,
} from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import {
  attachmentDisposition,
  EXCHANGE_CONTENT_TYPES,
  parsePlaylist,
  writePlaylist,
  type ExchangeEntry,
} from './playlist-exchange.js';
import { fold, type PlaylistLibraryRepository, type TitleMatch } from './playlist-library.repository.js';
import { assertRoomForPlaylist } from './playlist-writes.js';
import type { PlaylistReader } from './playlist-reader.js';
import type { PlaylistsRepository } from './playlists.repository.js';
import type { PeopleReader } from '../users/people-reader.js';

export interface PlaylistLibraryDeps {
  scope: DbScope;
  library: PlaylistLibraryRepository;
  playlists: PlaylistsRepository;
  reader: PlaylistReader;
  /** The users area's: an importer's account is locked while their playlists are counted. */
  people: Pick<PeopleReader, 'lockAccount'>;
  events: EventBus;
  clock: Clock;
  publicBaseUrl: string;
  playsFrom: PlaysFromPlaylist;
}

/** Counted plays started from a playlist, and its most played tracks (at most 10), as analytics rolls them up. */
export type PlaysFromPlaylist = (
  playlistId: string,
) => Promise<{ total: number; top: { track_id: string; plays: number }[] }>;

const DEFAULT_TITLE = 'Imported playlist';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A Riff track named in a location: …/tracks/<uuid>…, urn:uuid:<uuid>, or the bare id. */
const TRACK_URL = /\/tracks\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[/?#]|$)/i;
const BARE_ID = /^(?:urn:uuid:)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

function trackIdIn(uris: readonly string[]): string | undefined {
  for (const uri of uris) {
    const found = TRACK_URL.exec(uri) ?? BARE_ID.exec(uri.trim());
    if (found?.[1]) return found[1].toLowerCase();
  }
  return undefined;
}

const nameKey = (title: string, artist: string) => `${title}\u0000${artist}`;

/** Among tracks with the same name: the caller's own, then the most played, then a stable order. */
function better(a: TitleMatch, b: TitleMatch, callerId: string): TitleMatch {
  const own = Number(b.creator_id === callerId) - Number(a.creator_id === callerId);
  if (own !== 0) return own > 0 ? b : a;
  if (a.play_count !== b.play_count) return b.play_count > a.play_count ? b : a;
  return b.id < a.id ? b : a;
}

/** Import and export, search, recommendations and analytics of playlists. */
export class PlaylistLibraryService {
  constructor(private readonly deps: PlaylistLibraryDeps) {}

  async importPlaylist(actor: UserActor, body: ImportPlaylistRequest) {
    const bytes = Buffer.byteLength(body.content, 'utf8');
    if (bytes > PLAYLIST_IMPORT_MAX_BYTES) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `The playlist file is ${bytes} bytes; at most ${PLAYLIST_IMPORT_MAX_BYTES} are accepted`,
      );
    }
    const parsed = parsePlaylist(body.format, body.content);
    const { trackIds, unmatched } = await this.match(actor, parsed.entries);
    const title =
      body.title ?? (parsed.title?.replace(/\s+/g, ' ').trim().slice(0, PLAYLIST_TITLE_MAX).trim() || DEFAULT_TITLE);
    const { scope, library, playlists, events, reader } = this.deps;
    const id = await scope.transaction(async () => {
      await assertRoomForPlaylist(this.deps, actor.id);
      const row = await playlists.insert({ user_id: actor.id, title, description: null, is_public: false });
      await library.insertTracks(row.id, trackIds, actor.id);
      await events.record(actor, 'playlist.created', {
        subject: { resource: 'playlist', id: row.id },
        data: { title, copied_from: null },
      });
      return row.id;
    });
    const { view } = await reader.find(actor, id);
    return { playlist: reader.summaries(actor, [view])[0]!, matched: trackIds.length, unmatched };
  }

  /**
   * Each entry's track: by the Riff track id in one of its URIs when the caller may see that
   * track, else by folded artist and title (both needed). Every query runs over batches of
   * entries. A track found twice keeps its first place.
   */
  private async match(actor: UserActor, entries: readonly ExchangeEntry[]) {
    const visible = this.deps.reader.visible(actor);
    const ids = entries.map((entry) => trackIdIn(entry.uris));
    const seenIds = await this.deps.library.visibleIds(visible, [
      ...new Set(ids.filter((id): id is string => id !== undefined)),
    ]);
    const keys = entries.map((entry, index) => {
      const id = ids[index];
      if ((id && seenIds.has(id)) || !entry.title || !entry.artist) return undefined;
      const title = fold(entry.title);
      const artist = fold(entry.artist);
      return title && artist ? { title, artist } : undefined;
    });
    const pairs = new Map<string, { title: string; artist: string }>();
    for (const key of keys) if (key) pairs.set(nameKey(key.title, key.artist), key);
    const byName = new Map<string, TitleMatch>();
    for (const found of await this.deps.library.matchByName(visible, [...pairs.values()])) {
      const key = nameKey(found.title_key, found.artist_key);
      const known = byName.get(key);
      byName.set(key, known ? better(known, found, actor.id) : found);
    }
    const trackIds = new Set<string>();
    const unmatched: { line: number; title: string | null; artist: string | null }[] = [];
    entries.forEach((entry, index) => {
      const id = ids[index];
      const key = keys[index];
      const trackId = id && seenIds.has(id) ? id : key ? byName.get(nameKey(key.title, key.artist))?.id : undefined;
      if (trackId) trackIds.add(trackId);
      else unmatched.push({ line: entry.line, title: entry.title, artist: entry.artist });
    });
    return { trackIds: [...trackIds], unmatched };
  }

  /** The file of the tracks the caller may see, in order; the playlist must be visible to them (404). */
  async exportPlaylist(actor: UserActor, id: string, format: PlaylistExchangeFormat) {
    const { reader, publicBaseUrl } = this.deps;
    const { view } = await reader.find(actor, id);
    const rows = await reader.trackRows(actor, id);
    const tracks = rows.map((row) => ({
      location: `${publicBaseUrl}${API_PREFIX}/tracks/${row.id}/stream`,
      identifier: `${publicBaseUrl}${API_PREFIX}/tracks/${row.id}`,
      title: row.title,
      artist: row.artist,
      album: row.album,
      duration: row.duration,
    }));
    return {
      content: writePlaylist(format, view.title, tracks),
      contentType: EXCHANGE_CONTENT_TYPES[format],
      disposition: attachmentDisposition(view.title, format),
    };
  }

  async search(actor: Actor, query: { q: string; page: number; limit: number }) {
    const window = pageWindow(query.page, query.limit);
    const { ids, total } = await this.deps.library.search(actor, query.q, window);
    return { playlists: await this.summaries(actor, ids), pagination: paginate(window, total) };
  }

  async recommendations(actor: UserActor, query: { page: number; limit: number }) {
    const window = pageWindow(query.page, query.limit);
    const { ids, total } = await this.deps.library.recommendations(actor, window);
    return { playlists: await this.summaries(actor, ids), pagination: paginate(window, total) };
  }

  /** The playlists' part of GET /search/suggestions. */
  async suggest(actor: Actor, prefix: string, limit: number): Promise<Suggestion[]> {
    return (await this.deps.library.titlesStartingWith(actor, prefix, limit)).map((row) => ({
      type: 'playlist',
      ...row,
    }));
  }

  private async summaries(actor: Actor, ids: string[]): Promise<Playlist[]> {
    const { playlists, reader } = this.deps;
    return reader.summaries(actor, await playlists.findViews(ids, actor.id, reader.visible(actor)));
  }

  /** The owner's and admin collaborators' figures; 403 for others who see the playlist, 404 for the rest. */
  async analytics(actor: UserActor, id: string) {
    const { reader, library, clock, playsFrom } = this.deps;
    const { view } = await reader.require(actor, id, 'admin');
    const now = clock.now();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const from = new Date(today - (PLAYLIST_ANALYTICS_DAYS - 1) * DAY_MS);
    const [totals, plays, days] = await Promise.all([
      library.trackTotals(id),
      playsFrom(id),
      library.followersPerDay(id, from),
    ]);
    const perDay = new Map(days.map((day) => [day.date, day.count]));
    const followersDaily = Array.from({ length: PLAYLIST_ANALYTICS_DAYS }, (_, index) => {
      const date = new Date(from.getTime() + index * DAY_MS).toISOString().slice(0, 10);
      return { date, count: perDay.get(date) ?? 0 };
    });
    return {
      analytics: {
        follower_count: view.follower_count,
        track_count: totals.count,
        total_duration: totals.duration,
        plays_from_playlist: plays.total,
        top_tracks: plays.top,
        followers_daily: followersDaily,
      },
    };
  }
}
