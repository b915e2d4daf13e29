/** Examples of the analytics area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { playlistSummary } from '../playlists/playlists.examples.js';
import { track } from '../tracks/tracks.examples.js';
import { profile } from '../users/users.examples.js';
import { RETENTION_BUCKETS } from './analytics.schemas.js';

/** A second track of the same creator, so the overview's top tracks have two. */
const secondTrack = {
  ...track,
  id: '2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f',
  title: 'Coastline at 4 AM',
  duration: 187,
  file_id: '2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f',
  file_path: '/api/v1/tracks/2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f/stream',
  play_count: 57,
  like_count: 4,
};

// The examples' today is 2026-11-21, as UPDATED in common.examples.ts.
const DAYS_7 = ['2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21'];
const dailyPlays = [12, 18, 9, 22, 15, 30, 28];
const dailyListeners = [10, 14, 8, 17, 12, 21, 19];
const dailyLikes = [1, 2, 0, 3, 1, 2, 1];
const dailyFollowersNet = [1, 0, 2, -1, 0, 3, 1];

const totals = {
  plays: 134,
  unique_listeners: 71,
  listening_seconds: 19876.5,
  likes: 10,
  reposts: 4,
  comments: 6,
  shares: 3,
  downloads: 2,
  followers_gained: 8,
  followers_lost: 2,
  sales: 3,
  revenue_cents_by_currency: { EUR: 1998, USD: 999 },
};

const previousTotals = {
  plays: 101,
  unique_listeners: 60,
  listening_seconds: 14210,
  likes: 7,
  reposts: 2,
  comments: 3,
  shares: 1,
  downloads: 0,
  followers_gained: 5,
  followers_lost: 3,
  sales: 0,
  revenue_cents_by_currency: {},
};

const seriesPoint = { date: '2026-11-21', plays: 28, unique_listeners: 19, likes: 1, followers_net: 1 };

const sources = { track: 52, playlist: 31, queue: 18, session: 6, embed: 9, search: 11, subsonic: 7 };

const topTrack = { track, plays: 98, listening_seconds: 15120, completion_rate: 0.64 };

const overview = {
  period: '7d',
  interval: 'day',
  from: '2026-11-15',
  to: '2026-11-21',
  totals,
  previous: previousTotals,
  series: DAYS_7.map((date, index) => ({
    date,
    plays: dailyPlays[index],
    unique_listeners: dailyListeners[index],
    likes: dailyLikes[index],
    followers_net: dailyFollowersNet[index],
  })),
  top_tracks: [topTrack, { track: secondTrack, plays: 36, listening_seconds: 4756.5, completion_rate: 0.5 }],
  sources,
};

/** A track of 214 s cut into 20 buckets of 10.7 s; fewer plays get further in. */
const retention = Array.from({ length: RETENTION_BUCKETS }, (_, index) => ({
  second_bucket: Math.round(((index * track.duration) / RETENTION_BUCKETS) * 10) / 10,
  listeners: Math.round(192 * (1 - index * 0.021)),
}));

const topPlaylist = { playlist: playlistSummary, plays: 41 };

// 30 days ending 2026-11-21 (a Saturday) by ISO week: the first week is clipped to Friday 2026-10-23.
const trackAnalytics = {
  period: '30d',
  interval: 'week',
  from: '2026-10-23',
  to: '2026-11-21',
  totals: {
    plays: 192,
    unique_listeners: 118,
    listening_seconds: 27431,
    likes: 8,
    reposts: 3,
    comments: 5,
    shares: 4,
    downloads: 2,
    followers_gained: 0,
    followers_lost: 0,
    sales: 3,
    revenue_cents_by_currency: { USD: 2997 },
  },
  previous: {
    plays: 160,
    unique_listeners: 97,
    listening_seconds: 22904,
    likes: 6,
    reposts: 1,
    comments: 2,
    shares: 2,
    downloads: 1,
    followers_gained: 0,
    followers_lost: 0,
    sales: 1,
    revenue_cents_by_currency: { USD: 999 },
  },
  series: [
    { date: '2026-10-23', plays: 14, unique_listeners: 11, likes: 0, followers_net: 0 },
    { date: '2026-10-26', plays: 41, unique_listeners: 29, likes: 2, followers_net: 0 },
    { date: '2026-11-02', plays: 37, unique_listeners: 25, likes: 1, followers_net: 0 },
    { date: '2026-11-09', plays: 52, unique_listeners: 33, likes: 3, followers_net: 0 },
    { date: '2026-11-16', plays: 48, unique_listeners: 30, likes: 2, followers_net: 0 },
  ],
  sources: { track: 80, playlist: 48, queue: 30, session: 8, embed: 10, search: 12, subsonic: 4 },
  completion_rate: 0.62,
  retention,
  playlists: [topPlaylist],
};

const listener = { user: profile, plays: 23 };
const countries = [
  { country: 'GB', plays: 61 },
  { country: 'DE', plays: 34 },
  { country: 'US', plays: 27 },
  { country: 'ZZ', plays: 12 },
];

export const ANALYTICS_EXAMPLES: Record<string, unknown> = {
  AnalyticsPeriod: '30d',
  AnalyticsInterval: 'week',
  AnalyticsExportFormat: 'csv',
  AnalyticsTotals: totals,
  AnalyticsSeriesPoint: seriesPoint,
  AnalyticsSources: sources,
  AnalyticsTopTrack: topTrack,
  AnalyticsOverview: overview,
  AnalyticsRetentionBucket: retention[1],
  AnalyticsTopPlaylist: topPlaylist,
  TrackAnalytics: trackAnalytics,
  AnalyticsListener: listener,
  AnalyticsCountry: countries[0],
  AudienceAnalytics: {
    period: '7d',
    from: '2026-11-15',
    to: '2026-11-21',
    top_listeners: [listener],
    countries,
  },
};
