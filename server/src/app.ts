import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { Config } from './platform/config/config.js';
import type { DatabaseHandle } from './platform/db/database.js';
import { createHttpApp, type HttpHandler } from './platform/http/http-app.js';
import { createInFlight } from './platform/http/in-flight.js';
import { socketRouter } from './platform/http/upgrade-router.js';
import type { PeriodicJobName } from './platform/jobs/job-map.js';
import type { JobQueue } from './platform/jobs/job-queue.js';
import type { RiffModule } from './platform/module.js';
import { openPlatform, type Platform, type PlatformOverrides } from './platform/platform.js';
import type { ObjectStorage } from './platform/storage/object-storage.js';
import { createAreas, type Areas } from './modules/index.js';

export interface Riff {
  /** The request handler, for an HTTP server made by createHttpServer. */
  app: HttpHandler;
  platform: Platform;
  /** Each area's module by name, with the services and ports it exposes (as openServices gives them). */
  areas: Areas;
  database: DatabaseHandle;
  logger: Logger;
  storage: ObjectStorage;
  /** The job queue: `jobs.run(name)` runs a job here and now, `jobs.runDue()` whatever is due. */
  jobs: JobQueue;
  /** Hands an HTTP upgrade request to the module's WebSocket endpoint for its path (any other path is answered as plain HTTP). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every WebSocket: call it when shutdown starts, before the HTTP server waits for its connections. */
  closeSockets(): Promise<void>;
  /** Releases everything the app holds: work in flight, running jobs, rate-limit connections, the database. */
  close(): Promise<void>;
}

export type RiffOverrides = PlatformOverrides;

/** Hands each module's jobs, event handlers and account data to the platform. */
function enlist(platform: Platform, modules: RiffModule[]): void {
  for (const module of modules) {
    for (const { everyMs, ...job } of module.jobs ?? []) {
      platform.jobs.define(job);
      // only a job that takes nothing may have everyMs (ModuleJob)
      if (everyMs) platform.jobs.every(job.name as PeriodicJobName, everyMs);
    }
    for (const handler of module.eventHandlers ?? []) platform.events.subscribe(handler);
    if (module.accountData) platform.accounts.join(module.accountData);
  }
}

function onlyOne<K extends keyof RiffModule>(modules: RiffModule[], key: K): NonNullable<RiffModule[K]> {
  const providers = modules.filter((module) => module[key] !== undefined);
  if (providers.length !== 1) throw new Error(`exactly one module must provide ${key}; found ${providers.length}`);
  return providers[0]![key]!;
}

/** The platform and every area on it, with their jobs and event handlers enlisted, without HTTP. */
export interface RiffServices {
  platform: Platform;
  /** Each area's module by name, with the services and ports it exposes. */
  areas: Areas;
  /** Releases the platform (the database, the job queue, connections). */
  close(): Promise<void>;
}

/**
 * Opens the platform and builds every module on it: what the HTTP app serves, and what scripts and
 * the service-level tests call directly.
 */
export async function openServices(config: Config, overrides: RiffOverrides = {}): Promise<RiffServices> {
  const { platform, close } = await openPlatform(config, overrides);
  try {
    const areas = createAreas(platform);
    enlist(platform, areas.modules);
    await platform.jobs.start();
    for (const module of areas.modules) await module.start?.();
    return { platform, areas, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Builds the whole service from configuration: the platform, then every module on it, then HTTP. */
export async function createRiff(config: Config, overrides: RiffOverrides = {}): Promise<Riff> {
  const { platform, areas, close } = await openServices(config, overrides);
  const modules: RiffModule[] = areas.modules;
  const inFlight = createInFlight();
  const app = createHttpApp({
    config,
    logger: platform.logger,
    limits: platform.limits,
    authenticator: {
      signer: platform.signer,
      loadActiveUser: onlyOne(modules, 'activeUser'),
      keyVerifiers: modules.flatMap((module) => module.keyVerifiers ?? []),
      keyLimits: platform.keyLimits,
    },
    routes: Object.assign({}, ...modules.map((module) => module.routes ?? {})),
    routers: modules.flatMap((module) => module.routers ?? []),
    openCorsPaths: modules.flatMap((module) => module.openCorsPaths ?? []),
    inFlight,
  });
  const sockets = socketRouter(
    app,
    modules.flatMap((module) => module.sockets ?? []),
  );
  return {
    ...sockets,
    app,
    platform,
    areas,
    database: platform.database,
    logger: platform.logger,
    storage: platform.storage,
    jobs: platform.jobs,
    async close() {
      await sockets.closeSockets();
      // handlers whose clients went away may still be writing: they finish before the database closes
      await inFlight.idle(config.shutdownTimeoutMs);
      for (const module of modules) await module.drain?.();
      await close();
    },
  };
}
