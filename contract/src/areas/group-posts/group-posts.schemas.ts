import { z } from 'zod';
import {
  PaginationQuerySchema,
  TimestampSchema,
  UuidSchema,
  pageOf,
  plainTextSchema,
} from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { CommentAuthorSchema } from '../comments/comments.schemas.js';
import { ModerationStateFields } from '../moderation/moderation-states.js';
import { PlaylistSchema } from '../playlists/playlists.schemas.js';
import { TrackSchema } from '../tracks/tracks.schemas.js';

export const GROUP_POST_MAX_CHARS = 5000;
/** At most 30 posts (replies included) per member per group per hour (429; refused ones do not count). */
export const GROUP_POSTS_PER_HOUR = 30;

const GroupPostContentSchema = plainTextSchema(GROUP_POST_MAX_CHARS);

// A nullable named schema gets a name of its own (the generator refuses one name for two schemas).
const GroupPostAuthorSchema = named(
  'GroupPostAuthor',
  CommentAuthorSchema.nullable().describe('The author; null while their account is deactivated (the words stay)'),
);
const GroupPostTrackSchema = named(
  'GroupPostTrack',
  TrackSchema.nullable().describe(
    'The track the post refers to, as the reader may see it; null when it refers to none or the reader may not see it',
  ),
);
const GroupPostPlaylistSchema = named(
  'GroupPostPlaylist',
  PlaylistSchema.nullable().describe(
    'The playlist the post refers to, as the reader may see it; null when it refers to none or the reader may not see it',
  ),
);

export const GroupPostSchema = named(
  'GroupPost',
  z.object({
    id: UuidSchema,
    group_id: UuidSchema,
    author: GroupPostAuthorSchema,
    parent_id: UuidSchema.nullable().describe('The top-level post this one replies to; null for a top-level post'),
    content: z.string(),
    track: GroupPostTrackSchema,
    playlist: GroupPostPlaylistSchema,
    is_pinned: z.boolean().describe('Pinned posts come first in the group’s list (top-level posts only)'),
    pinned_at: TimestampSchema.nullable(),
    reply_count: z.number().int().min(0).describe('Replies (0 for a reply)'),
    is_edited: z.boolean(),
    ...ModerationStateFields,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type GroupPost = z.infer<typeof GroupPostSchema>;

export const CreateGroupPostRequestSchema = named(
  'CreateGroupPostRequest',
  z.object({
    content: GroupPostContentSchema,
    track_id: UuidSchema.optional().describe('A track the poster may see (404 otherwise)'),
    playlist_id: UuidSchema.optional().describe('A playlist the poster may see (404 otherwise)'),
    parent_id: UuidSchema.optional().describe(
      'For a reply: a post of the same group. Replies form one level: replying to a reply attaches to its top-level post',
    ),
  }),
);
export type CreateGroupPostRequest = z.infer<typeof CreateGroupPostRequestSchema>;

export const UpdateGroupPostRequestSchema = named(
  'UpdateGroupPostRequest',
  z.object({ content: GroupPostContentSchema }),
);
export type UpdateGroupPostRequest = z.infer<typeof UpdateGroupPostRequestSchema>;

export const GroupPostQuerySchema = PaginationQuerySchema;
export type GroupPostQuery = z.infer<typeof GroupPostQuerySchema>;

export const GroupPostEnvelope = envelope(named('GroupPostReply', z.object({ post: GroupPostSchema })));
export const GroupPostPageEnvelope = envelope(named('GroupPostPage', pageOf('posts', GroupPostSchema)));
export const GroupPostRepliesEnvelope = envelope(named('GroupPostReplyPage', pageOf('replies', GroupPostSchema)));
