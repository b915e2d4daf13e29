import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** PG_BIN, else the newest PostgreSQL under /usr/lib/postgresql (Debian's layout; 15 on these machines). */
const PG_BIN =
  process.env.PG_BIN ??
  (existsSync('/usr/lib/postgresql')
    ? path.join(
        '/usr/lib/postgresql',
        readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))[0] ?? '15',
        'bin',
      )
    : '/usr/lib/postgresql/15/bin');

/** The fault suite needs real servers it may stop: it runs in CI's PostgreSQL + Redis pass only. */
export const faultSuiteEnabled = Boolean(process.env.DATABASE_URL);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it returns a value (not undefined) or the deadline passes. */
export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined>,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface PgCluster {
  port: number;
  url(database?: string): string;
  start(): Promise<void>;
  /** pg_ctl stop -m fast: sessions are ended (57P01), in-flight queries fail. */
  stop(): Promise<void>;
  createDatabase(name: string): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster (initdb in a temp dir, on a free loopback port) that a test may
 * stop and start without touching the shared server. initdb refuses root: as root it runs as `postgres`.
 */
export async function createPgCluster(): Promise<PgCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'riff-fault-pg-'));
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await chmod(dir, 0o700);
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, tool), ...args])
      : run(path.join(PG_BIN, tool), args);
  await pg('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=on -c full_page_writes=off -c max_connections=60`;
  const cluster: PgCluster = {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      await pg('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']);
    },
    async stop() {
      await pg('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '30', 'stop']);
    },
    async createDatabase(name) {
      await pg('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]);
    },
    async destroy() {
      await pg('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

export interface RedisInstance {
  port: number;
  url: string;
  start(): Promise<void>;
  /** SIGKILL: the connection drops without a goodbye. */
  kill(): Promise<void>;
  destroy(): Promise<void>;
}

/** A throwaway redis-server on a free loopback port, with no persistence. */
export async function createRedis(): Promise<RedisInstance> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const instance: RedisInstance = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      await waitFor('redis-server', 10_000, async () => {
        const { stdout } = await run('redis-cli', ['-p', String(port), 'ping']);
        return stdout.trim() === 'PONG' ? true : undefined;
      });
    },
    async kill() {
      const exiting =
        child && child.exitCode === null ? new Promise((resolve) => child!.once('exit', resolve)) : undefined;
      child?.kill('SIGKILL');
      await exiting;
      child = undefined;
    },
    async destroy() {
      await instance.kill();
    },
  };
  await instance.start();
  return instance;
}

/** Open file descriptors of this process. */
export async function openFdCount(pid: number | 'self' = 'self'): Promise<number> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(`/proc/${pid}/fd`)).length;
}

const repositoryRoot = path.resolve(import.meta.dirname, '../..');

/** Every file under `dir`, as paths relative to it (none when it does not exist). */
export async function filesUnder(dir: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/**
 * A Riff server in a process of its own (`server/src/main.ts` through tsx) on `port`, with `env`
 * over this process's environment, once /readyz answers 200; it joins `children`, for the test to
 * kill what is left at its end. `output` holds what it printed, `exited` its signal or exit code.
 */
export async function startServerProcess(port: number, env: Record<string, string>, children: ChildProcess[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@riff/source', 'server/src/main.ts'], {
    cwd: repositoryRoot,
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output: string[] = [];
  child.stdout?.on('data', (data) => output.push(String(data)));
  child.stderr?.on('data', (data) => output.push(String(data)));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(
    'the server ready',
    60_000,
    async () => ((await fetch(`${baseUrl}/readyz`)).status === 200 ? true : undefined),
    100,
  );
  return { child, baseUrl, output, exited };
}
