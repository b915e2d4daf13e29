/** Examples of the group posts' named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, OTHER_USER_ID, UPDATED, USER_ID, onePage } from '../../common/common.examples.js';
import { track } from '../tracks/tracks.examples.js';

const GROUP_ID = '3d5f7a9c-1b2d-4e6f-8a0c-2e4f6a8c0e1b';
const POST_ID = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f';
const REPLY_ID = 'd2e3f4a5-b6c7-4d8e-9f0a-1b2c3d4e5f6a';

const post = {
  id: POST_ID,
  group_id: GROUP_ID,
  author: { id: USER_ID, username: 'mira.lane', slug: 'mira-lane', avatar: null },
  parent_id: null,
  content: 'New mix of the rehearsal take is up: comments welcome before Friday.',
  track,
  playlist: null,
  is_pinned: true,
  pinned_at: UPDATED,
  reply_count: 1,
  is_edited: false,
  created_at: CREATED,
  updated_at: CREATED,
};

const reply = {
  ...post,
  id: REPLY_ID,
  author: { id: OTHER_USER_ID, username: 'theo.marsh', slug: 'theo-marsh', avatar: null },
  parent_id: POST_ID,
  content: 'The bass sits much better now.',
  track: null,
  is_pinned: false,
  pinned_at: null,
  reply_count: 0,
  created_at: UPDATED,
  updated_at: UPDATED,
};

export const GROUP_POSTS_EXAMPLES: Record<string, unknown> = {
  GroupPost: post,
  GroupPostAuthor: post.author,
  GroupPostTrack: track,
  GroupPostPlaylist: null,
  GroupPostReply: { post },
  GroupPostPage: { posts: [post], pagination: onePage(1) },
  GroupPostReplyPage: { replies: [reply], pagination: onePage(1) },
  ExportedGroupPost: {
    id: POST_ID,
    group_id: GROUP_ID,
    parent_id: null,
    content: post.content,
    track_id: track.id,
    playlist_id: null,
    created_at: CREATED,
    updated_at: CREATED,
  },
  CreateGroupPostRequest: { content: 'New mix of the rehearsal take is up.', track_id: track.id },
  UpdateGroupPostRequest: { content: 'New mix of the rehearsal take is up: comments welcome before Friday.' },
};
