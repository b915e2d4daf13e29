import { z } from 'zod';
import { TimestampSchema, UuidSchema, queryInt } from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { pageOf } from '../../common/common.schemas.js';
import { TrackSchema } from '../tracks/tracks.schemas.js';
import { ProfileSchema } from '../users/users.schemas.js';

export const SHARE_PLATFORMS = ['link', 'twitter', 'facebook', 'whatsapp', 'email', 'embed', 'other'] as const;
export type SharePlatform = (typeof SHARE_PLATFORMS)[number];
/** Where a play was started; `subsonic`: scrobbled by a player app through the Subsonic interface (/rest/). */
export const PLAY_SOURCES = ['track', 'playlist', 'queue', 'session', 'embed', 'search', 'subsonic'] as const;
export type PlaySource = (typeof PLAY_SOURCES)[number];
export const STATS_PERIODS = ['7d', '30d', '90d', 'all'] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];
export const FEED_ITEM_TYPES = ['upload', 'repost'] as const;
export type FeedItemType = (typeof FEED_ITEM_TYPES)[number];
export const TAG_SOURCES = ['genre', 'similar', 'metadata'] as const;
export type TagSource = (typeof TAG_SOURCES)[number];

/** A play counts after 30 s, or the whole track if it is shorter. */
export const PLAY_COUNT_SECONDS = 30;
/** …and once per listener per track in this window. */
export const PLAY_WINDOW_MINUTES = 30;
/**
 * Anonymous listeners are told apart by address and user agent, and a user agent costs nothing to
 * change: one address has at most this many counted plays of a track per period (by default; the
 * server's ANONYMOUS_PLAYS_PER_ADDRESS and ANONYMOUS_PLAYS_PERIOD_HOURS set them).
 */
export const ANONYMOUS_PLAYS_PER_ADDRESS = 3;
export const ANONYMOUS_PLAYS_PERIOD_HOURS = 24;
/** Signed-in plays at least this long go into the listening history. */
export const HISTORY_MIN_SECONDS = 5;
export const RECOMMENDATIONS_MAX = 20;
export const SUGGESTED_TAGS_MAX = 10;

export const TRENDING_PERIODS = ['24h', '7d', '30d'] as const;
export type TrendingPeriod = (typeof TRENDING_PERIODS)[number];
export const TRENDING_MAX = 50;

export const TrendingQuerySchema = z.object({
  period: z.enum(TRENDING_PERIODS).default('7d'),
  genre: z.string().trim().min(1).max(100).optional().describe('The genre or one of the genres, case ignored'),
  limit: queryInt(1, TRENDING_MAX).default(20),
});
export type TrendingQuery = z.infer<typeof TrendingQuerySchema>;

export const TrendingEnvelope = envelope(
  named(
    'TrendingTracks',
    z.object({
      tracks: z.array(
        named(
          'TrendingTrack',
          z.object({
            track: TrackSchema,
            score: z
              .number()
              .describe(
                'Weighted plays, likes, reposts and comments of the period, each halved every third of the period since it happened',
              ),
          }),
        ),
      ),
    }),
  ),
);

export const LikeStateEnvelope = envelope(named('LikeState', z.object({ liked: z.boolean() })));
export const RepostStateEnvelope = envelope(named('RepostState', z.object({ reposted: z.boolean() })));

export const FeedItemSchema = named(
  'FeedItem',
  z.object({
    type: z.enum(FEED_ITEM_TYPES).describe('upload: the actor published the track; repost: the actor reposted it'),
    track: TrackSchema,
    actor: ProfileSchema,
    created_at: TimestampSchema.describe('When the track was published, or reposted'),
  }),
);
export const FeedEnvelope = envelope(named('FeedPage', pageOf('items', FeedItemSchema)));

export const ShareRequestSchema = named('ShareRequest', z.object({ platform: z.enum(SHARE_PLATFORMS) }));
export type ShareRequest = z.infer<typeof ShareRequestSchema>;
export const ShareEnvelope = envelope(
  named(
    'ShareReply',
    z.object({
      share_url: z
        .string()
        .describe('For a private track, carries ?secret= (the secret link); the same link until revoked'),
    }),
  ),
);

export const PlayRequestSchema = named(
  'PlayRequest',
  z.object({
    duration_listened: z
      .number()
      .min(0)
      .max(7 * 24 * 3600)
      .describe('Seconds listened in this play'),
    source: z.enum(PLAY_SOURCES).default('track'),
    playlist_id: UuidSchema.optional().describe('The playlist played from, when source is playlist'),
  }),
);
export type PlayRequest = z.infer<typeof PlayRequestSchema>;
export const PlayEnvelope = envelope(
  named('PlayReply', z.object({ counted: z.boolean().describe('Whether this play added to play_count') })),
);

export const HistoryEntrySchema = named(
  'HistoryEntry',
  z.object({
    track: TrackSchema,
    played_at: TimestampSchema,
    duration_listened: z.number(),
    source: z.enum(PLAY_SOURCES),
  }),
);
export const HistoryEnvelope = envelope(named('HistoryPage', pageOf('history', HistoryEntrySchema)));

export const StatsQuerySchema = z.object({ period: z.enum(STATS_PERIODS).default('30d') });
export const TrackStatsSchema = named(
  'TrackStats',
  z.object({
    period: z.enum(STATS_PERIODS),
    play_count: z.number().int().describe('Counted plays in the period'),
    unique_listeners: z.number().int().describe('Signed-in and anonymous listeners with a counted play in the period'),
    like_count: z.number().int().describe('Likes made in the period (all: every current like)'),
    repost_count: z.number().int(),
    share_count: z.number().int(),
    comment_count: z.number().int(),
    download_count: z.number().int().describe('Downloads of the original (GET /download answered from its first byte)'),
    completion_rate: z.number().min(0).max(1).describe('Share of reported plays that reached the end of the track'),
    daily: z.array(
      z.object({
        date: z.string().describe('YYYY-MM-DD (UTC)'),
        plays: z.number().int().describe('Counted plays'),
        likes: z.number().int(),
      }),
    ),
    sources: z.record(z.enum(PLAY_SOURCES), z.number().int()).describe('Counted plays by source'),
  }),
);
export const TrackStatsEnvelope = envelope(named('TrackStatsReply', z.object({ stats: TrackStatsSchema })));

export const RecommendationsQuerySchema = z.object({
  limit: queryInt(1, RECOMMENDATIONS_MAX).default(RECOMMENDATIONS_MAX).describe(`At most ${RECOMMENDATIONS_MAX}`),
});
export const TrackListEnvelope = envelope(named('TrackList', z.object({ tracks: z.array(TrackSchema) })));

export const SuggestedTagSchema = named(
  'SuggestedTag',
  z.object({ tag: z.string(), score: z.number(), source: z.enum(TAG_SOURCES) }),
);
export const SuggestedTagsEnvelope = envelope(named('SuggestedTags', z.object({ tags: z.array(SuggestedTagSchema) })));
