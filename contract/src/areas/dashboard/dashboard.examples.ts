/** Examples of the dashboard area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, TRACK_ID, UPDATED } from '../../common/common.examples.js';

const dashboardStats = {
  period: '30d',
  tracks_played: 142,
  favorites: 18,
  messages_sent: 9,
  active_friends: 4,
  tracks_played_change: '+12%',
  favorites_change: '-3%',
  messages_sent_change: 'new',
  active_friends_change: '0%',
};

const dashboardActivity = {
  id: '8c1f4e2a-6b3d-4a9e-b7c5-2d0f9e8a1b34',
  type: 'track.uploaded',
  title: 'Uploaded a track',
  description: 'Night Drive',
  icon: 'upload',
  timestamp: UPDATED,
  metadata: { resource: 'track', resource_id: TRACK_ID },
};

const dashboardLibraryItem = {
  id: TRACK_ID,
  title: 'Night Drive',
  artist: 'Nova Lights',
  cover_art_path: null,
  created_at: CREATED,
  duration: 214,
  like_count: 31,
  play_count: 1204,
};

export const DASHBOARD_EXAMPLES: Record<string, unknown> = {
  DashboardStats: dashboardStats,
  DashboardActivity: dashboardActivity,
  DashboardLibraryItem: dashboardLibraryItem,
  DashboardResponse: {
    stats: dashboardStats,
    recent_activity: [dashboardActivity],
    library_preview: { items: [dashboardLibraryItem], total_count: 12, has_more: true },
  },
};
