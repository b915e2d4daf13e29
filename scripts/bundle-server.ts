/**
 * Bundles the server's entry points into server/dist (ES modules, Node 20), the contract's sources
 * included and every npm package left to Node. `npm start` and `npm run worker` run the bundle:
 * starting from TypeScript through tsx's loader took most of the start-up time (issue 11).
 */
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'server/src/main.ts',
    worker: 'server/src/worker.ts',
    migrate: 'server/src/migrate.ts',
    'make-admin': 'server/src/scripts/make-admin.ts',
  },
  outdir: 'server/dist',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@riff/source'],
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'packages-stay-outside',
      setup(builder) {
        // bare imports are npm packages or Node's own modules, except the workspace's @riff/* sources
        builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@riff/') ? undefined : { external: true }));
      },
    },
  ],
});
