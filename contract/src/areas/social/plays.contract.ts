import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, MessageSchema, PaginationQuerySchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import { SecretField } from '../tracks/tracks.schemas.js';
import {
  HISTORY_MIN_SECONDS,
  HistoryEnvelope,
  ANONYMOUS_PLAYS_PER_ADDRESS,
  ANONYMOUS_PLAYS_PERIOD_HOURS,
  PLAY_COUNT_SECONDS,
  PLAY_WINDOW_MINUTES,
  PlayEnvelope,
  PlayRequestSchema,
  RECOMMENDATIONS_MAX,
  RecommendationsQuerySchema,
  StatsQuerySchema,
  SUGGESTED_TAGS_MAX,
  SuggestedTagsEnvelope,
  TrackListEnvelope,
  TrackStatsEnvelope,
  TrendingEnvelope,
  TrendingQuerySchema,
} from './social.schemas.js';

const c = initContract();

/** Plays and history, the owner's stats, recommendations and suggested tags. */
export const playsContract = c.router({
  play: {
    method: 'POST',
    path: '/tracks/:id/play',
    summary: 'Report a play',
    description:
      `A play counts (play_count + 1, counted: true) when at least ${PLAY_COUNT_SECONDS} s were listened, or the whole track ` +
      `if it is shorter, and at most once per listener per track per ${PLAY_WINDOW_MINUTES} minutes. The listener is the ` +
      'signed-in user, else a keyed hash of the address and user agent (the address itself is never stored). Signed-in plays ' +
      `of ${HISTORY_MIN_SECONDS} s or more go into the listening history, unless privacy.show_listening_history is off in ` +
      'the preferences. Every reported play feeds the owner’s stats. At most 120 reports a minute per listener (429). ' +
      `Anonymous plays from one address, whatever user agents it sends, count at most ${ANONYMOUS_PLAYS_PER_ADDRESS} times per ` +
      `track per ${ANONYMOUS_PLAYS_PERIOD_HOURS} hours (the defaults of ANONYMOUS_PLAYS_PER_ADDRESS and ` +
      'ANONYMOUS_PLAYS_PERIOD_HOURS); a play beyond that still answers 200, with counted: false.',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: z.object({ secret: SecretField }),
    body: PlayRequestSchema,
    responses: { 200: PlayEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  history: {
    method: 'GET',
    path: '/tracks/history',
    summary: 'Your listening history',
    description: 'Newest first; tracks you can no longer see are left out.',
    metadata: userRoute,
    query: PaginationQuerySchema,
    responses: { 200: HistoryEnvelope, ...errors(400, 401, 403) },
  },
  clearHistory: {
    method: 'DELETE',
    path: '/tracks/history',
    summary: 'Clear your listening history',
    metadata: userRoute,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(401, 403) },
  },
  stats: {
    method: 'GET',
    path: '/tracks/:id/stats',
    summary: 'A track’s statistics',
    description:
      'The owner or an admin; another user who may see the track gets 403. Over the period (default 30d; all: since upload): ' +
      'counted plays, unique listeners with a counted play, likes, reposts, shares, comments and downloads made in the period, ' +
      'completion_rate (reported plays that reached the end of the track, 0–1), a daily series (UTC days) of counted plays ' +
      'and likes, and counted plays by source.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    query: StatsQuerySchema,
    responses: { 200: TrackStatsEnvelope, ...errors(400, 401, 403, 404) },
  },
  recommendationsFor: {
    method: 'GET',
    path: '/tracks/:id/recommendations',
    summary: 'Tracks like this one',
    description:
      `Up to ${RECOMMENDATIONS_MAX} public tracks (limit), best first. A candidate shares a genre (genre and genres), a ` +
      'tag, or a liker with the track: 3 per shared genre, 2 per shared tag, 1 per user who liked both tracks (co-likes, ' +
      'at most 5); then 2 more when the bpm is within 8 and 2 more when the musical key is compatible (the same key, its ' +
      'relative major or minor, or a neighbour on the circle of fifths); tempo and key alone make no match. Ties by play ' +
      'count, then newest. Never the track itself, private tracks, or tracks of users you blocked or who blocked you.',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: RecommendationsQuerySchema,
    responses: { 200: TrackListEnvelope, ...errors(400, 401, 403, 404) },
  },
  recommendations: {
    method: 'GET',
    path: '/tracks/recommendations',
    summary: 'Tracks for you',
    description:
      `Up to ${RECOMMENDATIONS_MAX} public tracks (limit) for you, from your likes, plays and follows: 3 per genre shared ` +
      'with a track you liked, 1 per genre shared with a track you played (counted plays of the last 90 days), 2 per tag ' +
      'shared with a track you liked, 4 when its creator is someone you follow, 1 per user who liked it and a track you ' +
      'liked (at most 5). Never tracks you already liked, your own, private tracks or tracks of blocked users. With nothing ' +
      'to go on (a new user), the trending tracks: most counted plays and likes of the last 7 days.',
    metadata: userRoute,
    query: RecommendationsQuerySchema,
    responses: { 200: TrackListEnvelope, ...errors(400, 401, 403) },
  },
  trending: {
    method: 'GET',
    path: '/social/trending',
    summary: 'Trending tracks',
    description:
      'Public tracks ranked by what happened to them in the period (24h, 7d or 30d): each counted play weighs 1, like 3, repost 4 ' +
      'and comment 2, halved for every third of the period since it happened (time decay), so a burst today outranks the same a ' +
      'week ago. Never tracks of users blocked either way; tracks with nothing in the period are left out.',
    metadata: optionalAuth,
    query: TrendingQuerySchema,
    responses: { 200: TrendingEnvelope, ...errors(400, 401, 403) },
  },
  suggestedTags: {
    method: 'GET',
    path: '/tracks/:id/suggested-tags',
    summary: 'Tags to add to your track',
    description:
      `The owner; another user who may see the track gets 403. At most ${SUGGESTED_TAGS_MAX} tags the track does not have ` +
      'yet, best first: its genres (source genre, score 1.0), words of its title and album of 3 letters or more that are not ' +
      'common words (metadata, 0.5), and tags of similar public tracks (similar: tracks sharing a genre or a tag, score 0.3 ' +
      'per track carrying the tag, at most 0.9). Tags are lower case.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    responses: { 200: SuggestedTagsEnvelope, ...errors(400, 401, 403, 404) },
  },
});
