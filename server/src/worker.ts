import { ConfigError, loadConfig } from './platform/config/config.js';
import { createRiff } from './app.js';

/** `npm run worker`: runs the job queue's workers and nothing else (no HTTP). */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig({ ...process.env, WORKERS: '1' });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const riff = await createRiff(config);
  riff.logger.info({ concurrency: config.workerConcurrency, database: riff.database.kind }, 'Riff worker running');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    riff.logger.info({ signal }, 'shutting down: letting running jobs finish');
    void riff.close().then(() => {
      riff.logger.info('stopped');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
