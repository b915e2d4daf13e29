import { afterAll, beforeAll } from 'vitest';
import type { RiffOverrides } from '../../server/src/app.js';
import { api } from './http.js';
import { startTestServer, type TestServer } from './test-server.js';
import { typedApi, type TypedApi } from './typed-api.js';

export interface Suite {
  server: TestServer;
  /** Untyped calls (`any` bodies): for requests the contract refuses, and older tests. */
  http: ReturnType<typeof api>;
  /** Typed calls without credentials; a user from createUser has their own (`user.api`). */
  api: TypedApi;
}

/** One server for the test file: started before its tests, closed after them. */
export function useTestServer(env: Record<string, string> = {}, overrides: RiffOverrides = {}): Suite {
  const suite = {} as Suite;
  beforeAll(async () => {
    suite.server = await startTestServer(env, overrides);
    suite.http = api(suite.server.baseUrl);
    suite.api = typedApi(suite.server);
  });
  afterAll(async () => {
    await suite.server?.close();
  });
  return suite;
}
