import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRiff, type Riff, type RiffOverrides } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/platform/config/config.js';

export interface TestServer {
  baseUrl: string;
  /** Origin of the service itself, accepted by the refresh-cookie CSRF check. */
  origin: string;
  dataDir: string;
  outboxDir: string;
  riff: Riff;
  close(): Promise<void>;
}

/**
 * Starts the real app on a loopback port. It runs on the embedded defaults unless the
 * environment names DATABASE_URL or REDIS_URL, in which case it uses those servers: the same
 * suite covers both.
 */
export async function startTestServer(env: Record<string, string> = {}, overrides: RiffOverrides = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-test-'));
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const config = loadConfig({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  const riff = await createRiff(config, { rateLimitPrefix: `test-${randomUUID()}`, ...overrides });
  server.on('request', riff.app);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    origin: baseUrl,
    dataDir,
    outboxDir: config.mail.outboxDir,
    riff,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await riff.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
