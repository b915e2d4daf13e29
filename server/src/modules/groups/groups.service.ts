import {
  GROUPS_OWNED_MAX,
  type CreateGroupRequest,
  type Group,
  type GroupListQuery,
  type UpdateGroupRequest,
} from '@riff/contract';
import type { AvatarSize } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import { removedContent } from '../../platform/access/moderation.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { forbidden, limitReached, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { AvatarsService } from '../media/avatars.service.js';
import type { PeopleReader } from '../users/people-reader.js';
import { firstFreeSlug, slugify } from '../users/slug.js';
import type { GroupViews } from './group-views.js';
import { toGroupDto } from './groups.mapper.js';
import { canDeleteGroup, canManageGroup } from './groups.policy.js';
import type { GroupsRepository, GroupView } from './groups.repository.js';
import type { MembershipRepository } from './membership.repository.js';

export interface GroupsServiceDeps {
  scope: DbScope;
  events: EventBus;
  groups: GroupsRepository;
  membership: MembershipRepository;
  views: GroupViews;
  /** The users area's account lock: one user's creations run one at a time under the limit of owned groups. */
  people: Pick<PeopleReader, 'lockAccount'>;
  /** Replies carry absolute avatar URLs. */
  publicBaseUrl: string;
  /** The media area's avatar images: a group's avatar is made, stored and served as a user's. */
  images: Pick<AvatarsService, 'storeImage' | 'openImage' | 'discardImages'>;
}

/** Groups themselves: creation under the owner's limit, the list, one group, edits, deletion. */
export class GroupsService {
  constructor(private readonly deps: GroupsServiceDeps) {}

  dto(view: GroupView): Group {
    return toGroupDto(view, this.deps.publicBaseUrl);
  }

  /** The caller's view of a group now, as a reply (after a change). */
  async current(actor: Actor, id: string): Promise<Group> {
    return this.dto(await this.deps.views.required(actor, id));
  }

  /** A free slug for `name`: -2, -3… when taken. Serialised per base so two groups of one name do not race. */
  private async uniqueSlug(name: string, exceptId?: string): Promise<string> {
    const base = slugify(name, 'group');
    await this.deps.groups.lockSlug(base);
    return firstFreeSlug(base, await this.deps.groups.slugsLike(base, exceptId));
  }

  /** POST /groups: the caller owns it and is its first member; at most GROUPS_OWNED_MAX owned. */
  async create(actor: UserActor, body: CreateGroupRequest): Promise<Group> {
    return this.deps.scope.transaction(async () => {
      // one user's creations (and transfers to them) one at a time: the count below stays true
      await this.deps.people.lockAccount(actor.id);
      if ((await this.deps.groups.countOwned(actor.id)) >= GROUPS_OWNED_MAX) {
        throw limitReached(`You may own at most ${GROUPS_OWNED_MAX} groups`);
      }
      const row = await this.deps.groups.insert({
        slug: await this.uniqueSlug(body.name),
        name: body.name,
        description: body.description ?? null,
        visibility: body.visibility,
        join_policy: body.join_policy,
        owner_id: actor.id,
      });
      await this.deps.membership.addMember(row.id, actor.id, 'owner');
      await this.deps.events.record(actor, 'group.created', {
        subject: { resource: 'group', id: row.id },
        data: { name: row.name, owner_id: actor.id },
      });
      return this.current(actor, row.id);
    });
  }

  /** GET /groups: public groups and the private ones the caller belongs to. */
  async list(actor: Actor, query: GroupListQuery) {
    const window = pageWindow(query.page, query.limit);
    const mineOnly = query.member === 'me';
    if (mineOnly && actor.kind !== 'user') return { groups: [], pagination: paginate(window, 0) };
    const { rows, total } = await this.deps.groups.list(
      actor,
      { ...(query.q ? { q: query.q } : {}), mineOnly },
      window,
    );
    return { groups: rows.map((view) => this.dto(view)), pagination: paginate(window, total) };
  }

  async get(actor: Actor, id: string): Promise<Group> {
    return this.current(actor, id);
  }

  async bySlug(actor: Actor, slug: string): Promise<Group> {
    const row = await this.deps.groups.viewBySlug(slug, actor.id);
    if (!row) throw notFound('Group');
    return this.current(actor, row.id);
  }

  /** A group the caller may edit (owner, group admins, service admins); 404/403 otherwise; removed: 403. */
  async editable(actor: Actor, id: string): Promise<GroupView> {
    const view = await this.deps.views.required(actor, id);
    if (!canManageGroup(actor, view)) throw forbidden('Only the owner and the group’s admins may change the group');
    if (view.moderation_status === 'removed') throw removedContent();
    return view;
  }

  /** PUT /groups/{id}. */
  async update(actor: UserActor, id: string, body: UpdateGroupRequest): Promise<Group> {
    return this.deps.scope.transaction(async () => {
      const view = await this.editable(actor, id);
      const changes: Parameters<GroupsRepository['update']>[1] = {};
      if (body.name !== undefined && body.name !== view.name) {
        changes.name = body.name;
        changes.slug = await this.uniqueSlug(body.name, id);
      }
      if (body.description !== undefined) changes.description = body.description;
      if (body.visibility !== undefined) changes.visibility = body.visibility;
      if (body.join_policy !== undefined) changes.join_policy = body.join_policy;
      await this.deps.groups.update(id, changes);
      await this.deps.events.record(actor, 'group.updated', {
        subject: { resource: 'group', id },
        data: { fields: Object.keys(changes) },
      });
      return this.current(actor, id);
    });
  }

  /** DELETE /groups/{id}: a soft delete, by the owner. */
  async remove(actor: UserActor, id: string) {
    return this.deps.scope.transaction(async () => {
      const view = await this.deps.views.required(actor, id);
      if (!canDeleteGroup(actor, view)) throw forbidden('Only the owner may delete the group');
      await this.deps.groups.update(id, { deleted_at: new Date() });
      await this.deps.events.record(actor, 'group.deleted', {
        subject: { resource: 'group', id },
        data: { name: view.name },
        userId: view.owner_id,
      });
      return { message: 'Group deleted' };
    });
  }

  /** PUT /groups/{id}/avatar (owner and admins): both sizes stored; the replaced ones go once this commits. */
  async setAvatar(actor: UserActor, id: string, bytes: Buffer): Promise<Group> {
    await this.editable(actor, id);
    const stored = await this.deps.images.storeImage(id, bytes);
    try {
      return await this.deps.scope.transaction(async () => {
        const before = await this.editable(actor, id);
        await this.deps.groups.update(id, {
          avatar_large_key: stored.large_key,
          avatar_small_key: stored.small_key,
          avatar_content_type: stored.content_type,
        });
        await this.deps.events.record(actor, 'group.updated', {
          subject: { resource: 'group', id },
          data: { fields: ['avatar'] },
        });
        const old = [before.avatar_large_key, before.avatar_small_key].filter((key): key is string => key !== null);
        if (old.length > 0) this.deps.scope.afterCommit(() => this.deps.images.discardImages(old));
        return this.current(actor, id);
      });
    } catch (error) {
      await this.deps.images.discardImages([stored.large_key, stored.small_key]);
      throw error;
    }
  }

  /** GET /groups/{id}/avatar?size=: where the group is visible. */
  async avatar(actor: Actor, id: string, size: AvatarSize) {
    const view = await this.deps.views.required(actor, id);
    const key = size === 128 ? view.avatar_small_key : view.avatar_large_key;
    if (!key || !view.avatar_content_type) throw notFound('Avatar');
    return { body: await this.deps.images.openImage(key), contentType: view.avatar_content_type };
  }
}
