import type { StreamStatus } from '@riff/contract';

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    /** The track's stream became ready or failed (webhook track.processed). */
    'track.processed': { stream_status: Extract<StreamStatus, 'ready' | 'error'> };
  }
}
