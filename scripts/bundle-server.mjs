// @ts-check
/**
 * Bundles the server's entry points into server/dist (ES modules, Node 20), the contract's sources
 * included and every npm package left to Node. `npm start` and `npm run worker` run the bundle:
 * starting from TypeScript through tsx's loader took most of the start-up time.
 *
 * The bundle is rebuilt only when one of its inputs changed since it was made: every file esbuild
 * read (server, contract and migration sources, as its metafile lists them) and the files that steer
 * the build (this script, package.json files, package-lock.json, tsconfig files). Their content
 * digest is kept next to the bundle in server/dist/bundle-inputs.json, so a restart with nothing
 * changed is the server's own start-up. A new source file counts too: something that changed
 * imports it. `--force` rebuilds regardless.
 *
 * Plain JavaScript run by node itself: loading TypeScript through tsx cost more than the check.
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = 'server/dist';
const stampFile = path.join(root, outdir, 'bundle-inputs.json');
const entryPoints = {
  main: 'server/src/main.ts',
  worker: 'server/src/worker.ts',
  migrate: 'server/src/migrate.ts',
  'make-admin': 'server/src/scripts/make-admin.ts',
};
/** What steers the build without being a source esbuild reads (a missing one counts as empty). */
const BUILD_FILES = [
  'scripts/bundle-server.mjs',
  'package.json',
  'package-lock.json',
  'server/package.json',
  'contract/package.json',
  'tsconfig.json',
  'tsconfig.base.json',
];

/**
 * One digest over the files' paths and contents.
 * @param {string[]} files paths relative to the repository root
 */
function digest(files) {
  const hash = createHash('sha256');
  for (const file of [...new Set([...files, ...BUILD_FILES])].sort()) {
    const absolute = path.join(root, file);
    hash.update(`${file}\0`);
    hash.update(existsSync(absolute) ? readFileSync(absolute) : Buffer.from('\0missing\0'));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The stamp of the current bundle when it still matches its inputs and its entry files exist. */
function bundleIsCurrent() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return false;
  }
  if (!Array.isArray(stamp?.inputs) || typeof stamp.digest !== 'string') return false;
  if (!Object.keys(entryPoints).every((name) => existsSync(path.join(root, outdir, `${name}.js`)))) return false;
  return digest(stamp.inputs) === stamp.digest;
}

if (!process.argv.includes('--force') && bundleIsCurrent()) {
  console.log('server bundle is up to date (no input changed): not rebuilt');
} else {
  const started = performance.now();
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@riff/source'],
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'packages-stay-outside',
        setup(builder) {
          // bare imports are npm packages or Node's own modules, except the workspace's @riff/* sources
          builder.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@riff/') ? undefined : { external: true },
          );
        },
      },
    ],
  });
  // esbuild names its inputs relative to absWorkingDir; a plugin namespace prefix (ns:path) is not a file
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !/^[a-z-]+:/.test(input))
    .sort();
  writeFileSync(stampFile, `${JSON.stringify({ digest: digest(inputs), inputs }, null, 1)}\n`);
  console.log(`server bundle rebuilt in ${Math.round(performance.now() - started)} ms (${inputs.length} inputs)`);
}
