import { initContract } from '@ts-rest/core';
import { IdParamsSchema, MessageSchema, PaginationQuerySchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import { TrackPageSchema } from '../tracks/tracks.schemas.js';
import { UserIdOrMeParamsSchema, UserListEnvelope } from '../users/users.schemas.js';
import { playsContract } from './plays.contract.js';
import {
  FeedEnvelope,
  LikeStateEnvelope,
  RepostStateEnvelope,
  ShareEnvelope,
  ShareRequestSchema,
} from './social.schemas.js';

const c = initContract();

const TrackPage = envelope(TrackPageSchema);

/** Likes (the favorites playlist), reposts and the feed, shares and secret links. */
export const likesContract = c.router({
  like: {
    method: 'POST',
    path: '/tracks/:id/like',
    summary: 'Like a track',
    description:
      'Idempotent. A like is the track’s entry in your favorites playlist (is_default_favorites, private, title "Favorites", ' +
      'made on first need): liking adds it there, unliking removes it, and removing it from that playlist unlikes it.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: LikeStateEnvelope, ...errors(400, 401, 403, 404) },
  },
  unlike: {
    method: 'DELETE',
    path: '/tracks/:id/like',
    summary: 'Unlike a track',
    description: 'Idempotent; removes the track from your favorites playlist.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: LikeStateEnvelope, ...errors(400, 401, 403, 404) },
  },
  likers: {
    method: 'GET',
    path: '/tracks/:id/likes',
    summary: 'Who liked a track',
    description:
      'The track’s owner or an admin; another user who may see the track gets 403. Public profiles, newest like first.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    query: PaginationQuerySchema,
    responses: { 200: UserListEnvelope, ...errors(400, 401, 403, 404) },
  },
  userLikes: {
    method: 'GET',
    path: '/users/:id/likes',
    summary: 'Tracks a user liked',
    description: 'Newest like first; only tracks the caller may see. `me` needs authentication.',
    metadata: optionalAuth,
    pathParams: UserIdOrMeParamsSchema,
    query: PaginationQuerySchema,
    responses: { 200: TrackPage, ...errors(400, 401, 403, 404) },
  },
  repost: {
    method: 'POST',
    path: '/tracks/:id/repost',
    summary: 'Repost a track',
    description:
      'Idempotent. Only public tracks, and not your own (400 BAD_REQUEST). Your followers see it in their feed.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: RepostStateEnvelope, ...errors(400, 401, 403, 404) },
  },
  unrepost: {
    method: 'DELETE',
    path: '/tracks/:id/repost',
    summary: 'Remove a repost',
    description: 'Idempotent.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: RepostStateEnvelope, ...errors(400, 401, 403, 404) },
  },
  userReposts: {
    method: 'GET',
    path: '/users/:id/reposts',
    summary: 'Tracks a user reposted',
    description: 'Newest repost first; public tracks only. `me` needs authentication.',
    metadata: optionalAuth,
    pathParams: UserIdOrMeParamsSchema,
    query: PaginationQuerySchema,
    responses: { 200: TrackPage, ...errors(400, 401, 403, 404) },
  },
  feed: {
    method: 'GET',
    path: '/feed',
    summary: 'Your feed',
    description:
      'Public uploads and reposts of the people you follow, newest first. Users you blocked or who blocked you, and their ' +
      'tracks, never appear.',
    metadata: userRoute,
    query: PaginationQuerySchema,
    responses: { 200: FeedEnvelope, ...errors(400, 401, 403) },
  },
  share: {
    method: 'POST',
    path: '/tracks/:id/share',
    summary: 'Share a track',
    description:
      'Counts a share and answers the link. A private track can be shared by its owner only (others 403, or 404 when they ' +
      'cannot see it): its link carries ?secret=, with which anyone may read and stream that one track (GET /tracks/{id}, ' +
      '/stream, /download, /hls/…, /waveform, /cover) until the owner revokes it with DELETE /tracks/{id}/share. The secret ' +
      'is stored hashed; sharing again answers the same link until it is revoked. At most 30 shares a minute per caller.',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    body: ShareRequestSchema,
    responses: { 200: ShareEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  revokeShare: {
    method: 'DELETE',
    path: '/tracks/:id/share',
    summary: 'Revoke the secret link',
    description: 'The owner (or an admin): the private track’s secret link stops working at once. Idempotent.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
});

/** The track social area: likes, reposts, feed, shares, plays, history, stats, recommendations, tags. */
export const socialContract = c.router({ ...likesContract, ...playsContract });
