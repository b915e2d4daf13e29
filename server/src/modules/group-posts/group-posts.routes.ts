import { contract } from '@riff/contract';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { GroupPostsService } from './group-posts.service.js';

export function groupPostsRoutes(posts: GroupPostsService) {
  return contractRoutes(contract.groupPosts, {
    list: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await posts.list(actorOf(req), params.id, query)),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: ok(await posts.get(actorOf(req), params.id, params.post_id)),
    }),
    replies: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await posts.replies(actorOf(req), params.id, params.post_id, query)),
    }),
    create: async ({ params, body, req }) => ({
      status: 201,
      body: ok(await posts.create(signedInActor(req), params.id, body)),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await posts.update(signedInActor(req), params.id, params.post_id, body.content)),
    }),
    remove: async ({ params, req }) => ({
      status: 200,
      body: ok(await posts.remove(signedInActor(req), params.id, params.post_id)),
    }),
    pin: async ({ params, req }) => ({
      status: 200,
      body: ok(await posts.setPinned(signedInActor(req), params.id, params.post_id, true)),
    }),
    unpin: async ({ params, req }) => ({
      status: 200,
      body: ok(await posts.setPinned(signedInActor(req), params.id, params.post_id, false)),
    }),
  });
}
