// The playlists area's domain events, each recorded in the transaction of its change (an audit
// entry, and the owner's webhooks for the playlist.* types of the webhook table). Likes are entries
// of the favorites playlist: their events are recorded by FavoritesService.
type Nothing = Record<string, never>;

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'track.liked': { playlist_id: string };
    'track.unliked': { playlist_id: string };
    'playlist.created': { title: string; copied_from: string | null };
    'playlist.updated': { fields: string[]; snapshot_id: string };
    'playlist.deleted': { title: string };
    'playlist.track_added': { track_id: string; position: number; snapshot_id: string };
    'playlist.track_removed': { track_id: string; snapshot_id: string };
    'playlist.collaborator_added': { user_id: string; permission: string };
    'playlist.collaborator_updated': { user_id: string; permission: string };
    'playlist.collaborator_removed': { user_id: string };
    'playlist.shared': { expires_at: string | null };
    'playlist.share_revoked': Nothing;
    'playlist.followed': Nothing;
    'playlist.unfollowed': Nothing;
  }
}

export {};
