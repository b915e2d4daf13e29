import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.schema.js';

/**
 * The one way to run work in a transaction. Repositories never hold the pool: they read
 * `db` here on every query, which is the transaction of the unit of work they run in (carried
 * by AsyncLocalStorage) or the pool outside one. So a repository method cannot escape the
 * transaction it is called in, and no method takes an executor parameter.
 */
export interface DbScope {
  /** The executor of the current unit of work: its transaction, or the pool. */
  readonly db: Kysely<Database>;
  /** Whether the caller runs inside a transaction. */
  readonly inTransaction: boolean;
  /**
   * Runs `work` in a transaction: committed when it resolves, rolled back when it throws.
   * Inside an open transaction, `work` joins it (one commit for the whole unit of work).
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `callback` once the current transaction commits (never if it rolls back); at once outside
   * one. The outermost `transaction` awaits it before resolving, so whoever asked for the unit of
   * work (e.g. a request) sees its effects done (files removed); it runs outside the transaction,
   * which has committed, so it handles its own failures.
   */
  afterCommit(callback: () => void | Promise<void>): void;
}

interface UnitOfWork {
  trx: Transaction<Database>;
  committed: (() => void | Promise<void>)[];
}

export function createDbScope(root: Kysely<Database>): DbScope {
  const current = new AsyncLocalStorage<UnitOfWork>();
  // While a store is enabled, Node 20 tracks every promise of the process for it (a thirtieth of
  // a simple read's CPU). Only a transaction needs it: the store is switched off whenever none
  // runs, and run() switches it on again.
  let open = 0;
  return {
    get db() {
      return current.getStore()?.trx ?? root;
    },
    get inTransaction() {
      return current.getStore() !== undefined;
    },
    async transaction(work) {
      if (current.getStore()) return work();
      const committed: (() => void | Promise<void>)[] = [];
      open++;
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await root.transaction().execute((trx) => current.run({ trx, committed }, work));
      } finally {
        if (--open === 0) current.disable();
      }
      for (const callback of committed) await callback();
      return result;
    },
    afterCommit(callback) {
      const unit = current.getStore();
      if (unit) unit.committed.push(callback);
      else void callback();
    },
  };
}
