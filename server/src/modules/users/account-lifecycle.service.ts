import type { DeleteAccountRequest, UserExport } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { AccountDirectory } from '../../platform/accounts/account-data.js';
import type { PasswordHasher } from '../../platform/auth/password-hasher.js';
import type { Revocations } from '../../platform/auth/revocations.js';
import { randomToken } from '../../platform/auth/secure-random.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, forbidden, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { PreferencesRepository } from './preferences.repository.js';
import type { PreferencesService } from './preferences.service.js';
import type { SocialRepository } from './social.repository.js';
import { recordUserEvent } from './user-lookup.js';
import { toUserDto } from './user.mapper.js';
import type { UsersRepository } from './users.repository.js';
import { canDeactivate } from './users.policy.js';

export interface AccountLifecycleServiceDeps {
  scope: DbScope;
  users: UsersRepository;
  social: SocialRepository;
  preferences: PreferencesRepository;
  /** The preferences as the export shows them. */
  userPreferences: Pick<PreferencesService, 'of'>;
  events: EventBus;
  /** Every module's part of an account, for the export and the deletion. */
  accounts: AccountDirectory;
  hasher: PasswordHasher;
  clock: Clock;
  revocations: Revocations;
}

/** The account's life after sign-up: deactivation, the data export, permanent deletion and its erasure. */
export class AccountLifecycleService {
  constructor(private readonly deps: AccountLifecycleServiceDeps) {}

  /** Soft delete: hidden, signed out (auth reacts to the event in this transaction), data kept. */
  async deactivate(actor: UserActor, id: string) {
    if (!canDeactivate(actor, id)) throw forbidden('Only the owner or an admin can deactivate an account');
    const target = await this.deps.users.findById(id);
    if (!target) throw notFound('User');
    const now = this.deps.clock.now();
    await this.deps.scope.transaction(async () => {
      await this.deps.users.bumpTokenVersion(id, { deleted_at: now, is_active: false });
      this.deps.revocations.revoke({ userId: id, reason: 'deactivated' });
      await recordUserEvent(this.deps.events, actor, 'user.deactivated', id, {});
    });
    return { message: 'The account is deactivated' };
  }

  /** This area's part (profile, preferences, social graph), then every other module's. */
  async exportData(owner: UserActor): Promise<UserExport> {
    // recorded first, so the export's own audit log shows it
    await recordUserEvent(this.deps.events, owner, 'user.data_exported', owner.id, {});
    const relations = await this.deps.social.relationsOf(owner.id);
    const relation = (item: { user_id: string; username: string; since: Date }) => ({
      ...item,
      since: item.since.toISOString(),
    });
    const own = {
      exported_at: this.deps.clock.now().toISOString(),
      profile: toUserDto(owner.user),
      preferences: await this.deps.userPreferences.of(owner.id),
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
      await recordUserEvent(this.deps.events, owner, 'user.deleted', owner.id, {
        reason: body.reason ?? null,
        keep_public_tracks: keepPublicTracks,
        ...counts,
      });
    });
    return { message: 'Your account has been deleted' };
  }
}
