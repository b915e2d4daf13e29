import { contractRoutes } from '../../platform/http/contract-routes.js';
import { contract } from '@riff/contract';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import { ok } from '../../platform/http/envelope.js';
import type { CommentsService } from './comments.service.js';

export function commentsRoutes(comments: CommentsService) {
  return contractRoutes(contract.comments, {
    list: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await comments.list(actorOf(req), params.id, query)),
    }),
    create: async ({ params, body, req }) => ({
      status: 201,
      body: ok(await comments.create(signedInActor(req), params.id, body)),
    }),
    remove: async ({ params, req }) => ({
      status: 200,
      body: ok(await comments.remove(signedInActor(req), params.id, params.comment_id)),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await comments.update(signedInActor(req), params.id, body.content)),
    }),
    replies: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await comments.replies(actorOf(req), params.id, query)),
    }),
  });
}
