/**
 * Start-up to /readyz (issue 11: ≤ 2 s on an existing PGlite directory, ≤ 1 s on PostgreSQL).
 *
 * Runs `npm start`'s bundle with its flags, exactly as `npm start` does after its prestart build, on a
 * data directory that already exists (the first start, which creates and migrates it, is not counted),
 * and times from spawn to the first 200 of /readyz, polled every 5 ms. Prints each run and the median.
 *
 *   npm run bench:startup [-- --runs=N]         embedded (PGlite)
 *   DATABASE_URL=… npm run bench:startup        PostgreSQL
 *   … -- --cold                                  the file cache emptied before each start (root only)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv.find((arg) => arg.startsWith('--runs='))?.slice(7) ?? 5);
const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
// --cold: empty the kernel's file cache before each start (needs root), as after a reboot
const cold = process.argv.includes('--cold');

execFileSync(process.execPath, ['--import', 'tsx', 'scripts/bundle-server.ts'], { cwd: root, stdio: 'inherit' });
const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-startup-'));

async function startOnce(port: number): Promise<{ ms: number; child: ChildProcess }> {
  if (cold) {
    execFileSync('sync');
    await writeFile('/proc/sys/vm/drop_caches', '3');
  }
  const started = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', 'server/dist/main.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((reply) => reply.status, () => 0);
    if (ready === 200) return { ms: performance.now() - started, child };
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (performance.now() - started > 60_000) {
      await stop(child);
      throw new Error('not ready within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

try {
  const port = 18_000 + Math.floor(Math.random() * 1000);
  // the first start creates and migrates the data directory (or the schema): not what is measured
  await stop((await startOnce(port)).child);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { ms, child } = await startOnce(port);
    times.push(ms);
    console.log(`start ${i + 1}: /readyz after ${(ms / 1000).toFixed(2)} s`);
    await stop(child);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const goal = database === 'PGlite' ? 2 : 1;
  const median = sorted[Math.floor(sorted.length / 2)]! / 1000;
  console.log(`${database}: median ${median.toFixed(2)} s (min ${(sorted[0]! / 1000).toFixed(2)}, max ${(sorted.at(-1)! / 1000).toFixed(2)}); goal ≤ ${goal} s: ${median <= goal ? 'met' : 'not met'}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
