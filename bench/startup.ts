/**
 * Start-up to /readyz (issue 11: ≤ 2 s on an existing PGlite directory, ≤ 1 s on PostgreSQL).
 *
 * First `npm start` itself, prestart included, as a newcomer meets it: the first start (no bundle in
 * server/dist, a new data directory: it bundles, creates and migrates) and restarts (nothing changed:
 * prestart finds the bundle current). Then the bundle alone with `npm start`'s flags, on a data
 * directory that already exists: the server's own start-up. Each is timed from spawn to the first 200
 * of /readyz, polled every 5 ms. Prints each run and the medians.
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

const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-startup-'));
const npmDataDir = await mkdtemp(path.join(tmpdir(), 'riff-startup-npm-'));

/** Starts `npm start` (with its prestart) or the bundle as `npm start` runs it, and times it to /readyz. */
async function startOnce(
  port: number,
  how: 'npm' | 'bundle' = 'bundle',
  directory = dataDir,
): Promise<{ ms: number; child: ChildProcess }> {
  if (cold) {
    execFileSync('sync');
    await writeFile('/proc/sys/vm/drop_caches', '3');
  }
  const started = performance.now();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: directory, LOG_LEVEL: 'warn' };
  const child =
    how === 'npm'
      ? spawn('npm', ['start', '--silent'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] })
      : spawn(process.execPath, ['--enable-source-maps', 'server/dist/main.js'], {
          cwd: root,
          env,
          stdio: ['ignore', 'ignore', 'inherit'],
        });
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (reply) => reply.status,
      () => 0,
    );
    if (ready === 200) return { ms: performance.now() - started, child };
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (performance.now() - started > 300_000) {
      await stop(child);
      throw new Error('not ready within 300 s');
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

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const medianOf = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

try {
  const port = 18_000 + Math.floor(Math.random() * 1000);
  // npm start as a newcomer meets it: no bundle yet, a new data directory (or schema)
  await rm(path.join(root, 'server/dist'), { recursive: true, force: true });
  const first = await startOnce(port, 'npm', npmDataDir);
  console.log(`npm start, first start (bundles, creates the data directory): /readyz after ${seconds(first.ms)} s`);
  await stop(first.child);
  const restarts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { ms, child } = await startOnce(port, 'npm', npmDataDir);
    restarts.push(ms);
    console.log(`npm start, restart ${i + 1} (nothing changed): /readyz after ${seconds(ms)} s`);
    await stop(child);
  }
  console.log(`npm start: first start ${seconds(first.ms)} s, restart median ${seconds(medianOf(restarts))} s`);

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
  console.log(
    `${database}: median ${median.toFixed(2)} s (min ${(sorted[0]! / 1000).toFixed(2)}, max ${(sorted.at(-1)! / 1000).toFixed(2)}); goal ≤ ${goal} s: ${median <= goal ? 'met' : 'not met'}`,
  );
} finally {
  await rm(dataDir, { recursive: true, force: true });
  await rm(npmDataDir, { recursive: true, force: true });
}
