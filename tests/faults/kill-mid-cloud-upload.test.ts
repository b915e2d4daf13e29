/**
 * kill -9 while a cloud file is being written: the process dies with part of the file on disk. A new
 * process shows no file, and the cleanup, once the upload's intent is a day old, removes what the
 * dead one wrote. It runs on its own PostgreSQL cluster: the cleanup is run 25 hours ahead, which on
 * the shared database would sweep other test files' uploads under way.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRiff } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/platform/config/config.js';
import { signedInOverHttp } from '../support/accounts.js';
import { api } from '../support/http.js';
import { runJob } from '../support/jobs.js';
import {
  createPgCluster,
  faultSuiteEnabled,
  filesUnder,
  freePort,
  startServerProcess,
  waitFor,
  type PgCluster,
} from './fault-services.js';

describe.skipIf(!faultSuiteEnabled)('kill -9 in the middle of a cloud upload', () => {
  let dataDir: string;
  let cluster: PgCluster;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    cluster = await createPgCluster();
    await cluster.createDatabase('riff');
    dataDir = await mkdtemp(path.join(tmpdir(), 'riff-fault-cloud-'));
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await cluster?.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  const startServer = (port: number) =>
    startServerProcess(
      port,
      {
        DATA_DIR: dataDir,
        DATABASE_URL: cluster.url('riff'),
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '1000000',
      },
      children,
    );

  it('leaves no file, and the cleanup removes what the dead process wrote', { timeout: 180_000 }, async () => {
    const port = await freePort();
    const first = await startServer(port);
    const user = await signedInOverHttp({ baseUrl: first.baseUrl, outboxDir: path.join(dataDir, 'mail') });
    const cloudDir = path.join(dataDir, 'files', 'cloud');

    const boundary = 'riffkillmidcloud';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n';
    const size = 4 * 1024 * 1024;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    socket.write(
      `POST /api/v1/cloud/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${user.accessToken}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${Buffer.byteLength(head) + size + 100}\r\n\r\n${head}`,
    );
    socket.write(Buffer.alloc(size / 2, 7));
    // the server is writing the file
    const writing = await waitFor('the file being written', 30_000, async () => {
      const files = await filesUnder(cloudDir);
      return files.length > 0 ? files : undefined;
    });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    socket.destroy();
    expect(writing).toHaveLength(1);

    const second = await startServer(await freePort());
    const root = await api(second.baseUrl).get('/cloud/root', { token: user.accessToken });
    expect(root.status).toBe(200);
    expect(root.body.data.files).toEqual([]);
    second.child.kill('SIGTERM');
    await second.exited;
    // what the dead process wrote outlives the restart (its intent is younger than a day) ...
    expect(await filesUnder(cloudDir)).toEqual(writing);

    // ... until the cleanup runs past the intent's 24 hours
    const later = new Date(Date.now() + 25 * 60 * 60 * 1000);
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: cluster.url('riff'),
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
    });
    const riff = await createRiff(config, { clock: { now: () => later } });
    try {
      const swept = await runJob<{ objects: number }>({ riff }, 'cloud.cleanup');
      expect(swept.objects).toBe(1);
    } finally {
      await riff.jobs.stop(5000);
      await riff.close();
    }
    expect(await filesUnder(cloudDir)).toEqual([]);
  });
});
