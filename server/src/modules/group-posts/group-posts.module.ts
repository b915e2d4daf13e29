import './group-posts.events.js';
import type { GroupPost, Playlist } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { policyLimiter } from '../../platform/rate-limit/limit-policies.js';
import type { GroupCounters } from '../groups/group-counters.js';
import type { GroupReader } from '../groups/group-reader.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import { createGroupPostModeration } from './group-post-moderation.js';
import { GroupPostsRepository } from './group-posts.repository.js';
import { groupPostsRoutes } from './group-posts.routes.js';
import { GroupPostsService } from './group-posts.service.js';

/** The posts of groups: one level of replies, pins, references; a group's reader rule is the groups area's. */
export type GroupPostsModule = RiffModule & {
  /** Its posts' moderation state, for the moderation area. */
  moderation: ModeratedContent;
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { posts: GroupPostsService };
  /** For notifications and webhooks: a post as this caller reads it, if they may. */
  postFor(actor: Actor, id: string): Promise<GroupPost | undefined>;
};

export interface GroupPostsModuleDeps {
  groups: GroupReader;
  groupCounters: GroupCounters;
  tracks: TrackReader;
  playlists: (actor: Actor, ids: readonly string[]) => Promise<Map<string, Playlist>>;
  people: PeopleReader;
}

export function createGroupPostsModule(platform: Platform, deps: GroupPostsModuleDeps): GroupPostsModule {
  const posts = new GroupPostsRepository(platform.scope);
  const service = new GroupPostsService({
    scope: platform.scope,
    posts,
    groups: deps.groups,
    groupCounters: deps.groupCounters,
    tracks: deps.tracks,
    playlists: deps.playlists,
    people: deps.people,
    events: platform.events,
    clock: platform.clock,
    created: policyLimiter(platform.limits, 'group-posts-created'),
  });
  return {
    name: 'group-posts',
    moderation: createGroupPostModeration(platform.scope, platform.clock),
    services: { posts: service },
    postFor: (actor, id) => service.postFor(actor, id),
    routes: { groupPosts: groupPostsRoutes(service) },
    accountData: {
      export: (owner) => service.exportFor(owner),
      erase: (owner) => service.eraseFor(owner),
    },
  };
}
