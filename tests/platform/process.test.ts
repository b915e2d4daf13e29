import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signedInOverHttp } from '../support/accounts.js';
import { wavHeader } from '../support/audio.js';

const root = path.resolve(import.meta.dirname, '../..');
let child: ChildProcess | undefined;
let dataDir: string | undefined;
/** The server started by `npm start`, killed after a failed test so it cannot outlive the run. */
let serverPid: number | undefined;

afterEach(async () => {
  child?.kill('SIGKILL');
  child = undefined;
  if (serverPid && isRunning(serverPid)) process.kill(serverPid, 'SIGKILL');
  serverPid = undefined;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function start(port: number, env: Record<string, string> = {}) {
  dataDir = await mkdtemp(path.join(tmpdir(), 'riff-process-'));
  const output: string[] = [];
  const environment: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...env,
  };
  if (!env.DATABASE_URL) delete environment.DATABASE_URL;
  if (!env.REDIS_URL) delete environment.REDIS_URL;
  child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@riff/source', 'server/src/main.ts'], {
    cwd: root,
    env: environment,
  });
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
  return { output, exited };
}

async function waitForHealth(port: number, timeoutMs: number, probe = '/healthz'): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const reply = await fetch(`http://127.0.0.1:${port}${probe}`);
      if (reply.status === 200) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('server did not answer /healthz');
}

describe('the server process', () => {
  // The 10-second start budget is checked on a quiet machine by scripts/smoke-start.sh in CI; here the
  // suite runs alongside other test files, so only the behaviour is asserted.
  it('starts on the embedded defaults, answers /healthz and /docs, and logs its URL', async () => {
    const port = 18_000 + Math.floor(Math.random() * 1000);
    const { output } = await start(port);
    await waitForHealth(port, 30_000);
    expect((await fetch(`http://127.0.0.1:${port}/docs`)).status).toBe(200);
    // while the database opens, readiness and the API answer 503 UNAVAILABLE; then they serve
    const seen = new Set<number>();
    for (let i = 0; i < 600; i++) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      seen.add(ready.status);
      if (ready.status === 200) break;
      expect(ready.status).toBe(503);
      expect((await ready.json()).error.code).toBe('UNAVAILABLE');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen.has(200)).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/users`)).status).toBe(200);
    expect(output.join('')).toContain(`http://127.0.0.1:${port}`);
  });

  it('refuses a bad configuration value by name and exits non-zero', async () => {
    const { output, exited } = await start(19_999, { LOG_LEVEL: 'loud' });
    expect(await exited).toBe(1);
    expect(output.join('')).toContain('LOG_LEVEL');
  });

  it('on SIGTERM stops accepting, finishes the request in flight, then exits 0', async () => {
    const port = 19_000 + Math.floor(Math.random() * 900);
    const { exited } = await start(port);
    await waitForHealth(port, 30_000, '/readyz');

    // a request whose body is still arriving when the signal comes
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    const body = JSON.stringify({ email: 'nobody@example.test' });
    socket.write(
      `POST /api/v1/auth/resend-verification HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    const reply = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += String(chunk)));
      socket.on('close', () => resolve(text));
      socket.on('end', () => resolve(text));
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    child!.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));

    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    socket.end(body.slice(5));
    expect(await reply).toMatch(/^HTTP\/1\.1 200 OK/);
    const stoppedAt = Date.now();
    expect(await exited).toBe(0);
    // it did not sit out the 10 s shutdown timeout
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
  });

  it('SIGTERM during an upload the client stalls: the server exits 0 and leaves no partial file or folder', async () => {
    const port = 19_000 + Math.floor(Math.random() * 900);
    const { exited } = await start(port, { SHUTDOWN_TIMEOUT_MS: '300', LOG_LEVEL: 'warn' });
    await waitForHealth(port, 30_000, '/readyz');
    const baseUrl = `http://127.0.0.1:${port}`;
    const user = await signedInOverHttp({ baseUrl, outboxDir: path.join(dataDir!, 'mail') });

    const total = 25 * 1024 * 1024;
    const boundary = 'riffsigterm';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="long.wav"\r\n\r\n`;
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST /api/v1/tracks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${user.accessToken}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + total + 100}\r\n\r\n${head}`,
    );
    socket.write(Buffer.concat([wavHeader(total), Buffer.alloc(256 * 1024)]));
    // the upload is being written when the signal comes
    const partials = async () =>
      (await readdir(path.join(dataDir!, 'files'), { recursive: true }).catch(() => [] as string[])).filter((name) =>
        String(name).includes('partial'),
      );
    for (let i = 0; i < 200 && (await partials()).length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await partials()).toHaveLength(1);

    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
    await closed;
    const left = await readdir(path.join(dataDir!, 'files'), { recursive: true, withFileTypes: true }).catch(() => []);
    expect(left.filter((entry) => entry.isFile()).map((entry) => entry.name)).toEqual([]);
    expect(
      left.filter((entry) => entry.isDirectory() && /^[0-9a-f-]{36}$/.test(entry.name)).map((entry) => entry.name),
    ).toEqual([]);
  });

  // A process manager or a terminal's Ctrl-C signals the npm process, not the server it started.
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to the `npm start` process stops the server: the port closes and no process is left',
    async (signal) => {
      const port = await freePort();
      dataDir = await mkdtemp(path.join(tmpdir(), 'riff-npm-start-'));
      const environment: Record<string, string | undefined> = {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
      };
      delete environment.DATABASE_URL;
      delete environment.REDIS_URL;
      const npm = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['start'], { cwd: root, env: environment });
      child = npm;
      let output = '';
      npm.stdout?.on('data', (chunk) => (output += String(chunk)));
      npm.stderr?.on('data', (chunk) => (output += String(chunk)));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        npm.on('exit', (code, sig) => resolve({ code, signal: sig })),
      );
      await waitForHealth(port, 60_000, '/readyz');
      // pino puts the server's pid on every line; the one that says where it listens is written once ready
      const listening = output.split('\n').find((line) => line.includes(`http://127.0.0.1:${port}`));
      serverPid = Number(JSON.parse(listening!).pid);
      expect(serverPid).toBeGreaterThan(0);
      expect(serverPid).not.toBe(npm.pid);

      npm.kill(signal);
      const { code } = await exited;
      expect(code).toBe(0);
      expect(output).toContain('"msg":"stopped"');
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
      expect(isRunning(serverPid)).toBe(false);
    },
    90_000,
  );
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
