/** Examples of the social area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { track } from '../tracks/tracks.examples.js';
import { profile } from '../users/users.examples.js';
import { OTHER_USER_ID, TRACK_ID, UPDATED, onePage } from '../../common/common.examples.js';

const feedItem = {
  type: 'repost',
  track,
  actor: { ...profile, id: OTHER_USER_ID, username: 'theo.marsh', slug: 'theo-marsh' },
  created_at: UPDATED,
};

const historyEntry = { track, played_at: UPDATED, duration_listened: 184.5, source: 'track' };

const trackStats = {
  period: '7d',
  play_count: 42,
  unique_listeners: 31,
  like_count: 6,
  repost_count: 2,
  share_count: 3,
  comment_count: 0,
  download_count: 0,
  completion_rate: 0.64,
  daily: [
    { date: '2026-11-20', plays: 17, likes: 2 },
    { date: '2026-11-21', plays: 25, likes: 4 },
  ],
  sources: { track: 30, playlist: 9, search: 3 },
};

export const SOCIAL_EXAMPLES: Record<string, unknown> = {
  LikeState: { liked: true },
  RepostState: { reposted: true },
  FeedItem: feedItem,
  FeedPage: { items: [feedItem], pagination: onePage(1) },
  ShareRequest: { platform: 'link' },
  ShareReply: { share_url: `https://riff.example.org/api/v1/tracks/${TRACK_ID}` },
  PlayRequest: { duration_listened: 184.5, source: 'track' },
  PlayReply: { counted: true },
  HistoryEntry: historyEntry,
  HistoryPage: { history: [historyEntry], pagination: onePage(1) },
  TrackStats: trackStats,
  TrackStatsReply: { stats: trackStats },
  TrackList: { tracks: [track] },
  SuggestedTag: { tag: 'synthwave', score: 1, source: 'genre' },
  SuggestedTags: {
    tags: [
      { tag: 'synthwave', score: 1, source: 'genre' },
      { tag: 'drive', score: 0.5, source: 'metadata' },
      { tag: 'retro', score: 0.3, source: 'similar' },
    ],
  },
  TrendingTrack: { track, score: 41.2875 },
  TrendingTracks: { tracks: [{ track, score: 41.2875 }] },
};
