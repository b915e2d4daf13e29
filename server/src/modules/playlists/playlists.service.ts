import {
  PLAYLIST_TITLE_MAX,
  type CreatePlaylistRequest,
  type DuplicatePlaylistRequest,
  type Playlist,
  type UpdatePlaylistRequest,
} from '@riff/contract';
import { anonymousActor, type Actor, type UserActor } from '../../platform/access/actor.js';
import { badRequest, fieldIssue, forbidden, notFound, validationFailed } from '../../platform/errors/app-error.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { CollaboratorsRepository } from './collaborators.repository.js';
import type { PlaylistReader } from './playlist-reader.js';
import { snapshotOf } from './playlists.mapper.js';
import { canFollow, canReadPlaylist, canSetEditorial, playlistModerationSql, roleOf } from './playlists.policy.js';
import type { PlaylistRow, PlaylistsRepository } from './playlists.repository.js';
import type { PlaylistAccess, PlaylistNeed, TrackWindow } from './playlist-reader.js';
import { assertRoomForPlaylist, writePlaylist } from './playlist-writes.js';

const COPY_SUFFIX = ' (copy)';
/** At most this many playlists in one library read (a user owns at most PLAYLISTS_PER_USER_MAX). */
const LIBRARY_MAX = 5000;
/** The original title cut so that the suffix fits. */
const copyTitle = (title: string) =>
  `${title.slice(0, PLAYLIST_TITLE_MAX - COPY_SUFFIX.length).trimEnd()}${COPY_SUFFIX}`;

export interface PlaylistsServiceDeps {
  scope: DbScope;
  clock: Clock;
  events: EventBus;
  playlists: PlaylistsRepository;
  collaborators: CollaboratorsRepository;
  reader: PlaylistReader;
  /** A list filtered by owner names an active account. */
  people: PeopleReader;
}

/** Playlists themselves: lists, creation, details, ownership, deletion, copies and followers. */
export class PlaylistsService {
  constructor(private readonly deps: PlaylistsServiceDeps) {}

  private get now() {
    return this.deps.clock.now();
  }

  private write<T>(
    actor: UserActor,
    id: string,
    need: PlaylistNeed,
    ifMatch: string | undefined,
    change: (access: PlaylistAccess) => Promise<T>,
  ) {
    return writePlaylist(this.deps, actor, id, need, ifMatch, change);
  }

  async list(actor: UserActor, query: { page: number; limit: number; user_id?: string | undefined }) {
    const window = pageWindow(query.page, query.limit);
    const ownerId = query.user_id === 'me' ? actor.id : query.user_id;
    if (ownerId !== undefined && ownerId !== actor.id && !(await this.deps.people.findActive(ownerId)))
      throw notFound('User');
    const filter =
      ownerId === undefined
        ? { kind: 'mine' as const, viewerId: actor.id }
        : { kind: 'of' as const, ownerId, viewerId: actor.id };
    const { rows, total } = await this.deps.playlists.list(
      filter,
      this.deps.reader.visible(actor),
      playlistModerationSql(actor, 'p'),
      window,
    );
    return { playlists: this.deps.reader.summaries(actor, rows), pagination: paginate(window, total) };
  }

  /**
   * Every playlist a player app lists (the Subsonic interface's getPlaylists, which has no pages):
   * the caller's own, those they collaborate on and the public ones they follow, newest first.
   */
  async library(actor: UserActor): Promise<Playlist[]> {
    const { rows } = await this.deps.playlists.list(
      { kind: 'library', viewerId: actor.id },
      this.deps.reader.visible(actor),
      playlistModerationSql(actor, 'p'),
      { offset: 0, limit: LIBRARY_MAX },
    );
    return this.deps.reader.summaries(
      actor,
      rows.filter((view) => canReadPlaylist(roleOf(actor, view))),
    );
  }

