import { contract } from '@riff/contract';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import { ok } from '../../platform/http/envelope.js';
import type { PlaysService } from './plays.service.js';
import type { RecommendationsService } from './recommendations.service.js';
import type { SocialService } from './social.service.js';

export function socialRoutes({
  social,
  plays,
  recommendations,
}: {
  social: SocialService;
  plays: PlaysService;
  recommendations: RecommendationsService;
}) {
  return contractRoutes(contract.social, {
    like: async ({ params, req }) => ({ status: 200, body: ok(await social.like(signedInActor(req), params.id)) }),
    unlike: async ({ params, req }) => ({ status: 200, body: ok(await social.unlike(signedInActor(req), params.id)) }),
    likers: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await social.likers(signedInActor(req), params.id, query)),
    }),
    userLikes: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await social.userLikes(actorOf(req), params.id, query)),
    }),
    repost: async ({ params, req }) => ({ status: 200, body: ok(await social.repost(signedInActor(req), params.id)) }),
    unrepost: async ({ params, req }) => ({
      status: 200,
      body: ok(await social.unrepost(signedInActor(req), params.id)),
    }),
    userReposts: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await social.userReposts(actorOf(req), params.id, query)),
    }),
    feed: async ({ query, req }) => ({ status: 200, body: ok(await social.feed(signedInActor(req), query)) }),
    share: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await social.share(actorOf(req), params.id, body)),
    }),
    revokeShare: async ({ params, req }) => ({
      status: 200,
      body: ok(await social.revokeShare(signedInActor(req), params.id)),
    }),
    play: async ({ params, query, body, req }) => ({
      status: 200,
      body: ok(await plays.play(actorOf(req), params.id, body, query.secret)),
    }),
    history: async ({ query, req }) => ({ status: 200, body: ok(await plays.history(signedInActor(req), query)) }),
    clearHistory: async ({ req }) => ({ status: 200, body: ok(await plays.clearHistory(signedInActor(req))) }),
    stats: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await plays.stats(signedInActor(req), params.id, query.period)),
    }),
    recommendationsFor: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await recommendations.similar(actorOf(req), params.id, query.limit)),
    }),
    recommendations: async ({ query, req }) => ({
      status: 200,
      body: ok(await recommendations.forUser(signedInActor(req), query.limit)),
    }),
    trending: async ({ query, req }) => ({
      status: 200,
      body: ok(await recommendations.trending(actorOf(req), query)),
    }),
    suggestedTags: async ({ params, req }) => ({
      status: 200,
      body: ok(await recommendations.suggestedTags(signedInActor(req), params.id)),
    }),
  });
}
