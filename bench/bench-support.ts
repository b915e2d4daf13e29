import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, readdir, readFile, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import autocannon from 'autocannon';
import { wavHeader } from '../tests/support/audio.js';

export const root = path.resolve(import.meta.dirname, '..');
export const MiB = 1024 * 1024;

export interface Child {
  process: ChildProcess;
  baseUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Peak and current resident memory of a process, from /proc (bytes). */
export async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

async function spawnServer(args: string[], port: number, dataDir: string, env: Record<string, string>): Promise<Child> {
  // BENCH_CPU_PROF=<folder>: each server writes a V8 CPU profile there when it stops
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, ...args], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // /readyz: /healthz answers while the database is still opening
  await waitFor(`http://127.0.0.1:${port}/readyz`);
  return {
    process: child,
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

export async function startRiff(port: number, env: Record<string, string> = {}): Promise<Child> {
  // a DATA_DIR given (a seeded embedded database) is where the server writes its mail too
  const dataDir = env.DATA_DIR ?? (await mkdtemp(path.join(tmpdir(), 'riff-bench-')));
  return spawnServer(['--import', 'tsx', '--conditions=@riff/source', 'server/src/main.ts'], port, dataDir, {
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...env,
  });
}

/** A bare Node server doing the same I/O, for the baseline (bench/bare-server.ts); `env` names its file and seed rows. */
export function startBare(port: number, dataDir: string, env: Record<string, string> = {}): Promise<Child> {
  return spawnServer(
    ['--import', 'tsx', '--conditions=@riff/source', path.join(root, 'bench', 'bare-server.ts')],
    port,
    dataDir,
    env,
  );
}

export interface BenchUser {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

/** Registers, verifies (through the outbox) and logs in a user; answers the access token. */
export async function signIn(riff: Child): Promise<string> {
  return (await signInUser(riff)).accessToken;
}

/** Registers, verifies (through the outbox) and logs in a new user: its id and tokens. */
export async function signInUser(riff: Child): Promise<BenchUser> {
  const email = `bench-${randomUUID().slice(0, 12)}@example.test`;
  const password = 'benchmark password 1';
  const post = (pathname: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${riff.baseUrl}/api/v1${pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const registered = await post('/auth/register', { email, password, password_confirmation: password });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${await registered.text()}`);
  const id: string = (await registered.json()).user.id;
  const outbox = path.join(riff.dataDir, 'mail');
  let token: string | undefined;
  // up to 30 s: on a busy machine the mail job may wait its turn
  for (let i = 0; i < 600 && !token; i++) {
    for (const name of (await readdir(outbox).catch(() => [])).filter((entry) => !entry.startsWith('.'))) {
      const mail = JSON.parse(await readFile(path.join(outbox, name), 'utf8'));
      if (mail.to === email) token = decodeURIComponent(/token=([^\s&]+)/.exec(mail.text)![1]!);
    }
    if (!token) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!token) throw new Error(`no verification mail to ${email}`);
  await fetch(`${riff.baseUrl}/api/v1/auth/verify-email`, { method: 'POST', headers: { 'x-verify-token': token } });
  return { id, email, password, ...(await logIn(riff, email, password)) };
}

/** Logs an account in again (an access token lasts 15 minutes): its new tokens. */
export async function logIn(
  riff: Child,
  email: string,
  password: string,
): Promise<{ accessToken: string; refreshToken: string }> {
  const login = await fetch(`${riff.baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  const { token: tokens } = await login.json();
  return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
}

/** A WAV file of `bytes` bytes (44-byte header, silent PCM), written without holding it in memory. */
export async function makeWav(file: string, bytes: number): Promise<void> {
  const handle = await open(file, 'w');
  const header = wavHeader(bytes);
  await handle.write(header);
  const block = Buffer.alloc(MiB, 0);
  let written = 44;
  while (written < bytes) {
    const size = Math.min(block.length, bytes - written);
    await handle.write(block, 0, size);
    written += size;
  }
  await handle.close();
}

/** A streamed multipart body: fields, then the file part read from disk. */
export function multipartBody(
  fields: Record<string, string>,
  fileField: string,
  file: string,
  range?: { start: number; end: number },
) {
  const boundary = `----riffbench${Date.now()}`;
  const head =
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="bench.wav"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  async function* parts() {
    yield Buffer.from(head);
    yield* createReadStream(file, range ?? {});
    yield Buffer.from(tail);
  }
  return {
    body: Readable.toWeb(Readable.from(parts())) as ReadableStream,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export async function sizeOf(file: string) {
  return (await stat(file)).size;
}

/**
 * Runs `work` while sampling the process's resident memory every 20 ms: answers the largest rise
 * above the RSS at the start (VmHWM alone would hide it under an earlier peak).
 */
export async function measure<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; seconds: number; rssBefore: number; rssPeak: number; growth: number }> {
  const rssBefore = (await memoryOf(pid)).rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    memoryOf(pid).then(
      (memory) => (rssPeak = Math.max(rssPeak, memory.rss)),
      () => undefined,
    );
  }, 20);
  const started = performance.now();
  try {
    const result = await work();
    const seconds = (performance.now() - started) / 1000;
    return { result, seconds, rssBefore, rssPeak, growth: rssPeak - rssBefore };
  } finally {
    clearInterval(sampler);
  }
}

/** The machine's load averages (1, 5, 15 min), for a figure's context. */
export const loadAverages = (): string =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

/** Seconds since `since` (performance.now()), as printed. */
export const secondsSince = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * Every latency of GET `url`, `connections` at once for `seconds` after 1 s not counted, and the
 * requests per second; a reply other than 200 stops the bench.
 */
export async function latenciesOf(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<{ latencies: number[]; rps: number }> {
  const latencies: number[] = [];
  const base = { url, connections: options.connections, ...(options.headers ? { headers: options.headers } : {}) };
  await autocannon({ ...base, duration: 1 });
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ ...base, duration: options.seconds }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client, status, _bytes, time) => {
      if (status !== 200) reject(new Error(`${url}: ${status}`));
      latencies.push(time);
    });
  });
  return { latencies, rps: result.requests.average };
}
