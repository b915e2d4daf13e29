import { afterAll, beforeAll } from 'vitest';
import type { RiffOverrides } from '../../server/src/app.js';
import { api } from './http.js';
import { startTestServer, type TestServer } from './test-server.js';

export interface Suite {
  server: TestServer;
  http: ReturnType<typeof api>;
}

/** One server for the test file: started before its tests, closed after them. */
export function useTestServer(env: Record<string, string> = {}, overrides: RiffOverrides = {}): Suite {
  const suite = {} as Suite;
  beforeAll(async () => {
    suite.server = await startTestServer(env, overrides);
    suite.http = api(suite.server.baseUrl);
  });
  afterAll(async () => {
    await suite.server?.close();
  });
  return suite;
}
