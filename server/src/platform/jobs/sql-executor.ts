import { CompiledQuery, type Kysely } from 'kysely';

/** Anything that runs a compiled query: a Kysely instance or a transaction of one. */
export type QueryRunner = Pick<Kysely<unknown>, 'executeQuery'>;

/** What pg-boss needs of a database: run one SQL text (possibly several statements when it has no values). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Runs pg-boss's SQL through Kysely, so it shares the application's pool (or PGlite's single
 * connection, which the dialect hands out one query or transaction at a time) and, given a
 * transaction, enqueues a job atomically with the change that caused it.
 */
export function sqlExecutor(db: () => QueryRunner): SqlExecutor {
  return {
    async executeSql(text, values = []) {
      const result = await db().executeQuery(CompiledQuery.raw(text, values));
      return { rows: result.rows as unknown[] };
    },
  };
}
