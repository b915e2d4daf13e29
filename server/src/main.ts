import type { RequestListener } from 'node:http';
import { ConfigError, loadConfig } from './platform/config/config.js';
import { createRiff, type Riff } from './app.js';
import { refuseUpgrade } from './platform/http/upgrade-router.js';
import { createBootApp } from './platform/http/boot-app.js';
import { createHttpServer } from './platform/http/http-server.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Listen at once: /healthz and /docs answer while the database opens; the rest is 503 until ready.
  let handler: RequestListener = createBootApp(config.publicBaseUrl);
  let stopping = false;
  const server = createHttpServer((req, res) => {
    // while draining, every reply closes its connection so keep-alive clients do not hold us open
    if (stopping) res.setHeader('Connection', 'close');
    handler(req, res);
  });
  // WebSockets (the live channel of shared sessions) once the service is up
  let upgrade: Riff['upgrade'] = (_req, socket) => refuseUpgrade(socket, 'The service is starting');
  server.on('upgrade', (req, socket, head) => upgrade(req, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const riff = await createRiff(config);
  handler = riff.app;
  upgrade = riff.upgrade;
  riff.logger.info(
    `Riff listening on http://${config.host}:${config.port} (database: ${riff.database.kind}; docs at /docs)`,
  );

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    riff.logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      riff.logger.warn('shutdown timeout: closing remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    // open WebSockets would hold server.close() until the timeout
    void riff.closeSockets();
    server.close(async () => {
      await riff.close();
      riff.logger.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
