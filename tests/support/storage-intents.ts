import type { TestServer } from './test-server.js';

/**
 * Storage intents are rows of a table shared by every test file on PostgreSQL, and earlier files
 * may leave some for the cleanup job: a test compares with what was there before it began.
 */
export async function intentKeys(server: TestServer): Promise<Set<string>> {
  const rows = await server.riff.database.db.selectFrom('storage_intents').select('key').execute();
  return new Set(rows.map((row) => row.key));
}

/** Intents present now that were not there before. */
export async function newIntents(server: TestServer, before: Set<string>): Promise<string[]> {
  return [...(await intentKeys(server))].filter((key) => !before.has(key));
}