  /**
   * The track ids of the entries the caller may see of each playlist they may read, by position
   * (GET /playlists/{id}'s tracks, for many playlists in one read); a playlist they may not read
   * is left out.
   */
  async visibleTrackIds(actor: UserActor, ids: readonly string[]): Promise<Map<string, string[]>> {
    const { playlists, reader } = this.deps;
    const views = await playlists.findViews(ids, actor.id, reader.visible(actor));
    const readable = views.filter((view) => canReadPlaylist(roleOf(actor, view))).map((view) => view.id);
    const byPlaylist = new Map(readable.map((id): [string, string[]] => [id, []]));
    for (const entry of await playlists.visibleTrackIdsOf(readable, reader.visible(actor))) {
      byPlaylist.get(entry.playlist_id)?.push(entry.track_id);
    }
    return byPlaylist;
  }

  private async recordCreated(actor: UserActor, row: PlaylistRow, copiedFrom: string | null) {
    await this.deps.events.record(actor, 'playlist.created', {
      subject: { resource: 'playlist', id: row.id },
      data: { title: row.title, copied_from: copiedFrom },
    });
  }

  async create(actor: UserActor, body: CreatePlaylistRequest) {
    const id = await this.deps.scope.transaction(async () => {
      await assertRoomForPlaylist(this.deps, actor.id);
      const row = await this.deps.playlists.insert({
        user_id: actor.id,
        title: body.title,
        description: body.description ?? null,
        is_public: body.is_public ?? false,
      });
      await this.recordCreated(actor, row, null);
      return row.id;
    });
    return this.deps.reader.detailById(actor, id);
  }

  async get(actor: UserActor, id: string, window: TrackWindow) {
    const { view } = await this.deps.reader.find(actor, id);
    return { playlist: await this.deps.reader.detail(actor, view, window), version: view.version };
  }

  /** The caller's favorites playlist, made empty on first read. */
  async favorites(actor: UserActor, window: TrackWindow) {
    const { id } = await this.deps.playlists.favoritesOf(actor.id);
    return this.get(actor, id, window);
  }

  async update(actor: UserActor, id: string, ifMatch: string | undefined, body: UpdatePlaylistRequest) {
    const details = (['title', 'description', 'is_public'] as const).filter((field) => body[field] !== undefined);
    const transfer = body.user_id;
    // the editors may flag a public playlist that is not theirs: no role on it is needed for that alone
    const need = transfer !== undefined ? 'owner' : details.length > 0 ? 'admin' : 'read';
    const version = await this.write(actor, id, need, ifMatch, async ({ view }) => {
      // after the visibility check: a playlist the caller may not see stays 404
      if (body.is_editorial !== undefined && !canSetEditorial(actor))
        throw forbidden('Only admins of the service choose editorial playlists');
      if (view.is_default_favorites && body.is_public === true)
        throw badRequest('The favorites playlist stays private');
      if (view.is_default_favorites && body.is_editorial === true)
        throw badRequest('The favorites playlist cannot be editorial');
      const fields: string[] = [...details, ...(body.is_editorial !== undefined ? ['is_editorial'] : [])];
      if (transfer !== undefined && transfer !== view.user_id) {
        await this.transfer(view, transfer);
        fields.push('user_id');
      }
      if (fields.length === 0) return view.version;
      const row = await this.deps.playlists.update(
        id,
        {
          ...(body.title !== undefined ? { title: body.title } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.is_public !== undefined ? { is_public: body.is_public } : {}),
          ...(body.is_editorial !== undefined ? { is_editorial: body.is_editorial } : {}),
          ...(transfer !== undefined ? { user_id: transfer } : {}),
        },
        this.now,
      );
      await this.deps.events.record(actor, 'playlist.updated', {
        subject: { resource: 'playlist', id },
        userId: row.user_id,
        data: { fields, snapshot_id: snapshotOf(row) },
      });
      return row.version;
    });
    return { playlist: await this.deps.reader.detailById(actor, id), version };
  }

