import type {
  AvatarSize,
  DeleteAccountRequest,
  ListUsersQuery,
  PaginationQuery,
  Preferences,
  SearchUsersQuery,
  UpdatePreferencesRequest,
  UpdateProfileRequest,
  UserExport,
  Suggestion,
} from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { AccountDirectory } from '../../platform/accounts/account-data.js';
import type { Revocations } from '../../platform/auth/revocations.js';
import type { PasswordHasher } from '../../platform/auth/password-hasher.js';
import { randomToken } from '../../platform/auth/secure-random.js';
import type { Clock } from '../../platform/clock.js';
import type { UserRow, UserUpdate } from './users.tables.js';
import { isUniqueViolation } from '../../platform/db/db-errors.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, forbidden, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { EventMap } from '../../platform/events/event-map.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import { mergePreferences } from './preferences.defaults.js';
import type { PreferencesRepository } from './preferences.repository.js';
import type { ProfileFilter, ProfileRow, ProfileSort, ProfilesRepository } from './profiles.repository.js';
import { uniqueSlug } from './slug.js';
import type { SocialRepository } from './social.repository.js';
import { toProfileDto, toUserDto } from './user.mapper.js';
import type { UsersRepository } from './users.repository.js';
import type { MediaService } from '../media/media.service.js';
import {
  canDeactivate,
  canEditProfile,
  canSeeCompletion,
  canSeeRelations,
  canSortBy,
  seesEveryAccount,
} from './users.policy.js';

export interface UsersServiceDeps {
  scope: DbScope;
  users: UsersRepository;
  profiles: ProfilesRepository;
  social: SocialRepository;
  preferences: PreferencesRepository;
  events: EventBus;
  /** Every module's part of an account, for the export and the deletion. */
  accounts: AccountDirectory;
  hasher: PasswordHasher;
  clock: Clock;
  /** The media pipeline: the avatar's images. */
  media: Pick<MediaService, 'setAvatar' | 'removeAvatar' | 'avatar'>;
  revocations: Revocations;
}

export type UserIdOrMe = string;

type UserEvent = { [K in keyof EventMap]: K extends `user.${string}` ? K : never }[keyof EventMap];

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

