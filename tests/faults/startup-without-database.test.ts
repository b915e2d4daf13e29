import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgCluster, faultSuiteEnabled, freePort, waitFor, type PgCluster } from './fault-services.js';

const root = path.resolve(import.meta.dirname, '../..');

describe.skipIf(!faultSuiteEnabled)('starting while PostgreSQL is down', () => {
  let cluster: PgCluster;
  let child: ChildProcess | undefined;
  let dataDir: string;

  beforeAll(async () => {
    cluster = await createPgCluster();
    await cluster.createDatabase('riff');
    await cluster.stop();
    dataDir = await mkdtemp(path.join(tmpdir(), 'riff-fault-start-'));
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await cluster?.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('waits answering 503 with Retry-After instead of exiting, and becomes ready once the database is up', {
    timeout: 60_000,
  }, async () => {
    const port = await freePort();
    const env: Record<string, string | undefined> = {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: cluster.url('riff'),
      LOG_LEVEL: 'info',
    };
    delete env.REDIS_URL;
    child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@riff/source', 'server/src/main.ts'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout?.on('data', (chunk) => output.push(String(chunk)));
    child.stderr?.on('data', (chunk) => output.push(String(chunk)));
    let exitCode: number | null | undefined;
    child.on('exit', (code) => (exitCode = code));
    const base = `http://127.0.0.1:${port}`;

    // it listens, says it waits for the database, and answers 503 meanwhile
    await waitFor('the server listening', 30_000, async () =>
      (await fetch(`${base}/healthz`)).status === 200 ? true : undefined,
    );
    await waitFor('the log saying it waits', 30_000, async () =>
      output.join('').includes('database unreachable') ? true : undefined,
    );
    for (const probe of ['/readyz', '/api/v1/users']) {
      const reply = await fetch(`${base}${probe}`);
      expect(reply.status).toBe(503);
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const body = await reply.json();
      expect(body.error.code).toBe('UNAVAILABLE');
      expect(reply.headers.get('x-request-id')).toBe(body.error.request_id);
    }
    expect(exitCode, output.join('')).toBeUndefined();

    await cluster.start();
    const startedAt = Date.now();
    await waitFor('ready once PostgreSQL is up', 15_000, async () =>
      (await fetch(`${base}/readyz`)).status === 200 ? true : undefined,
    );
    console.warn(`start-up without the database: ready ${Date.now() - startedAt} ms after PostgreSQL came up`);
    expect((await fetch(`${base}/api/v1/users`)).status).toBe(200);
    expect(exitCode).toBeUndefined();
  });
});
