import path from 'node:path';
import { z } from 'zod';
import {
  ANALYTICS_ROLLUP_SECONDS_DEFAULT,
  ANONYMOUS_PLAYS_PER_ADDRESS,
  ANONYMOUS_PLAYS_PERIOD_HOURS,
  MEDIA_TRANSCODERS,
  PAYMENT_PROVIDERS,
} from '@riff/contract';
import { findFfmpeg } from '../media/ffmpeg-path.js';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const urlWithProtocols = (protocols: string[]) =>
  optionalString.refine(
    (value) => value === undefined || (URL.canParse(value) && protocols.includes(new URL(value).protocol)),
    { message: `must be a URL starting with ${protocols.join(' or ')}` },
  );

const integer = (fallback: number, min = 0) =>
  optionalString
    .refine((value) => value === undefined || /^\d+$/.test(value), { message: 'must be a whole number' })
    .transform((value) => (value === undefined ? fallback : Number(value)))
    .pipe(z.number().int().min(min));

const list = optionalString.transform((value) =>
  value === undefined
    ? []
    : value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
);

const flag = z
  .enum(['true', 'false'])
  .default('false')
  .transform((value) => value === 'true');

/** Seconds between attempts, comma-separated: `1,2` is three attempts in all. */
const retrySchedule = (fallback: number[]) =>
  optionalString
    .refine((value) => value === undefined || /^\d+(,\d+)*$/.test(value.replace(/\s+/g, '')), {
      message: 'must be whole seconds, comma-separated',
    })
    .transform((value) => (value === undefined ? fallback : value.replace(/\s+/g, '').split(',').map(Number)));

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

