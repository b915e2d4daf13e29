import { afterAll, beforeAll } from 'vitest';
import type { RiffOverrides } from '../../server/src/app.js';
import { api } from './http.js';
import { createOwnDatabase, type OwnDatabase } from './test-database.js';
import { startTestServer, type TestServer } from './test-server.js';
import { typedApi, type TypedApi } from './typed-api.js';

export interface Suite {
  server: TestServer;
  /** Untyped calls (`any` bodies): for requests the contract refuses, and older tests. */
  http: ReturnType<typeof api>;
  /** Typed calls without credentials; a user from createUser has their own (`user.api`). */
  api: TypedApi;
}

export interface SuiteOptions {
  /**
   * On PostgreSQL, a database of the file's own instead of the run's shared one: for tests whose
   * effect reaches every account (platform settings, announcements to all), which would otherwise
   * change what test files running beside them see. Embedded, every file has its own anyway.
   */
  ownDatabase?: boolean;
}

/** One server for the test file: started before its tests, closed after them. */
export function useTestServer(
  env: Record<string, string> = {},
  overrides: RiffOverrides = {},
  options: SuiteOptions = {},
): Suite {
  const suite = {} as Suite;
  let own: OwnDatabase | undefined;
  beforeAll(async () => {
    own = options.ownDatabase ? await createOwnDatabase() : undefined;
    suite.server = await startTestServer({ ...env, ...(own ? { DATABASE_URL: own.url } : {}) }, overrides);
    suite.http = api(suite.server.baseUrl);
    suite.api = typedApi(suite.server);
  });
  afterAll(async () => {
    await suite.server?.close();
    await own?.drop();
  });
  return suite;
}
