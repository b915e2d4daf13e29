import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Router } from 'express';
import type { RiffContract } from '@riff/contract';
import type { AccountData } from './accounts/account-data.js';
import type { ApiKeyVerifier } from './auth/authenticate.middleware.js';
import type { AccountUser } from './access/actor.js';
import type { AnyEventHandler } from './events/event-bus.js';
import type { RoutesOf } from './http/contract-routes.js';
import type { EventType } from './events/event-map.js';
import type { JobMap, JobName, NoData } from './jobs/job-map.js';
import type { JobType } from './jobs/job-queue.js';

/**
 * A job a module declares, one of JobMap's (its handler typed by its name); `everyMs` also runs
 * it periodically on the processes that run workers, which only a job that takes nothing can be.
 */
export type ModuleJob = {
  [K in JobName]: JobType<K> & (NoData extends JobMap[K] ? { everyMs?: number } : { everyMs?: never });
}[JobName];

/** A WebSocket endpoint outside the contract: the HTTP server hands it the upgrade requests for its path. */
export interface SocketEndpoint {
  /** The exact path (e.g. /api/v1/ws); the query string is the endpoint's to read. */
  path: string;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket (at shutdown, before the HTTP server waits for its connections). */
  close(): Promise<void>;
}

/**
 * One area of the service, built by its `<area>.module.ts` factory from the platform (and the
 * few other modules it needs). The app only lists modules: everything area-specific is here.
 */
export interface RiffModule {
  name: string;
  /**
   * Implementations of contract routers, keyed as in the contract: each typed against its router
   * (contractRoutes), so a route the contract declares and the module does not implement fails to compile.
   */
  routes?: { [K in keyof RiffContract]?: RoutesOf<RiffContract[K]> };
  /** Express routers outside the contract (e.g. the account pages). */
  routers?: Router[];
  /**
   * Path prefixes any web page may call without credentials (no cookies: the caller's credentials
   * travel in the URL or the form), whose routers answer CORS themselves, preflights included; the
   * credentialed CORS of the configured origins is left out there (e.g. the Subsonic interface).
   */
  openCorsPaths?: string[];
  /** WebSocket endpoints (e.g. the live channel of shared sessions). */
  sockets?: SocketEndpoint[];
  jobs?: ModuleJob[];
  eventHandlers?: AnyEventHandler<EventType>[];
  accountData?: AccountData;
  /** Resolves the keys this area issues (developer keys, webhook keys) for the authenticator. */
  keyVerifiers?: ApiKeyVerifier[];
  /** Given by the module that owns accounts: the user behind a token, if they may still act. */
  activeUser?(id: string): Promise<AccountUser | undefined>;
  /** Runs once the modules are built and the job queue started, before the service answers. */
  start?(): Promise<void>;
  /** Finishes or abandons work in flight at shutdown, before the platform closes. */
  drain?(): Promise<void>;
}