const EnvSchema = z.object({
  PORT: integer(8080).pipe(z.number().max(65535)),
  HOST: optionalString.transform((value) => value ?? '127.0.0.1'),
  // relative to where the command was typed: npm runs workspace scripts inside the workspace folder
  DATA_DIR: optionalString.transform((value) =>
    path.resolve(process.env.INIT_CWD ?? process.cwd(), value ?? './.data'),
  ),
  PUBLIC_BASE_URL: urlWithProtocols(['http:', 'https:']),
  APP_BASE_URL: urlWithProtocols(['http:', 'https:']),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']),
  DATABASE_POOL_SIZE: integer(10, 1),
  DATABASE_PREPARED_STATEMENTS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:']),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: optionalString,
  S3_REGION: optionalString,
  S3_ENDPOINT: urlWithProtocols(['http:', 'https:']),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:']),
  MAIL_FROM: optionalString.transform((value) => value ?? 'Riff <no-reply@riff.local>'),
  MAIL_OUTBOX_DIR: optionalString,
  JWT_PRIVATE_KEY: optionalString.refine((value) => value === undefined || value.includes('PRIVATE KEY'), {
    message: 'must be a PEM private key (PKCS#8, Ed25519 or P-256)',
  }),
  SECRET_KEY: optionalString.refine((value) => value === undefined || Buffer.from(value, 'base64').length === 32, {
    message: 'must be 32 bytes, base64-encoded',
  }),
  FFMPEG_PATH: optionalString,
  /** Searched for ffmpeg when FFMPEG_PATH is not set. */
  PATH: z.string().optional(),
  MEDIA_TRANSCODER: z.enum(MEDIA_TRANSCODERS).default('ffmpeg'),
  MEDIA_CALLBACK_SECRET: optionalString,
  /** ffmpeg processes transcoding for players (Subsonic stream) at once in this process. */
  TRANSCODE_CONCURRENCY: integer(4, 1),
  PAYMENT_PROVIDER: z.enum(PAYMENT_PROVIDERS).default('sandbox'),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Where the stripe package sends its API calls (a local stand-in in tests); Stripe's own when unset. */
  STRIPE_API_URL: optionalString.refine((value) => value === undefined || URL.canParse(value), {
    message: 'must be a URL',
  }),
  STUN_URLS: list,
  TURN_URLS: list,
  TURN_USERNAME: optionalString,
  TURN_CREDENTIAL: optionalString,
  /** coturn's static-auth-secret (use-auth-secret): the service then hands out time-limited TURN credentials. */
  TURN_SECRET: optionalString,
  TURN_TTL_SECONDS: integer(86_400, 60),
  CORS_ORIGINS: list.refine((origins) => origins.every((origin) => URL.canParse(origin)), {
    message: 'must be a comma-separated list of origins such as https://app.example.com',
  }),
  /** How long a browser may reuse a CORS preflight answer; Chrome caps it at 7200 s, Firefox at 86400 s. */
  CORS_MAX_AGE_SECONDS: integer(7200),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  RATE_LIMIT_PER_MINUTE: integer(1200, 1),
  /** Counted anonymous plays of one track from one address per period (a user agent is free to change). */
  ANONYMOUS_PLAYS_PER_ADDRESS: integer(ANONYMOUS_PLAYS_PER_ADDRESS, 1),
  ANONYMOUS_PLAYS_PERIOD_HOURS: integer(ANONYMOUS_PLAYS_PERIOD_HOURS, 1),
  /**
   * Seconds a rotated refresh token may be presented again and get the same successor (tabs that
   * refresh at once); after that a replay is theft and ends the login. 0 turns the grace off; at
   * most 5 minutes, since the replayed token is worth a live one for that long.
   */
  REFRESH_REUSE_GRACE_SECONDS: integer(30, 0).pipe(z.number().max(300)),
  SHUTDOWN_TIMEOUT_MS: integer(10_000, 0),
  /** After a refusal made before the body is read whole, how much of the rest is read and discarded (so the client sees the answer) before the connection closes. */
  REQUEST_DRAIN_MAX_BYTES: integer(4 * MiB),
  REQUEST_DRAIN_TIMEOUT_MS: integer(10_000),
  /** A body slower than this on average (bytes per second; 0: no minimum) after the grace period is cut with 408. */
  MIN_REQUEST_BODY_RATE: integer(240),
  MIN_REQUEST_BODY_RATE_GRACE_MS: integer(5_000),
  UPLOAD_MAX_BYTES: integer(512 * MiB, 1),
  UPLOAD_CHUNK_MAX_BYTES: integer(16 * MiB, 1),
  UPLOAD_MAX_CHUNKS: integer(10_000, 1),
  QUOTA_BYTES: integer(10 * GiB, 0),
  /** The largest cloud file, in one request or chunked. */
  CLOUD_MAX_FILE_BYTES: integer(2 * GiB, 1),
  /** Files and folders directly inside one cloud folder. */
  CLOUD_FOLDER_MAX_ITEMS: integer(10_000, 1),
  /** Accounts with one of these addresses become admins once verified (and at each start); removing one demotes nobody. */
  ADMIN_EMAILS: list
    .transform((emails) => emails.map((email) => email.toLowerCase()))
    .refine((emails) => emails.every((email) => z.string().email().safeParse(email).success), {
      message: 'must be comma-separated email addresses',
    }),
  UPLOAD_SESSION_TTL_HOURS: integer(24, 1),
  CLEANUP_INTERVAL_SECONDS: integer(600, 0),
  /** Webhooks go to https on public addresses; these allow plain http, and private addresses (tests on loopback). */
  WEBHOOK_ALLOW_HTTP: flag,
  WEBHOOK_ALLOW_PRIVATE: flag,
  WEBHOOK_RETRY_SCHEDULE: retrySchedule([5, 300, 1800, 7200, 18000, 36000, 36000]),
  WEBHOOK_TIMEOUT_MS: integer(10_000, 1),
  WORKERS: z.enum(['0', '1']).default('1'),
  WORKER_CONCURRENCY: integer(2, 1),
  /** How far behind the analytics roll-up may be: it runs at least this often (seconds). */
  ANALYTICS_ROLLUP_SECONDS: integer(ANALYTICS_ROLLUP_SECONDS_DEFAULT, 1).pipe(z.number().max(3600)),
  /**
   * `trust` (default) sends replies as the mappers build them; `check` also parses every reply
   * against the contract and fails it (500) when it breaks the schema or carries anything the
   * schema does not declare: the test suite runs with check.
   */
  REPLY_VALIDATION: z.enum(['trust', 'check']).default('trust'),
});

export type Config = ReturnType<typeof resolveConfig>;

export class ConfigError extends Error {}

