import { z } from 'zod';
import { DateSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { PlaylistSchema } from '../playlists/playlists.schemas.js';
import { PLAY_SOURCES, type PlaySource } from '../social/social.schemas.js';
import { TrackSchema } from '../tracks/tracks.schemas.js';
import { ProfileSchema } from '../users/users.schemas.js';

/** `Nd`: the N UTC days ending today; `all`: since the first day with any activity. */
export const ANALYTICS_PERIODS = ['7d', '30d', '90d', '365d', 'all'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];

/** How a series is cut: UTC days, ISO weeks (Monday to Sunday) or calendar months. */
export const ANALYTICS_INTERVALS = ['day', 'week', 'month'] as const;
export type AnalyticsInterval = (typeof ANALYTICS_INTERVALS)[number];

export const ANALYTICS_EXPORT_FORMATS = ['csv'] as const;
export type AnalyticsExportFormat = (typeof ANALYTICS_EXPORT_FORMATS)[number];

/** At most this many tracks in an overview's top_tracks. */
export const ANALYTICS_TOP_TRACKS = 10;
/** At most this many playlists in a track's analytics. */
export const ANALYTICS_TOP_PLAYLISTS = 10;
/** At most this many listeners in the audience's top_listeners. */
export const ANALYTICS_TOP_LISTENERS = 20;
/** A track's retention curve has exactly this many buckets of equal length. */
export const RETENTION_BUCKETS = 20;
/** A counted play is complete when duration_listened reaches this share of the track. */
export const ANALYTICS_COMPLETION_SHARE = 0.9;
/**
 * Figures come from roll-ups made by a job, so a reply never reads raw events: they lag by at most
 * this many seconds (by default; the server's ANALYTICS_ROLLUP_SECONDS sets it).
 */
export const ANALYTICS_ROLLUP_SECONDS_DEFAULT = 300;

/** The header row of GET /analytics/export, in order. */
export const ANALYTICS_EXPORT_COLUMNS = [
  'date',
  'track_id',
  'title',
  'plays',
  'unique_listeners',
  'listening_seconds',
  'likes',
  'reposts',
  'comments',
  'shares',
  'downloads',
] as const;
export type AnalyticsExportColumn = (typeof ANALYTICS_EXPORT_COLUMNS)[number];

// Named: a generator that names the replies' inline enums and the queries' alike would declare one type twice.
// AnalyticsExportFormat appears in no JSON reply; it is named for the server and clients that type the query.
export const AnalyticsPeriodSchema = named('AnalyticsPeriod', z.enum(ANALYTICS_PERIODS));
export const AnalyticsIntervalSchema = named('AnalyticsInterval', z.enum(ANALYTICS_INTERVALS));
export const AnalyticsExportFormatSchema = named('AnalyticsExportFormat', z.enum(ANALYTICS_EXPORT_FORMATS));

const Count = z.number().int().min(0);
const Seconds = z.number().min(0).describe('Seconds');
const Share = z.number().min(0).max(1);

/** The counting rules every analytics reply shares, said once in the routes' descriptions. */
export const ANALYTICS_RULES =
  'Only counted plays (a play counts as /tracks/{id}/play says) enter plays, listening_seconds, completion_rate, ' +
  'retention, sources and countries. unique_listeners counts signed-in users once over the whole period, plus anonymous ' +
  'listeners once within each UTC day (they are told apart by a hash of address and user agent salted per day, never ' +
  `stored in clear). completion_rate is the share of counted plays whose duration_listened reached ${ANALYTICS_COMPLETION_SHARE * 100} % ` +
  'of the track. Figures come from roll-ups and are at most ANALYTICS_ROLLUP_SECONDS behind ' +
  `(${ANALYTICS_ROLLUP_SECONDS_DEFAULT} by default).`;

/** The rule for from and to, said once in the routes' descriptions and the replies' fields. */
export const ANALYTICS_PERIOD_RULE =
  'Days are UTC days. "Nd" is the N UTC days ending today, today included (from 00:00 UTC of its first day); all runs ' +
  'from the first day with any activity (today when there is none). The previous period is the N days just before from.';

const DayField = DateSchema.describe('YYYY-MM-DD, a UTC day');
const periodFields = {
  period: AnalyticsPeriodSchema,
  from: DayField.describe(`The period's first UTC day (YYYY-MM-DD), included. ${ANALYTICS_PERIOD_RULE}`),
  to: DayField.describe('The period’s last UTC day (YYYY-MM-DD), included: today'),
};

export const AnalyticsTotalsSchema = named(
  'AnalyticsTotals',
  z.object({
    plays: Count.describe('Counted plays'),
    unique_listeners: Count.describe(
      'Listeners with a counted play: signed-in users distinct over the period, plus anonymous listeners distinct within each UTC day',
    ),
    listening_seconds: Seconds.describe('Seconds listened over the counted plays'),
    likes: Count,
    reposts: Count,
    comments: Count,
    shares: Count,
    downloads: Count.describe('Downloads of the original'),
    followers_gained: Count.describe('Follows of you'),
    followers_lost: Count.describe('Unfollows of you'),
    sales: Count.describe('Your items in orders completed in the period, refunded ones left out'),
    revenue_cents_by_currency: z
      .record(z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code in capitals'), Count)
      .describe(
        'What those items brought after discounts, in cents, by ISO 4217 currency code (upper case); {} without sales',
      ),
  }),
);
export type AnalyticsTotals = z.infer<typeof AnalyticsTotalsSchema>;

export const AnalyticsSeriesPointSchema = named(
  'AnalyticsSeriesPoint',
  z.object({
    date: DayField.describe(
      'The first UTC day of the interval (a Monday for week, the 1st for month), or from when the interval began before the period',
    ),
    plays: Count.describe('Counted plays'),
    unique_listeners: Count.describe(
      'Listeners with a counted play in the interval (signed-in users distinct over the interval, anonymous ones within each day)',
    ),
    likes: Count,
    followers_net: z.number().int().describe('Follows minus unfollows: negative when more left than came'),
  }),
);
export type AnalyticsSeriesPoint = z.infer<typeof AnalyticsSeriesPointSchema>;

const series = z
  .array(AnalyticsSeriesPointSchema)
  .describe(
    'One entry per interval of the period, oldest first, intervals without activity included (zeros). Weeks are ISO weeks ' +
      '(Monday to Sunday) and months calendar months, both clipped to the period: the first entry starts at from',
  );

const playsBySource = Object.fromEntries(
  PLAY_SOURCES.map((source) => [source, Count.describe(`Counted plays started from ${source}`)]),
) as Record<PlaySource, typeof Count>;

/** Every play source is a key, so a client reads each without a fallback. */
export const AnalyticsSourcesSchema = named(
  'AnalyticsSources',
  z.object(playsBySource).describe('Counted plays by where they were started; every source present (0 for none)'),
);
export type AnalyticsSources = z.infer<typeof AnalyticsSourcesSchema>;

export const AnalyticsTopTrackSchema = named(
  'AnalyticsTopTrack',
  z.object({
    track: TrackSchema.describe('The track as you, its owner, read it'),
    plays: Count.describe('Counted plays in the period'),
    listening_seconds: Seconds,
    completion_rate: Share.describe(
      `Share of its counted plays whose duration_listened reached ${ANALYTICS_COMPLETION_SHARE * 100} % of the track (0 without plays)`,
    ),
  }),
);
export type AnalyticsTopTrack = z.infer<typeof AnalyticsTopTrackSchema>;

export const AnalyticsOverviewSchema = named(
  'AnalyticsOverview',
  z.object({
    ...periodFields,
    interval: AnalyticsIntervalSchema,
    totals: AnalyticsTotalsSchema.describe('Your tracks’ figures over the period'),
    previous: AnalyticsTotalsSchema.nullable().describe(
      'The same figures over the period of equal length just before from; null for all',
    ),
    series,
    top_tracks: z
      .array(AnalyticsTopTrackSchema)
      .max(ANALYTICS_TOP_TRACKS)
      .describe(`Your tracks with counted plays in the period, most played first, at most ${ANALYTICS_TOP_TRACKS}`),
    sources: AnalyticsSourcesSchema,
  }),
);
export type AnalyticsOverview = z.infer<typeof AnalyticsOverviewSchema>;

export const AnalyticsRetentionBucketSchema = named(
  'AnalyticsRetentionBucket',
  z.object({
    second_bucket: Seconds.describe(
      `The second of the track where the bucket starts: the track is cut into ${RETENTION_BUCKETS} buckets of equal length, the first at 0`,
    ),
    listeners: Count.describe('Counted plays in the period whose duration_listened reached that second'),
  }),
);
export type AnalyticsRetentionBucket = z.infer<typeof AnalyticsRetentionBucketSchema>;

export const AnalyticsTopPlaylistSchema = named(
  'AnalyticsTopPlaylist',
  z.object({
    playlist: PlaylistSchema.describe('The playlist as you may see it, as in lists (without tracks and collaborators)'),
    plays: Count.describe('Counted plays of the track started from this playlist in the period'),
  }),
);
export type AnalyticsTopPlaylist = z.infer<typeof AnalyticsTopPlaylistSchema>;

export const TrackAnalyticsSchema = named(
  'TrackAnalytics',
  z.object({
    ...periodFields,
    interval: AnalyticsIntervalSchema,
    totals: AnalyticsTotalsSchema.describe(
      'The track’s figures over the period. A follow is of a person, not of a track: followers_gained and ' +
        'followers_lost are 0 here (GET /analytics/overview has them); sales and revenue are of products that sell this track',
    ),
    previous: AnalyticsTotalsSchema.nullable().describe(
      'The same figures over the period of equal length just before from; null for all',
    ),
    series: series.describe(
      'One entry per interval of the period, oldest first, intervals without activity included (zeros; followers_net is ' +
        'always 0 for a track). Weeks are ISO weeks (Monday to Sunday) and months calendar months, both clipped to the ' +
        'period: the first entry starts at from',
    ),
    sources: AnalyticsSourcesSchema,
    completion_rate: Share.describe(
      `Share of the counted plays in the period whose duration_listened reached ${ANALYTICS_COMPLETION_SHARE * 100} % of the track (0 without plays)`,
    ),
    retention: z
      .array(AnalyticsRetentionBucketSchema)
      .length(RETENTION_BUCKETS)
      .describe(
        `Exactly ${RETENTION_BUCKETS} buckets, in track order: how many counted plays got at least that far (never rising)`,
      ),
    playlists: z
      .array(AnalyticsTopPlaylistSchema)
      .max(ANALYTICS_TOP_PLAYLISTS)
      .describe(
        `The playlists it was played from most in the period, most plays first, at most ${ANALYTICS_TOP_PLAYLISTS}; a ` +
          'playlist you may not see is left out (its plays still count in sources.playlist)',
      ),
  }),
);
export type TrackAnalytics = z.infer<typeof TrackAnalyticsSchema>;

export const AnalyticsListenerSchema = named(
  'AnalyticsListener',
  z.object({
    user: ProfileSchema.describe('The listener’s public profile'),
    plays: Count.describe('Their counted plays of your tracks in the period'),
  }),
);
export type AnalyticsListener = z.infer<typeof AnalyticsListenerSchema>;

export const AnalyticsCountrySchema = named(
  'AnalyticsCountry',
  z.object({
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code in capitals')
      .describe(
        'ISO 3166-1 alpha-2 code of where the play came from (an offline GeoIP database, by address); ZZ when unknown',
      ),
    plays: Count.describe('Counted plays of your tracks from there in the period'),
  }),
);
export type AnalyticsCountry = z.infer<typeof AnalyticsCountrySchema>;

export const AudienceAnalyticsSchema = named(
  'AudienceAnalytics',
  z.object({
    ...periodFields,
    top_listeners: z
      .array(AnalyticsListenerSchema)
      .max(ANALYTICS_TOP_LISTENERS)
      .describe(
        `Your most frequent signed-in listeners, most plays first, at most ${ANALYTICS_TOP_LISTENERS}. Only listeners whose ` +
          'profile is public and who did not opt out (POST /users/me/privacy/opt-out) appear; an opt-out hides their past plays too',
      ),
    countries: z
      .array(AnalyticsCountrySchema)
      .describe('Every country with counted plays of your tracks in the period, most plays first'),
  }),
);
export type AudienceAnalytics = z.infer<typeof AudienceAnalyticsSchema>;

// Queries spell the enums inline, as every query does: a parameter schema with a title would be one more type to generators.
const periodQuery = z
  .enum(ANALYTICS_PERIODS)
  .default('30d')
  .describe(`7d, 30d, 90d or 365d: that many UTC days ending today; all: since the first activity (default 30d)`);

export const AnalyticsQuerySchema = z.object({
  period: periodQuery,
  interval: z
    .enum(ANALYTICS_INTERVALS)
    .default('day')
    .describe('How the series is cut: day, week (ISO, Monday to Sunday) or month (default day)'),
});
export type AnalyticsQuery = z.infer<typeof AnalyticsQuerySchema>;

export const AnalyticsAudienceQuerySchema = z.object({ period: periodQuery });
export type AnalyticsAudienceQuery = z.infer<typeof AnalyticsAudienceQuerySchema>;

export const AnalyticsExportQuerySchema = z.object({
  period: periodQuery,
  format: z.enum(ANALYTICS_EXPORT_FORMATS).default('csv').describe('csv (the only format, and the default)'),
});
export type AnalyticsExportQuery = z.infer<typeof AnalyticsExportQuerySchema>;
