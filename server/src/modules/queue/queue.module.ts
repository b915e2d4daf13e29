import type { EventHandler } from '../../platform/events/event-bus.js';
import { leaveSessionsOnBlock } from './queue.events.js';
import './queue.jobs.js';
import type { KeyRef } from '../../platform/auth/token-signer.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { UserRow } from '../users/users.tables.js';
import type { RiffModule } from '../../platform/module.js';
import type { Platform } from '../../platform/platform.js';
import type { TrackReader } from '../tracks/track-reader.js';
import { createLiveHub } from './live-hub.js';
import { createPresenceStore } from './live-presence.js';
import { createLiveSocket } from './live-socket.js';
import { QueueRepository } from './queue.repository.js';
import { queueRoutes } from './queue.routes.js';
import { QueueService } from './queue.service.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';

export interface QueueModuleDeps {
  /** The tracks area's read port: which tracks a caller may see (adds are refused with 404 otherwise). */
  tracks: TrackReader;
  /** The accounts area's check that a token's user may still act (for the live socket). */
  activeUser(id: string): Promise<UserRow | undefined>;
  /** The users area's read port for blocks: who blocks whom (either way). */
  blockedEitherWay(a: string, b: string): Promise<boolean>;
  /** The users area's read port for names: the host, and who added items or wrote in the chat. */
  names: PeopleReader['names'];
  /** Whether the key a token was minted from is still live (the areas that issue keys answer). */
  keyIsLive(key: KeyRef): Promise<boolean>;
}

export type QueueModule = RiffModule & {
  /** The area's services, for the service-level tests (routes and the live socket are the only other callers). */
  services: { queue: QueueService; sessions: SessionsService };
};

/**
 * The play queue (one per user, versioned) and shared listening sessions, with their live channel:
 * a WebSocket at /api/v1/ws, fanned out across instances through Redis when REDIS_URL is set.
 */
export function createQueueModule(platform: Platform, deps: QueueModuleDeps): QueueModule {
  const { scope, events, clock, config, logger, signer } = platform;
  const queue = new QueueService({ scope, queues: new QueueRepository(scope), tracks: deps.tracks, events, clock });
  const sessionRows = new SessionsRepository(scope);
  const hub = createLiveHub(platform.broadcaster);
  const sessions = new SessionsService({
    scope,
    sessions: sessionRows,
    queue,
    tracks: deps.tracks,
    events,
    clock,
    live: hub,
    blockedEitherWay: deps.blockedEitherWay,
    names: deps.names,
    publicBaseUrl: config.publicBaseUrl,
  });
  return {
    name: 'queue',
    services: { queue, sessions },
    routes: { queue: queueRoutes(queue, sessions) },
    sockets: [
      createLiveSocket({
        sessions,
        hub,
        presence: createPresenceStore({ redisUrl: config.redisUrl, logger }),
        revocations: platform.revocations,
        pushes: platform.pushes,
        signer,
        loadActiveUser: deps.activeUser,
        keyIsLive: deps.keyIsLive,
        logger,
      }),
    ],
    eventHandlers: [leaveSessionsOnBlock(sessionRows) as unknown as EventHandler],
    jobs: [{ name: 'queue.sessions.prune', retryLimit: 0, everyMs: 60 * 60_000, handle: () => sessions.prune() }],
    accountData: {
      export: async (owner) => ({ queue: await queue.exportFor(owner), ...(await sessions.exportFor(owner)) }),
      erase: async (owner) => ({
        removed_queue_items: await queue.eraseFor(owner),
        ...(await sessions.eraseFor(owner)),
      }),
    },
  };
}
