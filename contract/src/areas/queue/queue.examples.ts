/** Examples of the queue area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { track } from '../tracks/tracks.examples.js';
import { EXPIRES, OTHER_USER_ID, TRACK_ID, UPDATED, USER_ID } from '../../common/common.examples.js';

const QUEUE_ITEM_ID = '2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f';

const SESSION_ID = '6b8d0f2a-4c6e-4a1b-8d3f-5e7a9c1b3d5f';

const SESSION_TOKEN = 'Vq3xN8kR2mTz7LwY5bHc9JdF4sGp1AeU6oKi0ZrXyQw';

export const queueItem = { id: QUEUE_ITEM_ID, track_id: TRACK_ID, track, position: 0, added_at: UPDATED };

export const queue = {
  items: [queueItem],
  current_index: 0,
  position_seconds: 73.5,
  shuffle: false,
  repeat: 'off',
  version: 7,
  updated_at: UPDATED,
} as const;

const sessionHost = { id: USER_ID, username: 'mira.lane' };

const sessionItem = { ...queueItem, added_by: { id: OTHER_USER_ID, username: 'theo.marsh' } };

const session = {
  token: SESSION_TOKEN,
  share_url: `http://127.0.0.1:8080/api/v1/queue/session/${SESSION_TOKEN}`,
  host: sessionHost,
  title: 'Friday night listening',
  items: [sessionItem],
  current_index: 0,
  position_seconds: 73.5,
  is_playing: true,
  participants_count: 3,
  created_at: UPDATED,
  expires_at: EXPIRES,
};

const chatMessage = {
  id: '9f1e3d5c-7b9a-4e2c-8a6f-4d2b0e8c6a4f',
  user: { id: OTHER_USER_ID, username: 'theo.marsh' },
  text: 'This one is great',
  created_at: UPDATED,
};

export const exportedSession = {
  id: SESSION_ID,
  title: 'Friday night listening',
  track_ids: [TRACK_ID],
  created_at: UPDATED,
  expires_at: EXPIRES,
};

export const exportedChat = {
  id: chatMessage.id,
  session_id: SESSION_ID,
  text: 'This one is great',
  created_at: UPDATED,
};

export const QUEUE_EXAMPLES: Record<string, unknown> = {
  QueueTrack: track,
  QueueItem: queueItem,
  Queue: queue,
  QueueReply: { queue },
  QueueItemReply: { item: queueItem },
  UpdateQueueRequest: { track_ids: [TRACK_ID], current_index: 0, position_seconds: 0, repeat: 'all' },
  AddQueueItemRequest: { track_id: TRACK_ID, play_next: true },
  SessionUser: sessionHost,
  SessionUserOrNull: sessionHost,
  QueueSessionItem: sessionItem,
  QueueSession: session,
  QueueSessionReply: { session },
  QueueSessionItemReply: { item: sessionItem },
  CreateQueueSessionRequest: { title: 'Friday night listening' },
  UpdateQueueSessionRequest: { current_index: 0, position_seconds: 73.5, is_playing: true },
  AddQueueSessionItemRequest: { track_id: TRACK_ID },
  QueueChatMessage: chatMessage,
  ExportedQueueSession: exportedSession,
  ExportedChatMessage: exportedChat,
};
