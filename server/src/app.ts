import { hkdfSync } from 'node:crypto';
import path from 'node:path';
import express, { type Express } from 'express';
import cors from 'cors';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { contract, type RiffContract } from '@riff/contract';
import type { Config } from './platform/config/config.js';
import { openDatabase, migrateWhenReachable, type DatabaseHandle } from './platform/db/database.js';
import { createLogger, createHttpLogger } from './platform/logging/logger.js';
import { errorMiddleware, notFoundMiddleware } from './platform/errors/error-middleware.js';
import { createJsonBodyParser } from './platform/http/json-body.middleware.js';
import { registerContract } from './platform/http/register-contract.js';
import { rejectNulCharacters } from './platform/http/nul-guard.middleware.js';
import { docsRouter } from './platform/http/docs.routes.js';
import { accountPagesRouter } from './modules/account-pages/account-pages.routes.js';
import { createAuthenticator } from './platform/auth/authenticate.middleware.js';
import { createPasswordHasher } from './platform/auth/password-hasher.js';
import { createSecretBox } from './platform/auth/secret-box.js';
import { loadSecretKey } from './platform/auth/secret-key.js';
import { createTokenSigner, loadPrivateKey } from './platform/auth/token-signer.js';
import { createMailer, type Mailer } from './platform/mail/mailer.js';
import { createMailQueue } from './platform/mail/mail-queue.js';
import { createRateLimits } from './platform/rate-limit/rate-limiter.js';
import { requestLimitMiddleware } from './platform/rate-limit/request-limit.middleware.js';
import { systemClock, type Clock } from './platform/clock.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { AuthRepository } from './modules/auth/auth.repository.js';
import { SessionService } from './modules/auth/session.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { TwoFactorService } from './modules/auth/two-factor.service.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { ProfilesRepository } from './modules/users/profiles.repository.js';
import { SocialRepository } from './modules/users/social.repository.js';
import { PreferencesRepository } from './modules/users/preferences.repository.js';
import { UsersService } from './modules/users/users.service.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { AuditService } from './modules/audit/audit.service.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { createLocalStorage } from './platform/storage/local-storage.js';
import { createS3Storage } from './platform/storage/s3-storage.js';
import type { ObjectStorage } from './platform/storage/object-storage.js';
import { createJobQueue, type JobQueue } from './platform/jobs/job-queue.js';
import { TracksRepository } from './modules/tracks/tracks.repository.js';
import { UploadSessionsRepository } from './modules/tracks/upload-sessions.repository.js';
import { TracksService } from './modules/tracks/tracks.service.js';
import { UploadsService } from './modules/tracks/uploads.service.js';
import { tracksRoutes } from './modules/tracks/tracks.routes.js';

export interface Riff {
  app: Express;
  database: DatabaseHandle;
  logger: Logger;
  storage: ObjectStorage;
  jobs: JobQueue;
  /** Runs the upload cleanup now (it also runs every CLEANUP_INTERVAL_SECONDS). */
  cleanup(): Promise<{ sessions: number; objects: number }>;
  /** Releases everything the app holds: running jobs, rate-limit connections, the database. */
  close(): Promise<void>;
}

export interface RiffOverrides {
  logger?: Logger;
  clock?: Clock;
  mailer?: Mailer;
  storage?: ObjectStorage;
  /** Prefix for rate-limit keys, so several apps can share one Redis without sharing counters. */
  rateLimitPrefix?: string;
  /** Schema of the job queue's tables, so several apps can share one database without sharing jobs. */
  jobsSchema?: string;
}

const MINUTE = 60;

const deriveKey = (secret: Buffer, purpose: string) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `riff:${purpose}`, 32));