  /** Gives the playlist to one of its collaborators; the old owner stays on as an admin collaborator. */
  private async transfer(view: PlaylistRow, newOwnerId: string) {
    if (view.is_default_favorites) throw badRequest('The favorites playlist cannot be given away');
    const { collaborators } = this.deps;
    if (!(await collaborators.find(view.id, newOwnerId))) {
      throw validationFailed('The new owner must be a collaborator of the playlist', [
        fieldIssue('user_id', 'must be a collaborator of the playlist', newOwnerId),
      ]);
    }
    await assertRoomForPlaylist(this.deps, newOwnerId);
    await collaborators.remove(view.id, newOwnerId);
    await collaborators.upsert(view.id, view.user_id, 'admin', this.now);
  }

  async remove(actor: UserActor, id: string, ifMatch: string | undefined) {
    await this.write(actor, id, 'owner', ifMatch, async ({ view }) => {
      if (view.is_default_favorites)
        throw badRequest('The favorites playlist cannot be deleted: unlike its tracks instead');
      await this.deps.events.record(actor, 'playlist.deleted', {
        subject: { resource: 'playlist', id },
        data: { title: view.title },
      });
      await this.deps.playlists.delete(id);
    });
    return { message: 'Playlist deleted' };
  }

  /** A private copy owned by the caller with the tracks they may see, in order. */
  async duplicate(actor: UserActor, id: string, body: DuplicatePlaylistRequest) {
    const { view } = await this.deps.reader.find(actor, id);
    const copyId = await this.deps.scope.transaction(async () => {
      await assertRoomForPlaylist(this.deps, actor.id);
      const row = await this.deps.playlists.insert({
        user_id: actor.id,
        title: body.title ?? copyTitle(view.title),
        description: view.description,
        is_public: false,
      });
      await this.deps.playlists.copyTracks(view.id, row.id, actor.id, this.deps.reader.visible(actor));
      await this.recordCreated(actor, row, view.id);
      return row.id;
    });
    return this.deps.reader.detailById(actor, copyId);
  }

  async follow(actor: UserActor, id: string) {
    const { view, role } = await this.deps.reader.find(actor, id);
    if (role === 'owner') throw badRequest('You cannot follow your own playlist');
    if (!canFollow(role, view)) throw badRequest('Only public playlists can be followed');
    const followerCount = await this.deps.scope.transaction(async () => {
      const count = await this.deps.collaborators.follow(id, actor.id);
      if (!view.is_following) {
        await this.deps.events.record(actor, 'playlist.followed', {
          subject: { resource: 'playlist', id },
          userId: view.user_id,
          data: {},
        });
      }
      return count;
    });
    return { following: true, follower_count: followerCount };
  }

  /** Works whatever the playlist became: a follower may always leave. */
  async unfollow(actor: UserActor, id: string) {
    const view = await this.deps.playlists.findView(id, actor.id, this.deps.reader.visible(actor));
    if (!view || (roleOf(actor, view) === 'none' && !view.is_following)) throw notFound('Playlist');
    const followerCount = await this.deps.scope.transaction(async () => {
      const count = await this.deps.collaborators.unfollow(id, actor.id);
      if (view.is_following) {
        await this.deps.events.record(actor, 'playlist.unfollowed', {
          subject: { resource: 'playlist', id },
          userId: view.user_id,
          data: {},
        });
      }
      return count;
    });
    return { following: false, follower_count: followerCount };
  }

  /** Through a share link: anyone, the public tracks only; unknown, revoked or expired is 404. */
  async shared(caller: Actor, tokenHash: string, window: TrackWindow) {
    // whoever holds the link sees what anyone may: signed in or not, the reply is the same
    const actor = anonymousActor(caller.origin);
    const { reader, playlists } = this.deps;
    const view = await playlists.findViewByShare(
      tokenHash,
      this.now,
      reader.visible(actor),
      playlistModerationSql(actor, 'p'),
    );
    if (!view) throw notFound('Playlist');
    return { playlist: await reader.detail(actor, view, window, { collaborators: false }) };
  }
}
