import type {
  DeleteAccountRequest,
  ListUsersQuery,
  PaginationQuery,
  Preferences,
  SearchUsersQuery,
  Track,
  UpdatePreferencesRequest,
  UpdateProfileRequest,
  UserExport,
} from '@riff/contract';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/db-errors.js';
import type { UserRow, UserUpdate } from '../../platform/db/database.schema.js';
import { AppError, forbidden, notFound } from '../../platform/errors/app-error.js';
import type { PasswordHasher } from '../../platform/auth/password-hasher.js';
import { randomToken } from '../../platform/auth/secure-random.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { RequestContext } from '../../platform/http/request-context.js';
import { toAuditEntryDto } from '../audit/audit.mapper.js';
import type { AuthRepository } from '../auth/auth.repository.js';
import { mergePreferences } from './preferences.defaults.js';
import type { PreferencesRepository } from './preferences.repository.js';
import type { ProfileFilter, ProfileRow, ProfileSort, ProfilesRepository } from './profiles.repository.js';
import type { SocialRepository } from './social.repository.js';
import { toProfileDto, toUserDto } from './user.mapper.js';
import type { UsersRepository } from './users.repository.js';
import { uniqueSlug } from './slug.js';

export interface UsersServiceDeps {
  db: Db;
  users: UsersRepository;
  profiles: ProfilesRepository;
  social: SocialRepository;
  preferences: PreferencesRepository;
  auth: AuthRepository;
  audit: AuditRepository;
  hasher: PasswordHasher;
  clock: Clock;
  /** The tracks area: removes a deleted account's tracks and lists them for the export. */
  tracks: {
    removeTracksOf(userId: string, keepPublic: boolean, context: RequestContext): Promise<number>;
    tracksForExport(owner: UserRow): Promise<Track[]>;
    lyricsForExport(owner: UserRow): Promise<UserExport['lyrics']>;
  };
}

export type UserIdOrMe = string;

const COMPLETION_FIELDS = ['avatar', 'banner_url', 'bio', 'first_name', 'last_name', 'location', 'birthdate', 'gender', 'social_links'] as const;

