import type { Logger } from 'pino';
import type { DbScope } from '../../platform/db/transactions.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';

/**
 * Runs `work` in a unit of work; what it hands to `later` (file removals) runs once that commits:
 * awaited here when this call owns the transaction, after the caller's commit when it joins one.
 */
export async function committing<T>(
  scope: DbScope,
  work: (later: (removal: () => Promise<void>) => void) => Promise<T>,
): Promise<T> {
  const joined = scope.inTransaction;
  const pending: (() => Promise<void>)[] = [];
  const result = await scope.transaction(() =>
    // inside a caller's transaction the removal runs after its commit, and the caller's outermost
    // transaction awaits it: the files are gone when the request that removed them answers
    work((removal) => (joined ? scope.afterCommit(removal) : pending.push(removal))),
  );
  for (const removal of pending) await removal();
  return result;
}

/** Removes stored files; a failure is logged, not thrown (the rows are already right). */
export async function removeFiles(storage: ObjectStorage, logger: Logger, keys: string[]): Promise<void> {
  for (const key of keys) {
    await storage
      .delete(key)
      .catch((error: unknown) => logger.warn({ err: error, key }, 'could not delete a media file'));
  }
}
