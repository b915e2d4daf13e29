import { policyLimiter } from '../../platform/rate-limit/limit-policies.js';
import './groups.events.js';
import type { Group } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import type { RiffModule } from '../../platform/module.js';
import type { Platform } from '../../platform/platform.js';
import type { AvatarsService } from '../media/avatars.service.js';
import type { PeopleReader } from '../users/people-reader.js';
import { GroupAccountData } from './group-account-data.js';
import { createGroupCounters, type GroupCounters } from './group-counters.js';
import { createGroupModeration } from './group-moderation.js';
import type { GroupReader } from './group-reader.js';
import { GroupViews } from './group-views.js';
import { GroupsRepository } from './groups.repository.js';
import { groupsRoutes } from './groups.routes.js';
import { GroupsService } from './groups.service.js';
import { MembershipRepository } from './membership.repository.js';
import { MembershipService } from './membership.service.js';

export interface GroupsModuleDeps {
  /** The users area's read port: accounts, blocks, profiles, the account lock. */
  people: PeopleReader;
  /** The media area's avatars: a group's avatar is stored and served as a user's. */
  images: Pick<AvatarsService, 'storeImage' | 'openImage' | 'discardImages'>;
}

export type GroupsModule = RiffModule & {
  /** Who reaches a group: the port every other area asks (the posts of a group, notifications, webhooks). */
  reader: GroupReader;
  /** The counters another area keeps on a group (the posts' area: post_count). */
  counters: GroupCounters;
  /** Its groups' moderation state, for the moderation area. */
  moderation: ModeratedContent;
  /** A group as this caller reads it (GET /groups/{id}), if they may: for webhooks. */
  groupFor(actor: Actor, id: string): Promise<Group | undefined>;
  /** A live group's name and who runs it (owner and admins), whoever asks: for notifications. */
  groupFacts(id: string): Promise<{ name: string; ownerId: string; adminIds: string[] } | undefined>;
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { groups: GroupsService; membership: MembershipService };
};

/** Groups: the groups themselves, their members, join requests, invites, roles, bans and transfer. */
export function createGroupsModule(platform: Platform, deps: GroupsModuleDeps): GroupsModule {
  const { scope, events } = platform;
  const { publicBaseUrl } = platform.config;
  const groups = new GroupsRepository(scope);
  const membership = new MembershipRepository(scope);
  const views = new GroupViews(groups);
  const groupsService = new GroupsService({
    scope,
    events,
    groups,
    membership,
    views,
    people: deps.people,
    publicBaseUrl,
    images: deps.images,
  });
  const membershipService = new MembershipService({
    scope,
    events,
    groups,
    membership,
    views,
    replies: groupsService,
    people: deps.people,
    limits: {
      requests: policyLimiter(platform.limits, 'group-join-requests'),
      invites: policyLimiter(platform.limits, 'group-invites'),
    },
  });
  const accountData = new GroupAccountData({ scope, groups, membership });
  const moderation = createGroupModeration(scope, platform.clock, accountData);
  return {
    name: 'groups',
    routes: { groups: groupsRoutes(groupsService, membershipService) },
    eventHandlers: [],
    accountData: {
      export: (owner) => accountData.exportFor(owner),
      erase: (owner) => accountData.eraseFor(owner, moderation),
    },
    reader: views,
    counters: createGroupCounters(groups),
    moderation,
    groupFor: async (actor, id) => {
      const view = await views.view(actor, id);
      return view && groupsService.dto(view);
    },
    groupFacts: async (id) => {
      const row = await groups.view(id, null);
      if (!row) return undefined;
      return { name: row.name, ownerId: row.owner_id, adminIds: await membership.adminIds(id) };
    },
    services: { groups: groupsService, membership: membershipService },
  };
}