/** Builds the whole service from configuration: side effects are created here and passed in explicitly. */
export async function createRiff(config: Config, overrides: RiffOverrides = {}): Promise<Riff> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const clock = overrides.clock ?? systemClock;
  // keys first: a bad JWT_PRIVATE_KEY should stop the start before anything is opened
  const signer = await createTokenSigner(await loadPrivateKey(config.jwtPrivateKey, config.dataDir));
  const secretKey = await loadSecretKey(config.secretKey, config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
  try {
    // at start-up a database that is down is waited for (the boot app answers 503 meanwhile)
    await migrateWhenReachable(database.db, (error, attempt) => {
      if (attempt === 1 || attempt % 30 === 0) logger.warn({ err: error, attempt }, 'database unreachable: waiting for it');
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  const { db } = database;
  const mailer = overrides.mailer ?? createMailer(config.mail);
  const jobs = createJobQueue(db, logger, { concurrency: config.workerConcurrency, schema: overrides.jobsSchema });
  const mail = createMailQueue(jobs, mailer, createSecretBox(deriveKey(secretKey, 'job-data')));
  const limits = createRateLimits({ redisUrl: config.redisUrl, keyPrefix: overrides.rateLimitPrefix ?? 'riff', logger });
  const hasher = createPasswordHasher();

  const users = new UsersRepository(db);
  const audit = new AuditRepository(db);
  const authRepository = new AuthRepository(db);
  const sessions = new SessionService({ db, users, auth: authRepository, audit, signer, clock });
  const twoFactor = new TwoFactorService({
    db,
    users,
    auth: authRepository,
    audit,
    hasher,
    secretBox: createSecretBox(deriveKey(secretKey, 'totp-secret')),
    recoveryCodeKey: deriveKey(secretKey, 'recovery-code'),
    failures: limits.create('2fa-failures', { points: 5, durationSeconds: 15 * MINUTE, blockSeconds: 15 * MINUTE }),
    clock,
  });
  const auth = new AuthService({
    db,
    users,
    auth: authRepository,
    audit,
    sessions,
    twoFactor,
    hasher,
    signer,
    mail,
    clock,
    limits: {
      loginAccount: limits.create('login-account', { points: 5, durationSeconds: 15 * MINUTE, blockSeconds: 15 * MINUTE }),
      loginAddress: limits.create('login-address', { points: 100, durationSeconds: 60 * MINUTE, blockSeconds: 15 * MINUTE }),
      verificationMail: limits.create('verification-mail', { points: 1, durationSeconds: MINUTE }),
      resetMail: limits.create('reset-mail', { points: 1, durationSeconds: MINUTE }),
    },
    appBaseUrl: config.appBaseUrl,
  });

  const storage =
    overrides.storage ??
    (config.storage.driver === 's3'
      ? createS3Storage({ ...config.storage.s3, bucket: config.storage.s3.bucket ?? '' })
      : createLocalStorage(path.join(config.dataDir, 'files')));
  const tracksRepository = new TracksRepository(db);
  const tracksService = new TracksService({ tracks: tracksRepository, storage, audit, clock, logger });
  const uploads = new UploadsService({
    db,
    tracks: tracksRepository,
    sessions: new UploadSessionsRepository(db),
    storage,
    audit,
    clock,
    limits: config.uploads,
    logger,
  });
  jobs.define({ name: 'uploads.cleanup', retryLimit: 0, expireInSeconds: 60 * 60, handle: async () => void (await uploads.cleanup()) });
  jobs.every('uploads.cleanup', config.cleanupIntervalMs);

  const usersService = new UsersService({
    db,
    users,
    profiles: new ProfilesRepository(db),
    social: new SocialRepository(db),
    preferences: new PreferencesRepository(db),
    auth: authRepository,
    audit,
    hasher,
    clock,
    tracks: tracksService,
  });

  await jobs.start();

  const app = express();
  app.disable('x-powered-by');
  // No automatic weak ETag on JSON replies (they are not revalidated); streamed media set their own.
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.set('trust proxy', config.trustProxy);
  app.use(createHttpLogger(logger));
  app.use(
    helmet({
      contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:'] } },
      crossOriginResourcePolicy: { policy: 'same-site' },
    }),
  );
  app.use(
    cors({
      origin: config.corsOrigins,
      credentials: true,
      exposedHeaders: ['X-Request-Id', 'Retry-After', 'Deprecation', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
    }),
  );
  app.use(requestLimitMiddleware(limits.create('requests', { points: config.rateLimitPerMinute, durationSeconds: MINUTE })));
  app.use(docsRouter());
  if (config.serveAccountPages) app.use(accountPagesRouter());

  const trustedOrigins = [new URL(config.publicBaseUrl).origin, ...config.corsOrigins];
  const implementation: Record<keyof RiffContract, unknown> = {
    system: systemRoutes({ ping: database.ping, signer }),
    auth: authRoutes({ auth, twoFactor, trustedOrigins, secureCookies: config.secureCookies }),
    users: usersRoutes(usersService, { secureCookies: config.secureCookies }),
    audit: auditRoutes(new AuditService(audit)),
    tracks: tracksRoutes({ tracks: tracksService, uploads, storage }),
  };
  registerContract(
    app,
    contract,
    implementation,
    [createJsonBodyParser('1mb'), rejectNulCharacters, createAuthenticator({ signer, loadActiveUser: (id) => users.findActiveById(id) })],
  );
  app.use(notFoundMiddleware);
  app.use(errorMiddleware);

  return {
    app,
    database,
    logger,
    storage,
    jobs,
    cleanup: () => uploads.cleanup(),
    async close() {
      // uploads cut off by the shutdown remove their partial files while the database is still there
      await uploads.drain();
      await jobs.stop(config.shutdownTimeoutMs);
      await mailer.close();
      await limits.close();
      await database.close();
    },
  };
}
