import { z } from 'zod';
import { TimestampSchema, UuidSchema, pageOf, plainTextSchema } from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { ModerationStateFields } from '../moderation/moderation-states.js';

export const COMMENT_SORTS = ['newest', 'oldest', 'timestamp'] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];

export const COMMENT_MAX_CHARS = 5000;
/** At most 10 comments created per user per minute (429; refused ones do not count). */
export const COMMENTS_PER_MINUTE = 10;

const CommentContentSchema = plainTextSchema(COMMENT_MAX_CHARS);

export const CommentAuthorSchema = named(
  'CommentAuthor',
  z.object({ id: UuidSchema, username: z.string(), slug: z.string(), avatar: z.string().nullable() }),
);

export const CommentSchema = named(
  'Comment',
  z.object({
    id: UuidSchema,
    track_id: UuidSchema,
    user: CommentAuthorSchema.nullable().describe(
      'The author; null once the comment is deleted (its author is not shown either), and while the author’s account is deactivated (the words stay)',
    ),
    parent_id: UuidSchema.nullable().describe(
      'The top-level comment this one replies to; null for a top-level comment',
    ),
    content: z.string().nullable().describe('Plain text; null once the comment is deleted'),
    timestamp: z.number().min(0).describe('Position in the track, in seconds; 0 means no specific time'),
    reply_count: z.number().int().min(0).describe('Replies still present (0 for a reply)'),
    is_edited: z.boolean(),
    is_deleted: z
      .boolean()
      .describe('A deleted comment that has replies stays, as {is_deleted: true, content: null, user: null}'),
    ...ModerationStateFields,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type Comment = z.infer<typeof CommentSchema>;

export const CreateCommentRequestSchema = named(
  'CreateCommentRequest',
  z.object({
    content: CommentContentSchema,
    parent_id: UuidSchema.optional().describe(
      'For a reply: a comment of the same track. Replies form one level: replying to a reply attaches to its top-level comment',
    ),
    timestamp: z
      .number()
      .finite()
      .min(0)
      .default(0)
      .describe('Position in seconds, from 0 to the track’s duration; 0 (the default) means no specific time'),
  }),
);
export type CreateCommentRequest = z.infer<typeof CreateCommentRequestSchema>;

export const UpdateCommentRequestSchema = named('UpdateCommentRequest', z.object({ content: CommentContentSchema }));
export type UpdateCommentRequest = z.infer<typeof UpdateCommentRequestSchema>;

export const CommentEnvelope = envelope(named('CommentReply', z.object({ comment: CommentSchema })));
export const CommentPageEnvelope = envelope(named('CommentPage', pageOf('comments', CommentSchema)));
export const ReplyPageEnvelope = envelope(named('CommentReplyPage', pageOf('replies', CommentSchema)));
