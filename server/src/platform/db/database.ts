import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, sql, type MigrationProvider } from 'kysely';
import { migrations } from '../../../../migrations/index.js';
import type { Database } from './database.schema.js';
import { isDatabaseUnavailable } from './db-errors.js';
import { PreparedStatements } from './prepared-statements.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The search engine's typo distance (platform/search/text-search.ts): pg_trgm's `<%` matches at word
 * similarity 0.5 rather than its default 0.6, so one letter missing from a long word still finds
 * it ("reykavik" is 0.58 from "reykjavik"). A session setting, since the operator reads it.
 */
const TYPO_DISTANCE = { name: 'pg_trgm.word_similarity_threshold', value: '0.5' } as const;
/**
 * No parallel workers for one query: the API runs many small queries at once, and a search the
 * planner over-estimates (expression indexes have no statistics of their own) paid more to start
 * workers than to read its few rows.
 */
const SESSION_OPTIONS = `-c ${TYPO_DISTANCE.name}=${TYPO_DISTANCE.value} -c max_parallel_workers_per_gather=0`;

/**
 * PostgreSQL when DATABASE_URL is set, else the embedded PGlite under DATA_DIR. Only the driver in
 * use is loaded. Both read count(*) and other int8 values as numbers, and dates as YYYY-MM-DD
 * strings (not midnight Dates).
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  preparedStatements?: boolean;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
    pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      options: SESSION_OPTIONS,
      max: options.poolSize ?? 10,
      // a server that accepts no connection must not hold a request for long: it fails fast and answers 503
      connectionTimeoutMillis: 3_000,
      keepAlive: true,
    });
    // A client losing its server (PostgreSQL restarting) emits 'error': on the pool while idle, on the client
    // itself while checked out. Either unhandled would crash the process; the query in flight fails on its own
    // and the pool drops the broken client on release.
    pool.on('error', () => undefined);
    const statements = options.preparedStatements === false ? undefined : new PreparedStatements();
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
      statements?.attach(client);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', ping: () => ping(db), close: () => db.destroy() };
  }
  const [{ PGlite, types }, { citext }, { pg_trgm }, { unaccent }, { uuid_ossp }, { PGliteDialect }] =
    await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/citext'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('@electric-sql/pglite/contrib/unaccent'),
      import('@electric-sql/pglite/contrib/uuid_ossp'),
      import('./pglite-dialect.js'),
    ]);
  const dir = path.join(options.dataDir, 'pglite');
  await mkdir(dir, { recursive: true });
  const pglite = await PGlite.create({
    dataDir: dir,
    extensions: { citext, pg_trgm, unaccent, uuid_ossp },
    // the embedded database is for one process: modest buffers keep its memory near 200 MiB instead of 300+
    postgresqlconf: ['shared_buffers = 32MB'],
    parsers: { [types.INT8]: (value: string) => Number(value), [types.DATE]: (value: string) => value },
  });
  await pglite.exec(`set ${TYPO_DISTANCE.name} = ${TYPO_DISTANCE.value}`);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: 'pglite', ping: () => ping(db), close: () => db.destroy() };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/**
 * Migrates once the database can be reached: at start-up a database that is down (or still starting)
 * is waited for, with backoff, instead of ending the process. Any other failure is thrown.
 */
export async function migrateWhenReachable(
  db: Db,
  onWait: (error: unknown, attempt: number) => void = () => undefined,
): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateToLatest(db);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      onWait(error, attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * 2 ** Math.min(attempt, 5))));
    }
  }
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * True when every migration this build knows is recorded as applied. Kysely's migrator looks the
 * migration tables up through the catalogue and takes a lock before it can tell there is nothing
 * to do, which costs most of a second on PGlite at every start; this answers the common case with
 * one query and leaves anything pending (or an unknown state) to the migrator.
 */
async function upToDate(db: Db): Promise<boolean> {
  const { rows: table } = await sql<{ present: boolean }>`
    select to_regclass('kysely_migration') is not null as present`.execute(db);
  if (!table[0]?.present) return false;
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const applied = new Set(rows.map((row) => row.name));
  return Object.keys(migrations).every((name) => applied.has(name));
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  if (await upToDate(db)) return [];
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
