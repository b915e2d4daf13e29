import type { LivePresence, LiveServerMessageOf } from '@riff/contract';
import type { Broadcaster, BroadcastChannel } from '../../platform/broadcast/broadcaster.js';

/** A change of a shared session, as every instance hears it; each socket server renders it for its clients. */
export type LiveEvent =
  | { kind: 'items_changed'; sessionId: string }
  | { kind: 'playback_changed'; sessionId: string; data: LiveServerMessageOf<'playback_changed'>['data'] }
  | { kind: 'chat'; sessionId: string; data: LiveServerMessageOf<'chat'>['data'] }
  /** `version` orders the presence of one session: an instance drops one older than what it already sent. */
  | { kind: 'presence'; sessionId: string; version: number; data: LivePresence }
  | { kind: 'ended'; sessionId: string; data: LiveServerMessageOf<'ended'>['data'] };

export interface LiveHub extends BroadcastChannel<LiveEvent> {
  /** Resolves once this instance hears the others (at once without Redis; after a second at most). */
  ready(): Promise<void>;
}

const KINDS = new Set<string>(['items_changed', 'playback_changed', 'chat', 'presence', 'ended']);
const isLiveEvent = (value: unknown): value is LiveEvent => {
  const event = value as { kind?: unknown; sessionId?: unknown } | null;
  return typeof event?.sessionId === 'string' && typeof event.kind === 'string' && KINDS.has(event.kind);
};

/** Changes of shared sessions, heard by every instance (Redis channel `riff:live:queue-sessions` with REDIS_URL). */
export function createLiveHub(broadcaster: Broadcaster): LiveHub {
  return { ...broadcaster.channel('queue-sessions', isLiveEvent), ready: () => broadcaster.ready() };
}
