import type { AvatarSize, ListUsersQuery, SearchUsersQuery, Suggestion, UpdateProfileRequest } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { UserUpdate } from './users.tables.js';
import { isUniqueViolation } from '../../platform/db/db-errors.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, forbidden, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { pageWindow } from '../../platform/http/pagination.js';
import type { AvatarsService } from '../media/avatars.service.js';
import type { ProfileFilter, ProfileSort, ProfilesRepository } from './profiles.repository.js';
import { uniqueSlug } from './slug.js';
import { profilePage, recordUserEvent, resolveId, visibleProfile, type UserIdOrMe } from './user-lookup.js';
import { toProfileDto, toUserDto } from './user.mapper.js';
import type { UsersRepository } from './users.repository.js';
import { canEditProfile, canSeeCompletion, canSortBy, seesEveryAccount } from './users.policy.js';

export interface ProfilesServiceDeps {
  scope: DbScope;
  users: UsersRepository;
  profiles: ProfilesRepository;
  events: EventBus;
  clock: Clock;
  /** The media area's avatars: the images a profile's `avatar` points at. */
  avatars: Pick<AvatarsService, 'setAvatar' | 'removeAvatar' | 'avatar'>;
}

const COMPLETION_FIELDS = [
  'avatar',
  'banner_url',
  'bio',
  'first_name',
  'last_name',
  'location',
  'birthdate',
  'gender',
  'social_links',
] as const;

/** Profiles: lists and search, one profile, its edits, its avatar, its completion, the creator role. */
export class ProfilesService {
  constructor(private readonly deps: ProfilesServiceDeps) {}

  async list(actor: Actor, query: ListUsersQuery) {
    if (!canSortBy(actor, query.sort_by)) throw forbidden('Only admins may sort users by email');
    const everyone = seesEveryAccount(actor);
    const filter: ProfileFilter = {
      role: query.role,
      isActive: query.is_active,
      isVerified: query.is_verified,
      search: query.search,
      searchEmail: everyone,
      privileged: everyone,
      includeInactive: everyone,
    };
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.profiles.list(
      filter,
      { by: query.sort_by, order: query.sort_order },
      window,
      actor.id,
    );
    return profilePage(actor, rows, total, window);
  }

  async search(actor: Actor, query: SearchUsersQuery) {
    const window = pageWindow(query.page, query.limit);
    const sort: ProfileSort = { by: 'relevance', query: query.q };
    const { rows, total } = await this.deps.profiles.list(
      { text: query.q, privileged: seesEveryAccount(actor) },
      sort,
      window,
      actor.id,
    );
    return profilePage(actor, rows, total, window);
  }

  /** The users' part of GET /search/suggestions: usernames of accounts others may see. */
  async suggestUsernames(actor: Actor, prefix: string, limit: number): Promise<Suggestion[]> {
    const rows = await this.deps.profiles.usernamesStartingWith(prefix, limit, actor.kind === 'user' ? actor.id : null);
    return rows.map((row) => ({ type: 'user', id: row.id, text: row.username }));
  }

  async suggestions(actor: UserActor, limit: number) {
    const rows = await this.deps.profiles.suggestions(actor.id, limit);
    return { users: rows.map((row) => toProfileDto(row, actor)) };
  }

  async get(actor: Actor, idOrMe: UserIdOrMe) {
    return { profile: toProfileDto(await visibleProfile(this.deps.profiles, actor, resolveId(idOrMe, actor)), actor) };
  }

  async getByUsername(actor: Actor, username: string) {
    const row = await this.deps.profiles.findOne({ username }, actor.id, seesEveryAccount(actor));
    if (!row) throw notFound('User');
    return { profile: toProfileDto(row, actor) };
  }

  /** PUT /users/me/avatar: the media module stores both sizes; the profile points at them. */
  async setAvatar(actor: UserActor, image: Buffer) {
    const { url } = await this.deps.avatars.setAvatar(actor, image);
    await this.saveAvatar(actor, url);
    return this.get(actor, actor.id);
  }

  /** DELETE /users/me/avatar. */
  async removeAvatar(actor: UserActor) {
    await this.deps.avatars.removeAvatar(actor);
    await this.saveAvatar(actor, null);
    return this.get(actor, actor.id);
  }

  private saveAvatar(actor: UserActor, avatar: string | null) {
    return this.deps.scope.transaction(async () => {
      await this.deps.users.update(actor.id, { avatar });
      await recordUserEvent(this.deps.events, actor, 'user.updated', actor.id, { fields: ['avatar'] });
    });
  }

  /** GET /users/{id}/avatar: where the profile is visible. */
  async avatar(actor: Actor, id: string, size: AvatarSize) {
    await visibleProfile(this.deps.profiles, actor, id);
    return this.deps.avatars.avatar(id, size);
  }

  async update(actor: UserActor, idOrMe: UserIdOrMe, body: UpdateProfileRequest) {
    const id = resolveId(idOrMe, actor);
    if (!canEditProfile(actor, id)) throw forbidden('You can only edit your own profile');
    const me = actor.user;
    const { social_links, username, ...fields } = body;
    const changes: UserUpdate = { ...fields };
    if (social_links !== undefined) changes.social_links = JSON.stringify(social_links);
    if (username !== undefined && username !== me.username) {
      if (username.toLowerCase() !== me.username.toLowerCase() && (await this.deps.users.usernameTaken(username))) {
        throw new AppError('CONFLICT', 'This username is taken');
      }
      changes.username = username;
      changes.slug = await uniqueSlug(this.deps.users, username, me.id);
      changes.username_changed_at = this.deps.clock.now();
    }
    try {
      await this.deps.scope.transaction(async () => {
        await this.deps.users.update(me.id, changes);
        await recordUserEvent(this.deps.events, actor, 'user.updated', me.id, { fields: Object.keys(body).sort() });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'This username is taken');
      throw error;
    }
    return this.get(actor, me.id);
  }

  async completion(actor: UserActor, idOrMe: UserIdOrMe) {
    const id = resolveId(idOrMe, actor);
    if (!canSeeCompletion(actor, id)) throw forbidden('You can only see your own profile completion');
    const row = id === actor.id ? actor.user : await this.deps.users.findById(id);
    if (!row) throw notFound('User');
    const filled = (field: (typeof COMPLETION_FIELDS)[number]) =>
      field === 'social_links' ? Object.keys(row.social_links ?? {}).length > 0 : Boolean(row[field]);
    const completed = COMPLETION_FIELDS.filter(filled);
    return {
      percentage: Math.round((completed.length / COMPLETION_FIELDS.length) * 100),
      completed_fields: [...completed],
      missing_fields: COMPLETION_FIELDS.filter((field) => !filled(field)),
    };
  }

  async upgradeToCreator(actor: UserActor) {
    const me = actor.user;
    if (me.role !== 'user') return { user: toUserDto(me) };
    const updated = await this.deps.scope.transaction(async () => {
      const row = await this.deps.users.update(me.id, {
        role: 'creator',
        promoted_to_creator_at: me.promoted_to_creator_at ?? this.deps.clock.now(),
      });
      await recordUserEvent(this.deps.events, actor, 'user.upgraded_to_creator', me.id, {});
      return row;
    });
    return { user: toUserDto(updated ?? me) };
  }
}
