/**
 * `npm start` (and `npm run worker`) bundle the server first, but only when a source changed since
 * the last bundle: a restart with nothing changed is the server's own start-up. Run on a copy of
 * the repository's sources (the real node_modules linked in), so touching a source changes nothing
 * here.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
let copy: string;

beforeAll(async () => {
  copy = await mkdtemp(path.join(tmpdir(), 'riff-start-bundle-'));
  for (const part of [
    'server/src',
    'server/package.json',
    'contract/src',
    'contract/package.json',
    'migrations',
    'scripts',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.base.json',
  ]) {
    await cp(path.join(root, part), path.join(copy, part), { recursive: true });
  }
  await symlink(path.join(root, 'server/node_modules'), path.join(copy, 'server/node_modules'));
  // every installed package but the workspace's own, which point at the copy's sources
  await mkdir(path.join(copy, 'node_modules/@riff'), { recursive: true });
  for (const name of await readdir(path.join(root, 'node_modules'))) {
    if (name !== '@riff') await symlink(path.join(root, 'node_modules', name), path.join(copy, 'node_modules', name));
  }
  for (const name of ['contract', 'server'])
    await symlink(path.join(copy, name), path.join(copy, 'node_modules/@riff', name));
});
afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `npm start` in the copy until /healthz answers, then SIGTERM; what it printed. */
async function npmStart(): Promise<string> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-start-bundle-data-'));
  const environment: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  delete environment.DATABASE_URL;
  delete environment.REDIS_URL;
  const child = spawn('npm', ['start'], { cwd: copy, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    for (const started = Date.now(); ; ) {
      const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (reply) => reply.status,
        () => 0,
      );
      if (status === 200) break;
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}: ${output}`);
      if (Date.now() - started > 120_000) throw new Error(`npm start did not answer /healthz: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
  return output;
}

const bundleTime = async () => (await stat(path.join(copy, 'server/dist/main.js'))).mtimeMs;

describe('npm start', { timeout: 300_000 }, () => {
  it('bundles on the first start, not again on a restart with nothing changed', async () => {
    expect(await npmStart()).toContain('server bundle rebuilt');
    const built = await bundleTime();
    const second = await npmStart();
    expect(second).toContain('server bundle is up to date');
    expect(second).not.toContain('server bundle rebuilt');
    expect(await bundleTime()).toBe(built);
  });

  it('bundles again once a source changed, and the new bundle holds the change', async () => {
    const built = await bundleTime();
    const file = path.join(copy, 'server/src/platform/http/boot-app.ts');
    const source = await readFile(file, 'utf8');
    expect(source).toContain("res.json({ status: 'ok' })");
    await writeFile(file, source.replace("res.json({ status: 'ok' })", "res.json({ status: 'ok', edited: true })"));
    const output = await npmStart();
    expect(output).toContain('server bundle rebuilt');
    expect(await bundleTime()).toBeGreaterThan(built);
    expect(await readFile(path.join(copy, 'server/dist/main.js'), 'utf8')).toContain('edited: true');
  });

  it('bundles again when a dependency changed (package-lock.json)', async () => {
    const lock = path.join(copy, 'package-lock.json');
    await writeFile(lock, `${await readFile(lock, 'utf8')}\n`);
    const output = await npmStart();
    expect(output).toContain('server bundle rebuilt');
  });
});
