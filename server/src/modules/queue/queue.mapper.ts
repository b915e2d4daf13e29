import type { Queue, QueueChatMessage, QueueItem, QueueSession, QueueSessionItem, Track } from '@riff/contract';
import type { QueueItemRow, QueueRow } from './queue.repository.js';
import type { ChatMessageRow, SessionItemRow, SessionRow } from './sessions.repository.js';

type Tracks = Map<string, Track>;
/** The tracks moderation withholds from the viewer (the tracks area's TrackReader.withheldTracks). */
type Withheld = ReadonlySet<string>;

/**
 * The items a viewer is shown: those of tracks moderation withholds from them are left out (for
 * them such a track is gone), the others renumbered without gaps, and the current index moved to
 * the same item (or the next one shown, when the current one is left out).
 */
function shownItems<T extends { track_id: string; position: number }>(
  items: readonly T[],
  withheld: Withheld,
  currentIndex: number,
): { items: T[]; currentIndex: number } {
  if (withheld.size === 0 || !items.some((item) => withheld.has(item.track_id))) {
    return { items: [...items], currentIndex };
  }
  const shown = items.filter((item) => !withheld.has(item.track_id));
  const leftOutBefore = items.slice(0, currentIndex).filter((item) => withheld.has(item.track_id)).length;
  return {
    items: shown.map((item, position) => ({ ...item, position })),
    currentIndex: Math.max(0, Math.min(currentIndex - leftOutBefore, shown.length - 1)),
  };
}
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
export function toQueueDto(
  row: QueueRow | undefined,
  items: QueueItemRow[],
  tracks: Tracks,
  withheld: Withheld = new Set(),
): Queue {
  const shown = shownItems(items, withheld, row?.current_index ?? 0);
  return {
    items: shown.items.map((item) => toQueueItemDto(item, tracks)),
    current_index: shown.currentIndex,
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
  withheld: Withheld;
  token: string;
  shareUrl: string;
}

export function toSessionDto(view: SessionView): QueueSession {
  const { session } = view;
  const shown = shownItems(view.items, view.withheld, session.current_index);
  return {
    token: view.token,
    share_url: view.shareUrl,
    host: { id: session.host_id, username: view.hostUsername },
    title: session.title,
    items: shown.items.map((item) => toSessionItemDto(item, view.tracks, view.usernames)),
    current_index: shown.currentIndex,
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
