import type { GroupPost, Playlist, Track } from '@riff/contract';
import { withModerationState } from '../../platform/access/moderation.js';
import type { PersonName } from '../users/people-reader.js';
import type { GroupPostRow } from './group-posts.repository.js';

/** What a page of posts shows beside the rows, each read once for the page as its reader may see it. */
export interface PostContext {
  authors: ReadonlyMap<string, PersonName>;
  tracks: ReadonlyMap<string, Track>;
  playlists: ReadonlyMap<string, Playlist>;
}

/**
 * A post as its reader sees it: the author while their account is live; the referenced track and
 * playlist only when this reader may see them (never their ids otherwise, so a private track's
 * existence does not leak through a post).
 */
export function toGroupPostDto(row: GroupPostRow, context: PostContext): GroupPost {
  const person = context.authors.get(row.author_id);
  return withModerationState(
    {
      id: row.id,
      group_id: row.group_id,
      author:
        person && person.deleted_at === null
          ? { id: person.id, username: person.username, slug: person.slug, avatar: person.avatar }
          : null,
      parent_id: row.parent_id,
      content: row.content,
      track: (row.track_id && context.tracks.get(row.track_id)) || null,
      playlist: (row.playlist_id && context.playlists.get(row.playlist_id)) || null,
      is_pinned: row.is_pinned,
      pinned_at: row.pinned_at?.toISOString() ?? null,
      reply_count: row.reply_count,
      is_edited: row.is_edited,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
    row,
  );
}
