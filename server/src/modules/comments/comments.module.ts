import './comments.events.js';
import type { Comment } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import type { EventHandler } from '../../platform/events/event-bus.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { policyLimiter } from '../../platform/rate-limit/limit-policies.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import { CommentsRepository } from './comments.repository.js';
import { commentsRoutes } from './comments.routes.js';
import { CommentsService } from './comments.service.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import { createCommentModeration } from './comment-moderation.js';

/** Timestamped comments on tracks with one level of replies; a deleted track's comments go with it. */
export type CommentsModule = RiffModule & {
  /** Its items' moderation state, for the moderation area. */
  moderation: ModeratedContent;
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { comments: CommentsService };
  count: (trackId: string, since: Date | null) => Promise<number>;
  /** For the admin area's figures: comments written since. */
  createdSince: (since: Date) => Promise<number>;
  /** For webhooks: a comment as this caller reads it, if they may. */
  commentFor(actor: Actor, id: string): Promise<Comment | undefined>;
};

export interface CommentsModuleDeps {
  /** The tracks area's read port: the track commented on (who may see it, how long it is). */
  tracks: TrackReader;
  /** The users area's read port: blocks, and the authors' names. */
  people: PeopleReader;
}

export function createCommentsModule(platform: Platform, deps: CommentsModuleDeps): CommentsModule {
  const comments = new CommentsRepository(platform.scope);
  const service = new CommentsService({
    scope: platform.scope,
    comments,
    tracks: deps.tracks,
    people: deps.people,
    events: platform.events,
    clock: platform.clock,
    created: policyLimiter(platform.limits, 'comments-created'),
  });
  const trackDeleted: EventHandler<'track.deleted'> = {
    name: 'comments.track-deleted',
    types: ['track.deleted'],
    handle: async (event) => {
      if (event.subject.id) await service.forgetTrack(event.subject.id);
    },
  };
  return {
    name: 'comments',
    moderation: createCommentModeration(platform.scope, platform.clock),
    services: { comments: service },
    count: (trackId, since) => comments.liveCountSince(trackId, since),
    createdSince: (since) => comments.createdSince(since),
    commentFor: (actor, id) => service.commentFor(actor, id),
    routes: { comments: commentsRoutes(service) },
    eventHandlers: [trackDeleted as unknown as EventHandler],
    accountData: {
      export: (owner) => service.exportFor(owner),
      erase: (owner) => service.eraseFor(owner),
    },
  };
}