export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  /** Every event of this area is about one account. */
  private record<K extends UserEvent>(actor: Actor, type: K, userId: string, data: EventMap[K]): Promise<void> {
    return this.deps.events.record(actor, type, { subject: { resource: 'user', id: userId }, data });
  }

  private resolveId(idOrMe: UserIdOrMe, actor: Actor): string {
    if (idOrMe !== 'me') return idOrMe;
    if (actor.kind !== 'user') throw new AppError('UNAUTHENTICATED', 'Log in to use "me"');
    return actor.id;
  }

  private async visibleProfile(actor: Actor, id: string): Promise<ProfileRow> {
    const row = await this.deps.profiles.findOne({ id }, actor.id, seesEveryAccount(actor));
    if (!row) throw notFound('User');
    return row;
  }

  private pageOf(actor: Actor, rows: ProfileRow[], total: number, window: ReturnType<typeof pageWindow>) {
    return { users: rows.map((row) => toProfileDto(row, actor)), pagination: paginate(window, total) };
  }

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
    return this.pageOf(actor, rows, total, window);
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
    return this.pageOf(actor, rows, total, window);
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
    return { profile: toProfileDto(await this.visibleProfile(actor, this.resolveId(idOrMe, actor)), actor) };
  }

  async getByUsername(actor: Actor, username: string) {
    const row = await this.deps.profiles.findOne({ username }, actor.id, seesEveryAccount(actor));
    if (!row) throw notFound('User');
    return { profile: toProfileDto(row, actor) };
  }

  /** PUT /users/me/avatar: the media module stores both sizes; the profile points at them. */
  async setAvatar(actor: UserActor, image: Buffer) {
    const { url } = await this.deps.media.setAvatar(actor, image);
    await this.saveAvatar(actor, url);
    return this.get(actor, actor.id);
  }

  /** DELETE /users/me/avatar. */
  async removeAvatar(actor: UserActor) {
    await this.deps.media.removeAvatar(actor);
    await this.saveAvatar(actor, null);
    return this.get(actor, actor.id);
  }

  private saveAvatar(actor: UserActor, avatar: string | null) {
    return this.deps.scope.transaction(async () => {
      await this.deps.users.update(actor.id, { avatar });
      await this.record(actor, 'user.updated', actor.id, { fields: ['avatar'] });
    });
  }

  /** GET /users/{id}/avatar: where the profile is visible. */
  async avatar(actor: Actor, id: string, size: AvatarSize) {
    await this.visibleProfile(actor, id);
    return this.deps.media.avatar(id, size);
  }

  async update(actor: UserActor, idOrMe: UserIdOrMe, body: UpdateProfileRequest) {
    const id = this.resolveId(idOrMe, actor);
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
        await this.record(actor, 'user.updated', me.id, { fields: Object.keys(body).sort() });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'This username is taken');
      throw error;
    }
    return this.get(actor, me.id);
  }

  /** Soft delete: hidden, signed out (auth reacts to the event in this transaction), data kept. */
  async deactivate(actor: UserActor, id: string) {
    if (!canDeactivate(actor, id)) throw forbidden('Only the owner or an admin can deactivate an account');
    const target = await this.deps.users.findById(id);
    if (!target) throw notFound('User');
    const now = this.deps.clock.now();
    await this.deps.scope.transaction(async () => {
      await this.deps.users.bumpTokenVersion(id, { deleted_at: now, is_active: false });
      this.deps.revocations.revoke({ userId: id, reason: 'deactivated' });
      await this.record(actor, 'user.deactivated', id, {});
    });
    return { message: 'The account is deactivated' };
  }

  async completion(actor: UserActor, idOrMe: UserIdOrMe) {
    const id = this.resolveId(idOrMe, actor);
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

  private async followTarget(actor: UserActor, id: string): Promise<UserRow> {
    if (id === actor.id) throw new AppError('BAD_REQUEST', 'You cannot follow or block yourself');
    const target = await this.deps.users.findById(id);
    if (!target || !target.is_active || target.is_banned || !target.is_verified) throw notFound('User');
    return target;
  }

  async follow(actor: UserActor, id: string) {
    await this.followTarget(actor, id);
    if (await this.deps.social.blockedEitherWay(actor.id, id)) throw forbidden('You cannot follow this user');
    await this.deps.scope.transaction(async () => {
      if (await this.deps.social.follow(actor.id, id)) await this.record(actor, 'user.followed', id, {});
    });
    return { following: true, follower_count: await this.deps.social.followerCount(id) };
  }

  async unfollow(actor: UserActor, id: string) {
    await this.followTarget(actor, id);
    await this.deps.scope.transaction(async () => {
      if (await this.deps.social.unfollow(actor.id, id)) await this.record(actor, 'user.unfollowed', id, {});
    });
    return { following: false, follower_count: await this.deps.social.followerCount(id) };
  }

  async relations(actor: Actor, idOrMe: UserIdOrMe, direction: 'followers' | 'following', page: PaginationQuery) {
    const target = await this.visibleProfile(actor, this.resolveId(idOrMe, actor));
    if (!canSeeRelations(actor, target)) throw forbidden('This profile is private');
    const window = pageWindow(page.page, page.limit);
    const { rows, total } = await this.deps.profiles.relations(target.id, direction, window, actor.id);
    return this.pageOf(actor, rows, total, window);
  }

  async block(actor: UserActor, id: string) {
    const target = await this.followTarget(actor, id);
    await this.deps.scope.transaction(async () => {
      await this.deps.social.block(actor.id, target.id);
      await this.record(actor, 'user.blocked', id, {});
    });
    return { blocked: true };
  }

  async unblock(actor: UserActor, id: string) {
    await this.followTarget(actor, id);
    await this.deps.scope.transaction(async () => {
      await this.deps.social.unblock(actor.id, id);
      await this.record(actor, 'user.unblocked', id, {});
    });
    return { blocked: false };
  }

  async upgradeToCreator(actor: UserActor) {
    const me = actor.user;
    if (me.role !== 'user') return { user: toUserDto(me) };
    const updated = await this.deps.scope.transaction(async () => {
      const row = await this.deps.users.update(me.id, {
        role: 'creator',
        promoted_to_creator_at: me.promoted_to_creator_at ?? this.deps.clock.now(),
      });
      await this.record(actor, 'user.upgraded_to_creator', me.id, {});
      return row;
    });
    return { user: toUserDto(updated ?? me) };
  }

  async optOutOfSale(actor: UserActor) {
    const at = await this.deps.scope.transaction(async () => {
      const when = await this.deps.preferences.optOutOfSale(actor.id, this.deps.clock.now());
      await this.record(actor, 'user.privacy_opt_out', actor.id, {});
      return when;
    });
    return { do_not_sell: true as const, opted_out_at: at.toISOString() };
  }

  private async preferencesOf(userId: string): Promise<Preferences> {
    const stored = await this.deps.preferences.find(userId);
    return mergePreferences(stored?.settings ?? {}, Boolean(stored?.do_not_sell_at));
  }

  async preferences(actor: UserActor) {
    return { preferences: await this.preferencesOf(actor.id) };
  }

  async updatePreferences(actor: UserActor, changes: UpdatePreferencesRequest) {
    const current = await this.preferencesOf(actor.id);
    const { do_not_sell: _kept, ...privacy } = { ...current.privacy, ...changes.privacy };
    const settings = {
      notifications: { ...current.notifications, ...changes.notifications },
      privacy,
      playback: { ...current.playback, ...changes.playback },
    };
    await this.deps.scope.transaction(async () => {
      await this.deps.preferences.save(actor.id, settings);
      await this.record(actor, 'user.preferences_updated', actor.id, { sections: Object.keys(changes).sort() });
    });
    return { preferences: await this.preferencesOf(actor.id) };
  }

  /** This area's part (profile, preferences, social graph), then every other module's. */
  async exportData(owner: UserActor): Promise<UserExport> {
    // recorded first, so the export's own audit log shows it
    await this.record(owner, 'user.data_exported', owner.id, {});
    const relations = await this.deps.social.relationsOf(owner.id);
    const relation = (item: { user_id: string; username: string; since: Date }) => ({
      ...item,
      since: item.since.toISOString(),
    });
    const own = {
      exported_at: this.deps.clock.now().toISOString(),
      profile: toUserDto(owner.user),
      preferences: await this.preferencesOf(owner.id),
      following: relations.following.map(relation),
      followers: relations.followers.map(relation),
      blocks: relations.blocks.map(relation),
    };
    // the other keys come from the modules that hold them; the contract's reply check proves none is missing
    return { ...own, ...(await this.deps.accounts.export(owner)) } as UserExport;
  }

  /** What this area erases of a deleted account: its social graph and its preferences. */
  async eraseOwnData(owner: UserActor): Promise<void> {
    await this.deps.social.removeAllFor(owner.id);
    await this.deps.preferences.remove(owner.id);
  }

  /** Permanent deletion, in one transaction: every module erases its part, then the row is anonymized in place. */
  async deleteAccount(owner: UserActor, body: Omit<DeleteAccountRequest, 'confirm_text'>) {
    const me = owner.user;
    if (!me.password_hash || !(await this.deps.hasher.verify(me.password_hash, body.password))) {
      throw new AppError('INVALID_PASSWORD', 'The password is wrong');
    }
    const now = this.deps.clock.now();
    const placeholder = `deleted-${randomToken(8).slice(0, 12)}`;
    const keepPublicTracks = body.keep_public_tracks ?? false;
    await this.deps.scope.transaction(async () => {
      const counts = await this.deps.accounts.erase(owner, { keepPublicTracks });
      await this.deps.users.bumpTokenVersion(owner.id, {
        email: null,
        username: placeholder,
        slug: placeholder,
        password_hash: null,
        first_name: null,
        last_name: null,
        avatar: null,
        banner_url: null,
        bio: null,
        birthdate: null,
        gender: null,
        location: null,
        social_links: '{}',
        is_active: false,
        is_public: false,
        two_factor_enabled: false,
        two_factor_secret: null,
        two_factor_pending_secret: null,
        deleted_at: now,
      });
      this.deps.revocations.revoke({ userId: owner.id, reason: 'deleted' });
      await this.record(owner, 'user.deleted', owner.id, {
        reason: body.reason ?? null,
        keep_public_tracks: keepPublicTracks,
        ...counts,
      });
    });
    return { message: 'Your account has been deleted' };
  }
}
