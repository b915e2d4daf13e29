/**
 * Every domain event type and its payload. Each area adds its own events by augmenting this
 * interface from its module folder:
 *
 *   declare module '../../platform/events/event-map.js' {
 *     interface EventMap { 'track.uploaded': { trackId: string; ownerId: string } }
 *   }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EventMap {}

export type EventType = keyof EventMap & string;
