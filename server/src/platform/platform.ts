import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { createAccountDirectory, type AccountDirectory } from './accounts/account-data.js';
import { createApiKeyLimits, type ApiKeyLimits } from './auth/api-key-limits.js';
import { createKeyRing, type KeyRing } from './auth/key-ring.js';
import { createPasswordHasher, type PasswordHasher } from './auth/password-hasher.js';
import { createRevocations, type Revocations } from './auth/revocations.js';
import { loadSecretKey } from './auth/secret-key.js';
import { createTokenSigner, loadPrivateKey, type TokenSigner } from './auth/token-signer.js';
import { createBroadcaster, type Broadcaster } from './broadcast/broadcaster.js';
import { createUserPush, type UserPush } from './broadcast/user-push.js';
import { systemClock, type Clock } from './clock.js';
import { migrateWhenReachable, openDatabase, type DatabaseHandle } from './db/database.js';
import { createDbScope, type DbScope } from './db/transactions.js';
import { createEventBus, type EventBus } from './events/event-bus.js';
import { EventStream } from './events/event-stream.js';
import { EventsRepository } from './events/events.repository.js';
import type { NoData } from './jobs/job-map.js';
import { createJobQueue, type JobQueue } from './jobs/job-queue.js';
import { createLogger } from './logging/logger.js';
import { createMailQueue, type MailQueue } from './mail/mail-queue.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { createDailySalts, type DailySalts } from './privacy/daily-salt.js';
import { createRateLimits, type RateLimits } from './rate-limit/rate-limiter.js';
import type { ObjectStorage } from './storage/object-storage.js';
import { openStorage } from './storage/open-storage.js';

declare module './jobs/job-map.js' {
  interface JobMap {
    /** Removes outbox events older than a week. */
    'events.prune': NoData;
    /** Destroys the daily salts of the days before yesterday. */
    'salts.prune': NoData;
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;
const OUTBOX_RETENTION_MS = 7 * DAY_MS;

/** Everything a module is built from: the service's shared parts, none of them area-specific. */
export interface Platform {
  config: Config;
  logger: Logger;
  clock: Clock;
  database: DatabaseHandle;
  /** Transactions: repositories read their executor here. */
  scope: DbScope;
  storage: ObjectStorage;
  mail: MailQueue;
  jobs: JobQueue;
  events: EventBus;
  /** Keyed hashes that link within one UTC day only (anonymous listeners): no address is kept. */
  salts: DailySalts;
  limits: RateLimits;
  /** Each API key's hourly budget: one count for every interface a key is used on (the API, /rest/). */
  keyLimits: ApiKeyLimits;
  hasher: PasswordHasher;
  signer: TokenSigner;
  keys: KeyRing;
  /** Channels every instance hears (Redis pub/sub with REDIS_URL, in-process otherwise). */
  broadcaster: Broadcaster;
  /** Messages for a user's open live sockets, on every instance. */
  pushes: UserPush;
  /** Tells every instance that a user's (or a key's) credentials were revoked. */
  revocations: Revocations;
  /** Every module's part of a user's account (export, erasure). */
  accounts: AccountDirectory & { join: ReturnType<typeof createAccountDirectory>['join'] };
}

/** Replacements for tests, and for several apps sharing one database or Redis. */
export interface PlatformOverrides {
  logger?: Logger;
  clock?: Clock;
  mailer?: Mailer;
  storage?: ObjectStorage;
  /** The password hasher: tests pass one of lower cost (configuration cannot). */
  hasher?: PasswordHasher;
  /** Prefix for rate-limit keys, so several apps can share one Redis without sharing counters. */
  rateLimitPrefix?: string;
  /** Schema of the job queue's tables, so several apps can share one database without sharing jobs. */
  jobsSchema?: string;
}

export interface PlatformHandle {
  platform: Platform;
  /** Releases what the platform holds: running jobs, mail, Redis connections, the database. */
  close(): Promise<void>;
}

/** Opens the platform: keys first, then the database (waited for while down, then migrated), then the rest. */
export async function openPlatform(config: Config, overrides: PlatformOverrides = {}): Promise<PlatformHandle> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  // keys first: a bad JWT_PRIVATE_KEY should stop the start before anything is opened
  const signer = await createTokenSigner(await loadPrivateKey(config.jwtPrivateKey, config.dataDir));
  const keys = createKeyRing(await loadSecretKey(config.secretKey, config.dataDir));
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    preparedStatements: config.databasePreparedStatements,
  });
  try {
    // at start-up a database that is down is waited for (the boot app answers 503 meanwhile)
    await migrateWhenReachable(database.db, (error, attempt) => {
      if (attempt === 1 || attempt % 30 === 0)
        logger.warn({ err: error, attempt }, 'database unreachable: waiting for it');
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  const scope = createDbScope(database.db);
  const mailer = overrides.mailer ?? createMailer(config.mail);
  const jobs = createJobQueue(scope, logger, { concurrency: config.workerConcurrency, schema: overrides.jobsSchema });
  const limits = await createRateLimits({
    redisUrl: config.redisUrl,
    keyPrefix: overrides.rateLimitPrefix ?? 'riff',
    logger,
  });
  const events = new EventsRepository(scope);
  const broadcaster = createBroadcaster({ redisUrl: config.redisUrl, logger });
  jobs.define({
    name: 'events.prune',
    retryLimit: 0,
    // after-commit handlers run within seconds; a week leaves room for a worker that was down
    handle: () => events.prune(new Date(Date.now() - OUTBOX_RETENTION_MS)),
  });
  jobs.every('events.prune', 6 * 60 * 60 * 1000);
  const clock = overrides.clock ?? systemClock;
  const salts = createDailySalts(scope);
  jobs.define({
    name: 'salts.prune',
    retryLimit: 0,
    // yesterday's salt stays (see pruneSalts); hourly, so an older day's lasts an hour past its end at most
    handle: () => salts.pruneSalts(new Date(clock.now().getTime() - DAY_MS)),
  });
  jobs.every('salts.prune', 60 * 60 * 1000);
  const platform: Platform = {
    config,
    logger,
    clock,
    database,
    scope,
    storage: overrides.storage ?? (await openStorage(config)),
    mail: createMailQueue(jobs, mailer, keys.secretBox('job-data')),
    jobs,
    events: createEventBus(scope, jobs, events, new EventStream(scope), clock),
    salts,
    limits,
    keyLimits: createApiKeyLimits(limits),
    hasher: overrides.hasher ?? createPasswordHasher(),
    signer,
    keys,
    broadcaster,
    revocations: createRevocations(scope, broadcaster),
    pushes: createUserPush(scope, broadcaster),
    accounts: createAccountDirectory(),
  };
  return {
    platform,
    async close() {
      await jobs.stop(config.shutdownTimeoutMs);
      await mailer.close();
      await limits.close();
      await broadcaster.close();
      await database.close();
    },
  };
}
