/** Examples of the comments area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, OTHER_USER_ID, TRACK_ID, UPDATED, USER_ID, onePage } from '../../common/common.examples.js';

const COMMENT_ID = 'a7b6c5d4-e3f2-4a1b-9c8d-7e6f5a4b3c2d';

const REPLY_ID = 'b8c7d6e5-f4a3-4b2c-8d9e-0f1a2b3c4d5e';

export const comment = {
  id: COMMENT_ID,
  track_id: TRACK_ID,
  user: { id: OTHER_USER_ID, username: 'theo.marsh', slug: 'theo-marsh', avatar: null },
  parent_id: null,
  content: 'That filter sweep at 1:32 is perfect.',
  timestamp: 92,
  reply_count: 1,
  is_edited: false,
  is_deleted: false,
  created_at: CREATED,
  updated_at: CREATED,
};

const reply = {
  ...comment,
  id: REPLY_ID,
  user: { id: USER_ID, username: 'mira.lane', slug: 'mira-lane', avatar: null },
  parent_id: COMMENT_ID,
  content: 'Thanks! A Juno-106 through a tape echo.',
  timestamp: 0,
  reply_count: 0,
  is_edited: true,
  updated_at: UPDATED,
};

export const COMMENTS_EXAMPLES: Record<string, unknown> = {
  Comment: comment,
  CommentAuthor: comment.user,
  CommentReply: { comment },
  CommentPage: { comments: [comment], pagination: onePage(1) },
  CommentReplyPage: { replies: [reply], pagination: onePage(1) },
  CreateCommentRequest: { content: 'That filter sweep at 1:32 is perfect.', timestamp: 92 },
  UpdateCommentRequest: { content: 'That filter sweep at 1:32 is perfect. Still on repeat.' },
};
