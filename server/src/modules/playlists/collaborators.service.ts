import { createHash, randomBytes } from 'node:crypto';
import {
  API_PREFIX,
  PLAYLIST_MAX_COLLABORATORS,
  type AddCollaboratorRequest,
  type PlaylistPermission,
  type SharePlaylistRequest,
} from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import { badRequest, conflict, forbidden, limitReached, notFound } from '../../platform/errors/app-error.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { CollaboratorsRepository } from './collaborators.repository.js';
import type { PlaylistReader } from './playlist-reader.js';
import type { PlaylistsRepository } from './playlists.repository.js';
import { toCollaboratorDto } from './playlists.mapper.js';
import { canRemoveCollaborator } from './playlists.policy.js';
import type { CollaboratorRow } from './collaborators.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Only the sha256 of a share token is stored: a leaked table hands out no playlist. */
export const hashShareToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface CollaboratorsServiceDeps {
  scope: DbScope;
  clock: Clock;
  events: EventBus;
  playlists: PlaylistsRepository;
  collaborators: CollaboratorsRepository;
  reader: PlaylistReader;
  people: PeopleReader;
  /** Share links are absolute URLs. */
  publicBaseUrl: string;
}

/** Who else works on a playlist, and its share link. */
export class CollaboratorsService {
  constructor(private readonly deps: CollaboratorsServiceDeps) {}

  private get now() {
    return this.deps.clock.now();
  }

  private async toDto(row: CollaboratorRow) {
    const profiles = await this.deps.people.profiles([row.user_id]);
    return toCollaboratorDto(row, profiles.get(row.user_id));
  }

  /** An administrator's change, under the playlist's lock (so counts and transfers do not race). */
  private admin<T>(
    actor: UserActor,
    id: string,
    change: (view: { id: string; user_id: string; is_default_favorites: boolean }) => Promise<T>,
  ) {
    return this.deps.scope.transaction(async () => {
      if (!(await this.deps.playlists.lockRow(id))) throw notFound('Playlist');
      const { view } = await this.deps.reader.require(actor, id, 'admin');
      return change(view);
    });
  }

  async add(actor: UserActor, id: string, body: AddCollaboratorRequest) {
    const { collaborators, people, events } = this.deps;
    const row = await this.admin(actor, id, async (view) => {
      if (view.is_default_favorites) throw badRequest('The favorites playlist has no collaborators');
      if (body.user_id === view.user_id) throw badRequest('The owner cannot be a collaborator');
      if (!(await people.findActive(body.user_id))) throw notFound('User');
      if (await people.blockedEitherWay(view.user_id, body.user_id))
        throw badRequest('This user cannot collaborate on the playlist');
      if (await collaborators.find(id, body.user_id)) throw conflict('This user already collaborates on the playlist');
      if ((await collaborators.count(id)) >= PLAYLIST_MAX_COLLABORATORS)
        throw limitReached(`A playlist has at most ${PLAYLIST_MAX_COLLABORATORS} collaborators`);
      const added = await collaborators.insert(id, body.user_id, body.permission);
      if (!added) throw conflict('This user already collaborates on the playlist');
      await events.record(actor, 'playlist.collaborator_added', {
        subject: { resource: 'playlist', id },
        userId: view.user_id,
        data: { user_id: body.user_id, permission: body.permission },
      });
      return added;
    });
    return { collaborator: await this.toDto(row) };
  }

  async list(actor: UserActor, id: string, query: { page: number; limit: number }) {
    await this.deps.reader.find(actor, id);
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.collaborators.page(id, window);
    const profiles = await this.deps.people.profiles(rows.map((row) => row.user_id));
    return {
      collaborators: rows.map((row) => toCollaboratorDto(row, profiles.get(row.user_id))),
      pagination: paginate(window, total),
    };
  }

  async update(actor: UserActor, id: string, userId: string, permission: PlaylistPermission) {
    const { collaborators, events } = this.deps;
    const row = await this.admin(actor, id, async (view) => {
      const updated = await collaborators.setPermission(id, userId, permission, this.now);
      if (!updated) throw notFound('Collaborator');
      await events.record(actor, 'playlist.collaborator_updated', {
        subject: { resource: 'playlist', id },
        userId: view.user_id,
        data: { user_id: userId, permission },
      });
      return updated;
    });
    return { collaborator: await this.toDto(row) };
  }

  /** An administrator removes anyone; a collaborator may leave. */
  async remove(actor: UserActor, id: string, userId: string) {
    const { collaborators, reader, events, scope } = this.deps;
    await scope.transaction(async () => {
      if (!(await this.deps.playlists.lockRow(id))) throw notFound('Playlist');
      const { view, role } = await reader.find(actor, id);
      if (!canRemoveCollaborator(actor, role, userId))
        throw forbidden('Only the owner and admin collaborators manage collaborators');
      if (!(await collaborators.remove(id, userId))) throw notFound('Collaborator');
      await events.record(actor, 'playlist.collaborator_removed', {
        subject: { resource: 'playlist', id },
        userId: view.user_id,
        data: { user_id: userId },
      });
    });
    return { message: actor.id === userId ? 'You left the playlist' : 'Collaborator removed' };
  }

  /** A new link replaces the last; the token is shown once. */
  async share(actor: UserActor, id: string, body: SharePlaylistRequest) {
    const { collaborators, events, publicBaseUrl } = this.deps;
    const token = randomBytes(32).toString('base64url');
    const expiresAt =
      body.expires_in_days !== undefined ? new Date(this.now.getTime() + body.expires_in_days * DAY_MS) : null;
    await this.admin(actor, id, async (view) => {
      if (view.is_default_favorites) throw badRequest('The favorites playlist cannot be shared');
      await collaborators.setShare(id, hashShareToken(token), expiresAt);
      await events.record(actor, 'playlist.shared', {
        subject: { resource: 'playlist', id },
        userId: view.user_id,
        data: { expires_at: expiresAt ? expiresAt.toISOString() : null },
      });
    });
    return {
      token,
      share_url: `${publicBaseUrl}${API_PREFIX}/playlists/shared/${token}`,
      expires_at: expiresAt ? expiresAt.toISOString() : null,
    };
  }

  async revokeShare(actor: UserActor, id: string) {
    const { collaborators, events } = this.deps;
    await this.admin(actor, id, async (view) => {
      await collaborators.setShare(id, null, null);
      await events.record(actor, 'playlist.share_revoked', {
        subject: { resource: 'playlist', id },
        userId: view.user_id,
        data: {},
      });
    });
    return { message: 'The share link no longer works' };
  }
}
