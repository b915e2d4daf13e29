// The group posts' domain events: each becomes an audit entry of the actor (resource group_post).
// group.post_created tells the group's owner (a notification and a webhook).
declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'group.post_created': {
      group_id: string;
      /** The group's owner when the post was made: whom the notification and the webhook concern. */
      owner_id: string;
      parent_id: string | null;
      track_id: string | null;
      playlist_id: string | null;
    };
    'group.post_updated': { group_id: string };
    /** replies: the replies that went with a top-level post; role: in whose name it was deleted. */
    'group.post_deleted': {
      group_id: string;
      parent_id: string | null;
      replies: number;
      role: 'author' | 'group_moderator' | 'staff' | 'erasure';
    };
    'group.post_pinned': { group_id: string; pinned: boolean };
  }
}

export {};
