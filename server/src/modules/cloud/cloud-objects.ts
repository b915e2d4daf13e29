import type { Logger } from 'pino';
import type { DbScope } from '../../platform/db/transactions.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import type { CloudRepository } from './cloud.repository.js';

/** Every key of one content lives alone in its own folder of the store: the folder goes with it. */
export const contentKey = (blobId: string) => `cloud/${blobId}/content`;
export const folderOfKey = (key: string) => key.slice(0, key.lastIndexOf('/') + 1);

/**
 * Stored contents that rows no longer name go once the change that let go of them has committed; an
 * intent is written with the change, so a process that dies before the removal leaves them to the cleanup.
 */
export class CloudObjects {
  constructor(
    private readonly deps: { scope: DbScope; cloud: CloudRepository; storage: ObjectStorage; logger: Logger },
  ) {}

  /** Inside the unit of work that removed the rows naming `keys`. */
  async release(keys: readonly string[]): Promise<void> {
    const unique = [...new Set(keys)];
    if (unique.length === 0) return;
    for (const key of unique) await this.deps.cloud.addIntent(key);
    this.deps.scope.afterCommit(async () => void (await this.remove(unique)));
  }

  /** Removes the objects no version names any more, and their intents; a failure leaves the intent to the cleanup. */
  async remove(keys: readonly string[]): Promise<number> {
    let removed = 0;
    for (const key of keys) {
      try {
        if (!(await this.deps.cloud.keyInUse(key))) {
          await this.deps.storage.deletePrefix(folderOfKey(key));
          removed++;
        }
        await this.deps.cloud.removeIntent(key);
      } catch (error) {
        this.deps.logger.warn({ err: error, key }, 'could not remove a cloud object; the cleanup will retry');
      }
    }
    return removed;
  }
}
