import { PLAYLIST_MAX_TRACKS, PLAYLIST_TRACKS_PAGE_DEFAULT, type Playlist, type PlaylistTrack } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import { forbidden, notFound } from '../../platform/errors/app-error.js';
import type { TrackRow } from '../tracks/tracks.tables.js';
import type { TrackReader } from '../tracks/track-reader.js';
import { visibleTracksSql } from '../tracks/track-sql.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { CollaboratorsRepository } from './collaborators.repository.js';
import {
  toCollaboratorDto,
  toPlaylistDetailDto,
  toPlaylistSummaryDto,
  toPlaylistTrackDto,
} from './playlists.mapper.js';
import {
  canAdministerPlaylist,
  canEditTracks,
  canReadPlaylist,
  isPlaylistOwner,
  roleOf,
  type PlaylistRole,
} from './playlists.policy.js';
import type { PlaylistEntryRow, PlaylistsRepository, PlaylistView, VisibleTracks } from './playlists.repository.js';

/** What a route needs of the caller: to see it, edit its tracks, administer it, or own it. */
export type PlaylistNeed = 'read' | 'write' | 'admin' | 'owner';

const ALLOWS: Record<PlaylistNeed, (role: PlaylistRole) => boolean> = {
  read: canReadPlaylist,
  write: canEditTracks,
  admin: canAdministerPlaylist,
  owner: isPlaylistOwner,
};

const REFUSALS: Record<Exclude<PlaylistNeed, 'read'>, string> = {
  write: 'Only the owner and collaborators with write or admin permission may change the tracks',
  admin: 'Only the owner and admin collaborators may do this',
  owner: 'Only the owner may do this',
};

/** A playlist as the caller sees it, and what they are to it. */
export interface PlaylistAccess {
  view: PlaylistView;
  role: PlaylistRole;
}

/** A page of a playlist's tracks: offset and limit over the tracks the caller may see. */
export interface TrackWindow {
  offset: number;
  limit: number;
}

const ALL_TRACKS: TrackWindow = { offset: 0, limit: PLAYLIST_MAX_TRACKS };
/** The tracks a reply about one playlist carries when the caller named no page (after a write, a copy, an import). */
const FIRST_PAGE: TrackWindow = { offset: 0, limit: PLAYLIST_TRACKS_PAGE_DEFAULT };

/**
 * Reads of playlists for every route of the area (the core routes and the library ones: import,
 * export, search, analytics): who may see a playlist and what they are to it (playlists.policy),
 * and the contract shapes of a playlist as that caller sees it. Tracks the caller may not see are
 * left out of tracks and track_count, by the tracks area's own rule (visibleTracksSql).
 */
export class PlaylistReader {
  constructor(
    private readonly deps: {
      playlists: PlaylistsRepository;
      collaborators: CollaboratorsRepository;
      tracks: TrackReader;
      people: PeopleReader;
    },
  ) {}

  /** The tracks the caller may see, as the tracks area's derived table (joined as `t`). */
  visible(actor: Actor): VisibleTracks {
    return visibleTracksSql(actor);
  }

  /** The playlist with the caller's role; 404 when it does not exist for them. */
  async find(actor: Actor, id: string): Promise<PlaylistAccess> {
    const view = await this.deps.playlists.findView(id, actor.id, this.visible(actor));
    const role = view ? roleOf(actor, view) : 'none';
    if (!view || !canReadPlaylist(role)) throw notFound('Playlist');
    return { view, role };
  }

  /** Like find, and 403 when the caller sees it but may not do what `need` says. */
  async require(actor: Actor, id: string, need: PlaylistNeed): Promise<PlaylistAccess> {
    const access = await this.find(actor, id);
    this.assert(access.role, need);
    return access;
  }

  /** 403 unless the role allows `need` (for a playlist the caller already sees). */
  assert(role: PlaylistRole, need: PlaylistNeed): void {
    if (!ALLOWS[need](role)) throw need === 'read' ? notFound('Playlist') : forbidden(REFUSALS[need]);
  }

  /** The visible entries of a playlist with their track rows, by position (one statement). */
  entries(actor: Actor, playlistId: string, window: TrackWindow = ALL_TRACKS): Promise<PlaylistEntryRow[]> {
    return this.deps.playlists.trackPage(playlistId, this.visible(actor), window);
  }

  /** Track rows of the visible entries, in order (exports). */
  async trackRows(actor: Actor, playlistId: string): Promise<TrackRow[]> {
    return this.entries(actor, playlistId);
  }

  async tracks(actor: Actor, playlistId: string, window: TrackWindow = FIRST_PAGE): Promise<PlaylistTrack[]> {
    const rows = await this.entries(actor, playlistId, window);
    return rows.map((row) => toPlaylistTrackDto(playlistId, row, this.deps.tracks.toTrack(row, actor)));
  }

  /** The reply about one playlist: a page of its tracks and every collaborator. */
  async detail(
    actor: Actor,
    view: PlaylistView,
    window: TrackWindow = FIRST_PAGE,
    options: { collaborators?: boolean } = {},
  ): Promise<Playlist> {
    const [tracks, collaborators] = await Promise.all([
      this.tracks(actor, view.id, window),
      options.collaborators === false ? Promise.resolve([]) : this.collaborators(view.id),
    ]);
    return toPlaylistDetailDto(view, { signedIn: actor.kind === 'user', tracks, collaborators });
  }

  /** A fresh read of the playlist's reply (after a write). */
  async detailById(actor: Actor, id: string): Promise<Playlist> {
    return this.detail(actor, (await this.find(actor, id)).view);
  }

  /** Lists: no tracks, no collaborators. */
  summaries(actor: Actor, views: PlaylistView[]): Playlist[] {
    return views.map((view) => toPlaylistSummaryDto(view, actor.kind === 'user'));
  }

  private async collaborators(playlistId: string) {
    const { rows } = await this.deps.collaborators.page(playlistId, { offset: 0, limit: 1000 });
    const profiles = await this.deps.people.profiles(rows.map((row) => row.user_id));
    return rows.map((row) => toCollaboratorDto(row, profiles.get(row.user_id)));
  }
}