export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  private resolveId(idOrMe: UserIdOrMe, viewer: UserRow | undefined): string {
    if (idOrMe !== 'me') return idOrMe;
    if (!viewer) throw new AppError('UNAUTHENTICATED', 'Log in to use "me"');
    return viewer.id;
  }

  private async visibleProfile(id: string, viewer: UserRow | undefined): Promise<ProfileRow> {
    const row = await this.deps.profiles.findOne({ id }, viewer?.id ?? null, viewer?.is_admin ?? false);
    if (!row) throw notFound('User');
    return row;
  }

  private pageOf(rows: ProfileRow[], total: number, window: ReturnType<typeof pageWindow>, viewer: UserRow | undefined) {
    return { users: rows.map((row) => toProfileDto(row, viewer)), pagination: paginate(window, total) };
  }

  async list(
    query: ListUsersQuery,
    viewer: UserRow | undefined,
  ) {
    const admin = viewer?.is_admin === true;
    if (query.sort_by === 'email' && !admin) throw forbidden('Only admins may sort users by email');
    const filter: ProfileFilter = {
      role: query.role,
      isActive: query.is_active,
      isVerified: query.is_verified,
      search: query.search,
      searchEmail: admin,
      privileged: admin,
      includeInactive: admin,
    };
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.profiles.list(filter, { by: query.sort_by, order: query.sort_order }, window, viewer?.id ?? null);
    return this.pageOf(rows, total, window, viewer);
  }

  async search(query: SearchUsersQuery, viewer: UserRow | undefined) {
    const window = pageWindow(query.page, query.limit);
    const sort: ProfileSort = { by: 'relevance', query: query.q };
    const { rows, total } = await this.deps.profiles.list({ search: query.q, privileged: viewer?.is_admin === true }, sort, window, viewer?.id ?? null);
    return this.pageOf(rows, total, window, viewer);
  }

  async suggestions(viewer: UserRow, limit: number) {
    const rows = await this.deps.profiles.suggestions(viewer.id, limit);
    return { users: rows.map((row) => toProfileDto(row, viewer)) };
  }

  async get(idOrMe: UserIdOrMe, viewer: UserRow | undefined) {
    return { profile: toProfileDto(await this.visibleProfile(this.resolveId(idOrMe, viewer), viewer), viewer) };
  }

  async getByUsername(username: string, viewer: UserRow | undefined) {
    const row = await this.deps.profiles.findOne({ username }, viewer?.id ?? null, viewer?.is_admin ?? false);
    if (!row) throw notFound('User');
    return { profile: toProfileDto(row, viewer) };
  }

  async update(
    idOrMe: UserIdOrMe,
    viewer: UserRow,
    body: UpdateProfileRequest,
    context: RequestContext,
  ) {
    const id = this.resolveId(idOrMe, viewer);
    if (id !== viewer.id) throw forbidden('You can only edit your own profile');
    const { social_links, username, ...fields } = body;
    const changes: UserUpdate = { ...fields };
    if (social_links !== undefined) changes.social_links = JSON.stringify(social_links);
    if (username !== undefined && username !== viewer.username) {
      if (username.toLowerCase() !== viewer.username.toLowerCase() && (await this.deps.users.usernameTaken(username))) {
        throw new AppError('CONFLICT', 'This username is taken');
      }
      changes.username = username;
      changes.slug = await uniqueSlug(this.deps.users, username, viewer.id);
      changes.username_changed_at = this.deps.clock.now();
    }
    try {
      await this.deps.users.update(viewer.id, changes);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'This username is taken');
      throw error;
    }
    await this.deps.audit.record(
      { userId: viewer.id, action: 'user.updated', resource: 'user', resourceId: viewer.id, metadata: { fields: Object.keys(body).sort() } },
      context,
    );
    return this.get(viewer.id, viewer);
  }

  /** Soft delete: hidden, signed out, data kept. */
  async deactivate(id: string, viewer: UserRow, context: RequestContext) {
    if (id !== viewer.id && !viewer.is_admin) throw forbidden('Only the owner or an admin can deactivate an account');
    const target = await this.deps.users.findById(id);
    if (!target) throw notFound('User');
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.users.bumpTokenVersion(id, { deleted_at: now, is_active: false }, trx);
      await this.deps.auth.revokeAllForUser(id, now, trx);
      await this.deps.audit.record({ userId: viewer.id, action: 'user.deactivated', resource: 'user', resourceId: id }, context, trx);
    });
    return { message: 'The account is deactivated' };
  }

  async completion(idOrMe: UserIdOrMe, viewer: UserRow) {
    const id = this.resolveId(idOrMe, viewer);
    if (id !== viewer.id && !viewer.is_admin) throw forbidden('You can only see your own profile completion');
    const row = id === viewer.id ? viewer : await this.deps.users.findById(id);
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

  private async followTarget(id: string, viewer: UserRow): Promise<UserRow> {
    if (id === viewer.id) throw new AppError('BAD_REQUEST', 'You cannot follow or block yourself');
    const target = await this.deps.users.findById(id);
    if (!target || !target.is_active || target.is_banned || !target.is_verified) throw notFound('User');
    return target;
  }

  async follow(id: string, viewer: UserRow, context: RequestContext) {
    await this.followTarget(id, viewer);
    if (await this.deps.social.blockedEitherWay(viewer.id, id)) throw forbidden('You cannot follow this user');
    if (await this.deps.social.follow(viewer.id, id)) {
      await this.deps.audit.record({ userId: viewer.id, action: 'user.followed', resource: 'user', resourceId: id }, context);
    }
    return { following: true, follower_count: await this.deps.social.followerCount(id) };
  }

  async unfollow(id: string, viewer: UserRow, context: RequestContext) {
    await this.followTarget(id, viewer);
    if (await this.deps.social.unfollow(viewer.id, id)) {
      await this.deps.audit.record({ userId: viewer.id, action: 'user.unfollowed', resource: 'user', resourceId: id }, context);
    }
    return { following: false, follower_count: await this.deps.social.followerCount(id) };
  }

  async relations(idOrMe: UserIdOrMe, direction: 'followers' | 'following', page: PaginationQuery, viewer: UserRow | undefined) {
    const target = await this.visibleProfile(this.resolveId(idOrMe, viewer), viewer);
    if (!target.is_public && viewer?.id !== target.id && !viewer?.is_admin) throw forbidden('This profile is private');
    const window = pageWindow(page.page, page.limit);
    const { rows, total } = await this.deps.profiles.relations(target.id, direction, window, viewer?.id ?? null);
    return this.pageOf(rows, total, window, viewer);
  }

  async block(id: string, viewer: UserRow, context: RequestContext) {
    const target = await this.followTarget(id, viewer);
    await this.deps.social.block(viewer.id, target.id);
    await this.deps.audit.record({ userId: viewer.id, action: 'user.blocked', resource: 'user', resourceId: id }, context);
    return { blocked: true };
  }

  async unblock(id: string, viewer: UserRow, context: RequestContext) {
    await this.followTarget(id, viewer);
    await this.deps.social.unblock(viewer.id, id);
    await this.deps.audit.record({ userId: viewer.id, action: 'user.unblocked', resource: 'user', resourceId: id }, context);
    return { blocked: false };
  }

  async upgradeToCreator(viewer: UserRow, context: RequestContext) {
    if (viewer.role !== 'user') return { user: toUserDto(viewer) };
    const updated = await this.deps.users.update(viewer.id, {
      role: 'creator',
      promoted_to_creator_at: viewer.promoted_to_creator_at ?? this.deps.clock.now(),
    });
    await this.deps.audit.record({ userId: viewer.id, action: 'user.upgraded_to_creator', resource: 'user', resourceId: viewer.id }, context);
    return { user: toUserDto(updated ?? viewer) };
  }

  async optOutOfSale(viewer: UserRow, context: RequestContext) {
    const at = await this.deps.preferences.optOutOfSale(viewer.id, this.deps.clock.now());
    await this.deps.audit.record({ userId: viewer.id, action: 'user.privacy_opt_out', resource: 'user', resourceId: viewer.id }, context);
    return { do_not_sell: true as const, opted_out_at: at.toISOString() };
  }

  async preferencesOf(userId: string): Promise<Preferences> {
    const stored = await this.deps.preferences.find(userId);
    return mergePreferences(stored?.settings ?? {}, Boolean(stored?.do_not_sell_at));
  }

  async updatePreferences(
    viewer: UserRow,
    changes: UpdatePreferencesRequest,
    context: RequestContext,
  ) {
    const current = await this.preferencesOf(viewer.id);
    const { do_not_sell: _kept, ...privacy } = { ...current.privacy, ...changes.privacy };
    const settings = {
      notifications: { ...current.notifications, ...changes.notifications },
      privacy,
      playback: { ...current.playback, ...changes.playback },
    };
    await this.deps.preferences.save(viewer.id, settings);
    await this.deps.audit.record(
      { userId: viewer.id, action: 'user.preferences_updated', resource: 'user', resourceId: viewer.id, metadata: { sections: Object.keys(changes).sort() } },
      context,
    );
    return { preferences: await this.preferencesOf(viewer.id) };
  }

  async exportData(viewer: UserRow, context: RequestContext) {
    await this.deps.audit.record({ userId: viewer.id, action: 'user.data_exported', resource: 'user', resourceId: viewer.id }, context);
    const relations = await this.deps.social.relationsOf(viewer.id);
    const relation = (item: { user_id: string; username: string; since: Date }) => ({ ...item, since: item.since.toISOString() });
    return {
      exported_at: this.deps.clock.now().toISOString(),
      profile: toUserDto(viewer),
      preferences: await this.preferencesOf(viewer.id),
      following: relations.following.map(relation),
      followers: relations.followers.map(relation),
      blocks: relations.blocks.map(relation),
      tracks: await this.deps.tracks.tracksForExport(viewer),
      lyrics: await this.deps.tracks.lyricsForExport(viewer),
      audit_logs: (await this.deps.audit.allFor(viewer.id)).map(toAuditEntryDto),
    };
  }

  /** Permanent deletion: anonymized in place, signed out everywhere, social graph and secrets removed. */
  async deleteAccount(viewer: UserRow, body: Omit<DeleteAccountRequest, 'confirm_text'>, context: RequestContext) {
    if (!viewer.password_hash || !(await this.deps.hasher.verify(viewer.password_hash, body.password))) {
      throw new AppError('INVALID_PASSWORD', 'The password is wrong');
    }
    const now = this.deps.clock.now();
    const placeholder = `deleted-${randomToken(8).slice(0, 12)}`;
    // tracks first: their files leave storage before the account is gone
    const removedTracks = await this.deps.tracks.removeTracksOf(viewer.id, body.keep_public_tracks ?? false, context);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.users.bumpTokenVersion(
        viewer.id,
        {
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
        },
        trx,
      );
      await this.deps.auth.revokeAllForUser(viewer.id, now, trx);
      await this.deps.auth.removeSecretsFor(viewer.id, trx);
      await this.deps.social.removeAllFor(viewer.id, trx);
      await this.deps.preferences.remove(viewer.id, trx);
      await this.deps.audit.record(
        {
          userId: viewer.id,
          action: 'user.deleted',
          resource: 'user',
          resourceId: viewer.id,
          metadata: { reason: body.reason ?? null, keep_public_tracks: body.keep_public_tracks ?? false, removed_tracks: removedTracks },
        },
        context,
        trx,
      );
    });
    return { message: 'Your account has been deleted' };
  }
}
