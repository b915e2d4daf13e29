/**
 * What a frontend installs: `npm pack` of @riff/contract and @riff/client, installed from the
 * tarballs in a fresh folder outside the repository, and a small app type-checked with tsc against
 * the published declarations. The app compiles (typed inputs, replies by status, error codes as
 * ErrorCode), a wrong use does not, and the check stays small (files, lines and memory measured).
 *
 * Slow by nature (npm install from the registry, tsc): about 20 s on a quiet machine. It packs the
 * built dist as it is; it builds first only when the sources are newer than dist (CI builds before
 * the tests).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, (await stat(path.join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

/** Builds the two packages when a source is newer than what their dist holds. */
async function ensureBuilt() {
  const built = await stat(path.join(root, 'client/dist/contract-types.d.ts')).then(
    (file) => file.mtimeMs,
    () => 0,
  );
  const contractBuilt = await stat(path.join(root, 'contract/dist/index.js')).then(
    (file) => file.mtimeMs,
    () => 0,
  );
  const sources = Math.max(
    await newestMtime(path.join(root, 'contract/src')),
    await newestMtime(path.join(root, 'client/src')),
    await newestMtime(path.join(root, 'client/scripts')),
  );
  if (built > sources && contractBuilt > sources) return;
  await run('npm', ['run', 'build', '-w', '@riff/contract', '-w', '@riff/client'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
}

const APP = `
import {
  createRiffClient,
  memoryTokenStore,
  parseLiveMessage,
  type ErrorCode,
  type LiveServerMessage,
  type Track,
} from '@riff/client';

const riff = createRiffClient({ baseUrl: 'https://api.example.com', tokens: memoryTokenStore() });

export async function showTrack(id: string): Promise<Track | ErrorCode> {
  const reply = await riff.tracks.get({ params: { id } });
  if (reply.status === 200) return reply.body.data.track;
  if (reply.body.error.code === 'NOT_FOUND') return 'NOT_FOUND';
  return reply.body.error.code;
}

export async function upload(file: Blob) {
  const created = await riff.tracks.upload({ body: { file, title: 'Night Drive', is_public: 'false' } });
  return created.status === 201 ? created.body.data.track.id : created.body.error.message;
}

export async function firstPage() {
  const page = await riff.tracks.list({ query: { page: 1, limit: 20, order: 'desc' } });
  if (page.status !== 200) return [];
  return page.body.data.tracks.map((track) => track.title);
}

export async function signIn(email: string, password: string) {
  const login = await riff.login({ email, password, remember_me: true });
  if (login.status === 200 && login.body.requires_2fa) return login.body.two_factor_token;
  return login.status;
}

export function onFrame(text: string): LiveServerMessage['type'] | undefined {
  return parseLiveMessage(text)?.type;
}
`;

/** Wrong uses, each of which must fail to compile. */
const WRONG = `
import { createRiffClient } from '@riff/client';

const riff = createRiffClient({ baseUrl: 'https://api.example.com' });

export async function wrong() {
  const reply = await riff.tracks.get({ params: { id: 'x' } });
  if (reply.status !== 200 && reply.body.error.code === 'NO_SUCH_CODE') return 1;
  await riff.tracks.get({ params: {} });
  await riff.tracks.list({ query: { order: 'sideways' } });
  if (reply.status === 200) return reply.body.data.track.no_such_field;
  return 0;
}
`;

let folder: string | undefined;
afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('the packed client in a fresh app', () => {
  it('installs from its tarballs and type-checks an app, small and strict', { timeout: 600_000 }, async () => {
    await ensureBuilt();
    folder = await mkdtemp(path.join(tmpdir(), 'riff-client-app-'));
    const packed = await run(
      'npm',
      [
        'pack',
        '--ignore-scripts',
        '--json',
        '-w',
        '@riff/contract',
        '-w',
        '@riff/client',
        '--pack-destination',
        folder,
      ],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
    );
    const tarballs = (JSON.parse(packed.stdout) as { filename: string }[]).map((entry) => entry.filename);
    expect(tarballs).toHaveLength(2);

    const app = path.join(folder, 'app');
    await run('mkdir', ['-p', path.join(app, 'src')]);
    await writeFile(
      path.join(app, 'package.json'),
      JSON.stringify({ name: 'riff-client-app', private: true, type: 'module' }),
    );
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        ...tarballs.map((file) => path.join(folder!, path.basename(file))),
      ],
      { cwd: app, maxBuffer: 64 * 1024 * 1024 },
    );
    await writeFile(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          types: [],
          // the published declarations themselves are checked too
          skipLibCheck: false,
        },
        include: ['src'],
      }),
    );
    await writeFile(path.join(app, 'src/app.ts'), APP);

    // what the client publishes: no declaration of @riff/contract is reached from it
    const published = path.join(app, 'node_modules/@riff/client/dist');
    const declarations = (await readdir(published)).filter((name) => name.endsWith('.d.ts'));
    let declarationBytes = 0;
    for (const name of declarations) {
      const text = await readFile(path.join(published, name), 'utf8');
      declarationBytes += Buffer.byteLength(text);
      expect(text, name).not.toMatch(/@riff\/contract|@ts-rest/);
    }

    const checked = await run(process.execPath, [tsc, '-p', '.', '--extendedDiagnostics'], { cwd: app });
    const figure = (label: string) => Number(new RegExp(`^${label}:\\s+(\\d+)`, 'm').exec(checked.stdout)?.[1]);
    const figures = {
      declarationBytes,
      declarationFiles: declarations.length,
      filesLoaded: figure('Files'),
      linesLoaded: ['Library', 'Definitions', 'TypeScript', 'JavaScript', 'JSON']
        .map((kind) => figure(`Lines of ${kind}`) || 0)
        .reduce((sum, lines) => sum + lines, 0),
      memoryKb: Number(/^Memory used:\s+(\d+)K/m.exec(checked.stdout)?.[1]),
      checkSeconds: Number(/^Total time:\s+([\d.]+)s/m.exec(checked.stdout)?.[1]),
    };
    console.warn('packed @riff/client, a small app type-checked:', JSON.stringify(figures));
    // before: 11,397,488 bytes of declarations, 149 files, 270,975 lines, 1.53 GB of memory
    expect(declarationBytes).toBeLessThan(400_000);
    expect(figures.filesLoaded).toBeLessThan(120);
    expect(figures.memoryKb).toBeLessThan(400_000);

    // each wrong use is a compile error: an error code that does not exist, a missing path
    // parameter, a query value outside its enum, a field a track does not have
    await writeFile(path.join(app, 'src/wrong.ts'), WRONG);
    const failed = await run(process.execPath, [tsc, '-p', '.'], { cwd: app }).then(
      () => undefined,
      (error: { stdout: string }) => error.stdout,
    );
    expect(failed).toBeDefined();
    const errors = failed!.split('\n').filter((line) => line.startsWith('src/wrong.ts'));
    expect(errors.join('\n')).toMatch(
      /TS2367: This comparison appears to be unintentional because the types 'ErrorCode' and '"NO_SUCH_CODE"'/,
    );
    expect(errors.join('\n')).toMatch(/TS2741: Property 'id' is missing/);
    expect(errors.join('\n')).toMatch(/TS2322: Type '"sideways"' is not assignable/);
    expect(errors.join('\n')).toMatch(/TS2339: Property 'no_such_field' does not exist/);
    expect(errors).toHaveLength(4);
    expect(failed!.split('\n').filter((line) => /^src\/app\.ts|node_modules/.test(line))).toEqual([]);
  });
});
