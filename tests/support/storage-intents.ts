import { setTimeout as sleep } from 'node:timers/promises';
import type { TestServer } from './test-server.js';

/**
 * Storage intents are rows of a table shared by every test file on PostgreSQL, and earlier files
 * may leave some for the cleanup job: a test compares with what was there before it began.
 */
export async function intentKeys(server: TestServer): Promise<Set<string>> {
  const rows = await server.riff.database.db.selectFrom('storage_intents').select('key').execute();
  return new Set(rows.map((row) => row.key));
}

/**
 * Intents present now that were not there before and stay. A file running beside this one on the
 * same database holds an intent for the moment its own upload is in flight, under a key of its own;
 * an intent left behind stays. So a key counts only if it is still there after up to two seconds.
 */
export async function newIntents(server: TestServer, before: Set<string>): Promise<string[]> {
  const fresh = async () => [...(await intentKeys(server))].filter((key) => !before.has(key));
  let lasting = await fresh();
  for (let waited = 0; lasting.length > 0 && waited < 2000; waited += 100) {
    await sleep(100);
    const now = new Set(await fresh());
    lasting = lasting.filter((key) => now.has(key));
  }
  return lasting;
}
