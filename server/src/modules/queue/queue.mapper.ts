import type { Queue, QueueChatMessage, QueueItem, QueueSession, QueueSessionItem, Track } from '@riff/contract';
import type { QueueItemRow, QueueRow } from './queue.repository.js';
import type { ChatMessageRow, SessionItemRow, SessionRow } from './sessions.repository.js';

type Tracks = Map<string, Track>;
/** The accounts a session names, by user id (the users area's PeopleReader.names). */
export type Usernames = ReadonlyMap<string, { username: string }>;

export function toQueueItemDto(row: QueueItemRow, tracks: Tracks): QueueItem {
  return {
    id: row.id,
    track_id: row.track_id,
    track: tracks.get(row.track_id) ?? null,
    position: row.position,
    added_at: row.added_at.toISOString(),
  };
}

/** A queue never written has no row: empty, version 0. */
export function toQueueDto(row: QueueRow | undefined, items: QueueItemRow[], tracks: Tracks): Queue {
  return {
    items: items.map((item) => toQueueItemDto(item, tracks)),
    current_index: row?.current_index ?? 0,
    position_seconds: row?.position_seconds ?? 0,
    shuffle: row?.shuffle ?? false,
    repeat: row?.repeat ?? 'off',
    version: row?.version ?? 0,
    updated_at: row ? row.updated_at.toISOString() : null,
  };
}

export function toSessionItemDto(row: SessionItemRow, tracks: Tracks, usernames: Usernames): QueueSessionItem {
  const addedBy = row.added_by === null ? undefined : usernames.get(row.added_by)?.username;
  return {
    id: row.id,
    track_id: row.track_id,
    track: tracks.get(row.track_id) ?? null,
    position: row.position,
    added_by: row.added_by && addedBy !== undefined ? { id: row.added_by, username: addedBy } : null,
    added_at: row.added_at.toISOString(),
  };
}

export interface SessionView {
  session: SessionRow;
  hostUsername: string;
  items: SessionItemRow[];
  /** Those who added the items. */
  usernames: Usernames;
  participants: number;
  tracks: Tracks;
  token: string;
  shareUrl: string;
}

export function toSessionDto(view: SessionView): QueueSession {
  const { session } = view;
  return {
    token: view.token,
    share_url: view.shareUrl,
    host: { id: session.host_id, username: view.hostUsername },
    title: session.title,
    items: view.items.map((item) => toSessionItemDto(item, view.tracks, view.usernames)),
    current_index: session.current_index,
    position_seconds: session.position_seconds,
    is_playing: session.is_playing,
    participants_count: view.participants,
    created_at: session.created_at.toISOString(),
    expires_at: session.expires_at.toISOString(),
  };
}

export function toChatMessageDto(row: ChatMessageRow, usernames: Usernames): QueueChatMessage {
  const username = row.user_id === null ? undefined : usernames.get(row.user_id)?.username;
  return {
    id: row.id,
    user: row.user_id && username !== undefined ? { id: row.user_id, username } : null,
    text: row.text,
    created_at: row.created_at.toISOString(),
  };
}