/** Parses and validates the environment once; a bad value names its variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return resolveConfig(parsed.data);
}

function resolveConfig(env: z.infer<typeof EnvSchema>) {
  const publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/+$/, '');
  if (env.STORAGE_DRIVER === 's3' && !env.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when STORAGE_DRIVER is s3');
  }
  for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
    if (env.PAYMENT_PROVIDER === 'stripe' && !env[name])
      throw new ConfigError(`Invalid configuration:\n  ${name}: required when PAYMENT_PROVIDER is stripe`);
  }
  return {
    port: env.PORT,
    host: env.HOST,
    replyValidation: env.REPLY_VALIDATION,
    dataDir: env.DATA_DIR,
    publicBaseUrl,
    appBaseUrl: (env.APP_BASE_URL ?? publicBaseUrl).replace(/\/+$/, ''),
    /** Without a frontend (APP_BASE_URL), mail links open the service's own /verify-email and /reset-password pages. */
    serveAccountPages: env.APP_BASE_URL === undefined,
    secureCookies: publicBaseUrl.startsWith('https:'),
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databasePreparedStatements: env.DATABASE_PREPARED_STATEMENTS,
    redisUrl: env.REDIS_URL,
    storage: {
      driver: env.STORAGE_DRIVER,
      s3: {
        bucket: env.S3_BUCKET,
        region: env.S3_REGION ?? 'us-east-1',
        endpoint: env.S3_ENDPOINT,
        accessKeyId: env.S3_ACCESS_KEY_ID,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        forcePathStyle: env.S3_FORCE_PATH_STYLE,
      },
    },
    mail: {
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      outboxDir: path.resolve(env.MAIL_OUTBOX_DIR ?? path.join(env.DATA_DIR, 'mail')),
    },
    jwtPrivateKey: env.JWT_PRIVATE_KEY,
    secretKey: env.SECRET_KEY,
    /** FFMPEG_PATH, else ffmpeg on PATH, else the npm package's binary; `ffmpeg` (failing to spawn) when none. */
    ffmpegPath: findFfmpeg({ configured: env.FFMPEG_PATH, pathVariable: env.PATH })?.path ?? 'ffmpeg',
    media: {
      /** `external`: the HLS job waits for POST /tracks/{id}/hls/callback, signed with callbackSecret. */
      transcoder: env.MEDIA_TRANSCODER,
      callbackSecret: env.MEDIA_CALLBACK_SECRET,
      /** Live transcodes (stream with a format) at once in this process; the next waits briefly, then is refused. */
      transcodeConcurrency: env.TRANSCODE_CONCURRENCY,
    },
    payments: {
      /** sandbox (built in, the default) or stripe (needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET). */
      provider: env.PAYMENT_PROVIDER,
      stripe: {
        secretKey: env.STRIPE_SECRET_KEY,
        webhookSecret: env.STRIPE_WEBHOOK_SECRET,
        apiUrl: env.STRIPE_API_URL,
      },
    },
    webhooks: {
      allowHttp: env.WEBHOOK_ALLOW_HTTP,
      allowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
      retryScheduleSeconds: env.WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    },
    webrtc: {
      stunUrls: env.STUN_URLS,
      turnUrls: env.TURN_URLS,
      turnUsername: env.TURN_USERNAME,
      turnCredential: env.TURN_CREDENTIAL,
      turnSecret: env.TURN_SECRET,
      turnTtlSeconds: env.TURN_TTL_SECONDS,
    },
    corsOrigins: env.CORS_ORIGINS.map((origin) => new URL(origin).origin),
    corsMaxAgeSeconds: env.CORS_MAX_AGE_SECONDS,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    plays: {
      anonymousPerAddress: env.ANONYMOUS_PLAYS_PER_ADDRESS,
      anonymousPeriodHours: env.ANONYMOUS_PLAYS_PERIOD_HOURS,
    },
    refreshReuseGraceMs: env.REFRESH_REUSE_GRACE_SECONDS * 1000,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    requestBodies: {
      drainMaxBytes: env.REQUEST_DRAIN_MAX_BYTES,
      drainTimeoutMs: env.REQUEST_DRAIN_TIMEOUT_MS,
      minBytesPerSecond: env.MIN_REQUEST_BODY_RATE,
      minRateGraceMs: env.MIN_REQUEST_BODY_RATE_GRACE_MS,
    },
    uploads: {
      maxFileBytes: env.UPLOAD_MAX_BYTES,
      maxChunkBytes: env.UPLOAD_CHUNK_MAX_BYTES,
      maxChunks: env.UPLOAD_MAX_CHUNKS,
      quotaBytes: env.QUOTA_BYTES,
      sessionTtlMs: env.UPLOAD_SESSION_TTL_HOURS * 60 * 60 * 1000,
    },
    cloud: {
      maxFileBytes: env.CLOUD_MAX_FILE_BYTES,
      folderMaxItems: env.CLOUD_FOLDER_MAX_ITEMS,
    },
    /** Lower-cased: these accounts become admins once their address is verified. */
    adminEmails: env.ADMIN_EMAILS,
    /** 0 turns the periodic cleanup off (it can still be run on demand). */
    cleanupIntervalMs: env.CLEANUP_INTERVAL_SECONDS * 1000,
    /** Jobs this process runs at once: 0 with WORKERS=0 (an API-only process). */
    workerConcurrency: env.WORKERS === '0' ? 0 : env.WORKER_CONCURRENCY,
    /** Seconds between analytics roll-ups (1 to 3600): how far behind the analytics may be. */
    analyticsRollupSeconds: env.ANALYTICS_ROLLUP_SECONDS,
  };
}
