// The playlists area's domain events, each recorded in the transaction of its change (an audit
// entry, and the owner's webhooks for the playlist.* types of the webhook table). Likes are entries
// of the favorites playlist: their events are recorded by FavoritesService.
import '../users/users.events.js';
import type { EventHandler } from '../../platform/events/event-bus.js';
import type { CollaboratorsRepository } from './collaborators.repository.js';

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

/**
 * A block ends the collaboration, both ways: the blocked user leaves every playlist of the blocker
 * and the blocker every playlist of the blocked user. It runs in the block's own transaction, so
 * no request after the block finds either one still collaborating; adding them again is refused
 * while the block lasts (CollaboratorsService).
 */
export function endCollaborationsOnBlock(collaborators: CollaboratorsRepository): EventHandler<'user.blocked'> {
  return {
    name: 'playlists.end-collaborations-on-block',
    types: ['user.blocked'],
    delivery: 'in-transaction',
    handle: async (event) => {
      if (event.actorId && event.subject.id) await collaborators.removeBetween(event.actorId, event.subject.id);
    },
  };
}
