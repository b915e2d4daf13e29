import type { DashboardResponse } from '@riff/contract';
import type { DashboardRepository } from './dashboard.repository.js';

type Activity = DashboardResponse['recent_activity'][number];
type OwnActivityRow = Awaited<ReturnType<DashboardRepository['ownActivity']>>[number];
type FollowerRow = Awaited<ReturnType<DashboardRepository['newFollowers']>>[number];
type LibraryRow = Awaited<ReturnType<DashboardRepository['library']>>[number];

/** How each action reads on a dashboard; an action not listed reads from its own name. */
const ACTIONS: Record<string, { icon: string; title: string }> = {
  'track.upload_started': { icon: 'upload', title: 'Started an upload' },
  'track.uploaded': { icon: 'upload', title: 'Uploaded a track' },
  'track.updated': { icon: 'edit', title: 'Edited a track' },
  'track.deleted': { icon: 'delete', title: 'Deleted a track' },
  'track.liked': { icon: 'like', title: 'Liked a track' },
  'track.unliked': { icon: 'like', title: 'Unliked a track' },
  'track.reposted': { icon: 'repost', title: 'Reposted a track' },
  'track.shared': { icon: 'share', title: 'Shared a track' },
  'comment.created': { icon: 'comment', title: 'Commented on a track' },
  'comment.updated': { icon: 'comment', title: 'Edited a comment' },
  'comment.deleted': { icon: 'comment', title: 'Deleted a comment' },
  'user.followed': { icon: 'follow', title: 'Followed someone' },
  'playlist.created': { icon: 'playlist', title: 'Created a playlist' },
  'playlist.updated': { icon: 'playlist', title: 'Edited a playlist' },
  'playlist.deleted': { icon: 'playlist', title: 'Deleted a playlist' },
  'playlist.track_added': { icon: 'playlist', title: 'Added a track to a playlist' },
  'playlist.track_removed': { icon: 'playlist', title: 'Removed a track from a playlist' },
  'playlist.followed': { icon: 'playlist', title: 'Followed a playlist' },
  'order.created': { icon: 'order', title: 'Placed an order' },
  'order.completed': { icon: 'order', title: 'Completed an order' },
  'order.refunded': { icon: 'order', title: 'An order was refunded' },
  'product.created': { icon: 'product', title: 'Listed a product' },
  'product.sold': { icon: 'order', title: 'Sold a product' },
  'queue_session.created': { icon: 'session', title: 'Started a listening session' },
  'queue_session.ended': { icon: 'session', title: 'Ended a listening session' },
  'api_key.created': { icon: 'key', title: 'Created an API key' },
  'api_key.revoked': { icon: 'key', title: 'Revoked an API key' },
};

const sentence = (action: string) => {
  const words = action.replace(/[._]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** What the entry was about, from its recorded data: a title, a name or a username, if it has one. */
function describe(resource: string, metadata: Record<string, unknown>): string {
  for (const key of ['title', 'name', 'username', 'text']) {
    const value = metadata[key];
    if (typeof value === 'string' && value.length > 0) return value.slice(0, 200);
  }
  return resource.replace(/_/g, ' ');
}

export function toOwnActivity(row: OwnActivityRow): Activity {
  const known = ACTIONS[row.action];
  return {
    id: row.id,
    type: row.action,
    title: known?.title ?? sentence(row.action),
    description: describe(row.resource, row.metadata),
    icon: known?.icon ?? 'activity',
    timestamp: row.created_at.toISOString(),
    metadata: { ...row.metadata, resource: row.resource, resource_id: row.resource_id },
  };
}

export function toFollowerActivity(row: FollowerRow): Activity {
  return {
    id: `follower-${row.follower_id}`,
    type: 'user.new_follower',
    title: 'New follower',
    description: `${row.username} followed you`,
    icon: 'follow',
    timestamp: row.created_at.toISOString(),
    metadata: { user_id: row.follower_id, username: row.username },
  };
}

export const toLibraryItem = (row: LibraryRow): DashboardResponse['library_preview']['items'][number] => ({
  id: row.id,
  title: row.title,
  artist: row.artist,
  cover_art_path: row.cover_art_path,
  created_at: row.created_at.toISOString(),
  duration: row.duration,
  like_count: row.like_count,
  play_count: row.play_count,
});
