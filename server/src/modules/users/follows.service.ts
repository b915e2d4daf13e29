import type { PaginationQuery } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { UserRow } from './users.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, forbidden, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { pageWindow } from '../../platform/http/pagination.js';
import type { ProfilesRepository } from './profiles.repository.js';
import type { SocialRepository } from './social.repository.js';
import { profilePage, recordUserEvent, resolveId, visibleProfile, type UserIdOrMe } from './user-lookup.js';
import type { UsersRepository } from './users.repository.js';
import { canSeeRelations } from './users.policy.js';

export interface FollowsServiceDeps {
  scope: DbScope;
  users: UsersRepository;
  profiles: ProfilesRepository;
  social: SocialRepository;
  events: EventBus;
}

/** Follows and blocks between accounts, and the lists of followers and followed. */
export class FollowsService {
  constructor(private readonly deps: FollowsServiceDeps) {}

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
      if (await this.deps.social.follow(actor.id, id))
        await recordUserEvent(this.deps.events, actor, 'user.followed', id, {});
    });
    return { following: true, follower_count: await this.deps.social.followerCount(id) };
  }

  async unfollow(actor: UserActor, id: string) {
    await this.followTarget(actor, id);
    await this.deps.scope.transaction(async () => {
      if (await this.deps.social.unfollow(actor.id, id))
        await recordUserEvent(this.deps.events, actor, 'user.unfollowed', id, {});
    });
    return { following: false, follower_count: await this.deps.social.followerCount(id) };
  }

  async relations(actor: Actor, idOrMe: UserIdOrMe, direction: 'followers' | 'following', page: PaginationQuery) {
    const target = await visibleProfile(this.deps.profiles, actor, resolveId(idOrMe, actor));
    if (!canSeeRelations(actor, target)) throw forbidden('This profile is private');
    const window = pageWindow(page.page, page.limit);
    const { rows, total } = await this.deps.profiles.relations(target.id, direction, window, actor.id);
    return profilePage(actor, rows, total, window);
  }

  async block(actor: UserActor, id: string) {
    const target = await this.followTarget(actor, id);
    await this.deps.scope.transaction(async () => {
      await this.deps.social.block(actor.id, target.id);
      await recordUserEvent(this.deps.events, actor, 'user.blocked', id, {});
    });
    return { blocked: true };
  }

  async unblock(actor: UserActor, id: string) {
    await this.followTarget(actor, id);
    await this.deps.scope.transaction(async () => {
      await this.deps.social.unblock(actor.id, id);
      await recordUserEvent(this.deps.events, actor, 'user.unblocked', id, {});
    });
    return { blocked: false };
  }
}
