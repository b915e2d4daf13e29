import { createHmac, randomBytes } from 'node:crypto';
import './daily-salts.tables.js';
import type { DbScope } from '../db/transactions.js';

const SALT_BYTES = 32;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of a time, as the `date` column holds it (YYYY-MM-DD). */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Keyed hashes that link within one UTC day only: what tells anonymous listeners apart (the same
 * address and user agent are one listener all day, and an unrelated one the next day) without
 * keeping an address. Each day has its own random salt, shared by every instance through the
 * database; salts of past days are destroyed (see pruneSalts), and with them any way to recompute
 * a day's hashes from an address: a hash that survives (in an event, a roll-up) is then an
 * identifier of nobody.
 */
export interface DailySalts {
  /** base64url HMAC-SHA256 of `input` under the salt of `at`'s UTC day (made on first need). */
  dailyHash(at: Date, input: string): Promise<string>;
  /**
   * Destroys the salts of days before `before`'s UTC day; answers how many. The periodic job keeps
   * yesterday's (it passes yesterday): a request that took its time just before midnight, or an
   * instance whose clock runs a little behind, still hashes with the salt of the day it stamps.
   * Anything older no request can need, and is destroyed at once: that is what makes the day's
   * hashes unrecomputable.
   */
  pruneSalts(before: Date): Promise<number>;
}

/**
 * The salts in the `daily_salts` table: the first instance to need a day's salt inserts a random
 * one (`on conflict do nothing`, so concurrent instances agree on whichever committed first), and
 * every instance reads it back. Each instance keeps the salts it read in memory (one read per day).
 */
export function createDailySalts(scope: DbScope): DailySalts {
  /** Committed salts by day (a promise, so concurrent first calls share one read). */
  const cache = new Map<string, Promise<Buffer>>();

  const readSalt = async (day: string): Promise<Buffer> => {
    await scope.db
      .insertInto('daily_salts')
      .values({ day, salt: randomBytes(SALT_BYTES) })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
    const row = await scope.db
      .selectFrom('daily_salts')
      .select('salt')
      .where('day', '=', day)
      .executeTakeFirstOrThrow();
    // node-postgres gives a Buffer, PGlite a Uint8Array
    return Buffer.from(row.salt);
  };

  const saltOf = (day: string): Promise<Buffer> => {
    const cached = cache.get(day);
    if (cached) return cached;
    // inside a transaction the salt read (and the insert) roll back with it, so it is not kept:
    // another instance could then make that day's salt anew, and this one would hash differently
    if (scope.inTransaction) return readSalt(day);
    const salt = readSalt(day);
    cache.set(day, salt);
    salt.catch(() => cache.delete(day));
    // the days before yesterday are pruned anyway: no need to hold their salts
    const yesterday = utcDay(new Date(Date.parse(day) - DAY_MS));
    for (const kept of cache.keys()) if (kept < yesterday) cache.delete(kept);
    return salt;
  };

  return {
    async dailyHash(at, input) {
      const salt = await saltOf(utcDay(at));
      return createHmac('sha256', salt).update(input).digest('base64url');
    },

    async pruneSalts(before) {
      const day = utcDay(before);
      for (const kept of cache.keys()) if (kept < day) cache.delete(kept);
      const result = await scope.db.deleteFrom('daily_salts').where('day', '<', day).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
