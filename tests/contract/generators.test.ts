/**
 * openapi.json as a third-party integrator uses it: clients generated from the committed document
 * by openapi-typescript (+ openapi-fetch), @hey-api/openapi-ts, openapi-zod-client (Zodios) and
 * orval (fetch client + zod schemas) typecheck a short script each (tests/contract/third-party/)
 * under `tsc --strict` without casts, and the scripts run green against the real server (through
 * the Prism gate, so their requests are checked too). A change of the contract that breaks one of
 * these generators fails here.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from '@hey-api/openapi-ts';
import { getHandlebars, getZodClientTemplateContext } from 'openapi-zod-client';
import openapiTS, { astToString } from 'openapi-typescript';
import { generate as orval } from 'orval';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentWav } from '../support/audio.js';
import { newIdentity } from '../support/accounts.js';
import { tokenFromMail, waitForMail } from '../support/mail.js';
import { OPENAPI_DOCUMENT } from '../support/prism.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import type { ScriptInput, ScriptReport } from './third-party/script-types.js';

const exec = promisify(execFile);
const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('../../', import.meta.url));
const scripts = fileURLToPath(new URL('./third-party/', import.meta.url));
/** Inside the repository (git-ignored) so the generated code resolves openapi-fetch from node_modules. */
const project = path.join(root, '.tmp', `generators-${process.pid}-${randomUUID().slice(0, 8)}`);

const SCRIPTS = {
  'openapi-fetch': 'openapi-fetch.script.ts',
  'hey-api': 'hey-api.script.ts',
  'openapi-zod-client': 'zodios.script.ts',
  orval: 'orval.script.ts',
} as const;
/** The orval fetch client's hook (orval-fetch.ts) is the one place a cast belongs: it returns the type the generated code names. */
const CHECKED_FOR_CASTS = [...Object.values(SCRIPTS), 'script-types.ts'];

/**
 * openapi-typescript types `format: binary` as string unless told otherwise; its documentation's
 * recipe for file uploads maps it to Blob (https://openapi-ts.dev/node#example-blob-types).
 */
async function generateOpenapiTypescript(): Promise<void> {
  const blob = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
  const ast = await openapiTS(pathToFileURL(OPENAPI_DOCUMENT), {
    transform: (schema) => (schema.format === 'binary' ? blob : undefined),
  });
  await mkdir(path.join(project, 'openapi-typescript'), { recursive: true });
  await writeFile(path.join(project, 'openapi-typescript', 'schema.ts'), astToString(ast));
}

async function generateHeyApi(): Promise<void> {
  await createClient({
    input: OPENAPI_DOCUMENT,
    output: { path: path.join(project, 'hey-api'), postProcess: [] },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent' },
  });
}

/**
 * openapi-zod-client's own template, rendered without its Prettier pass (formatting 400 kB of code
 * is most of its time, and tsc does not care).
 */
async function generateOpenapiZodClient(): Promise<void> {
  const document = JSON.parse(await readFile(OPENAPI_DOCUMENT, 'utf8')) as Parameters<
    typeof getZodClientTemplateContext
  >[0];
  const options = { withAlias: true, apiClientName: 'api' };
  const template = await readFile(
    path.join(path.dirname(require.resolve('openapi-zod-client/package.json')), 'src/templates/default.hbs'),
    'utf8',
  );
  const source = getHandlebars().compile(template)({ ...getZodClientTemplateContext(document, options), options });
  await mkdir(path.join(project, 'openapi-zod-client'), { recursive: true });
  await writeFile(path.join(project, 'openapi-zod-client', 'client.ts'), source);
}

/** orval's fetch client (its base URL through the documented mutator hook) and its zod schemas. */
async function generateOrval(): Promise<void> {
  const input = { target: OPENAPI_DOCUMENT };
  const mutator = { path: path.join(project, 'orval-fetch.ts'), name: 'customFetch' };
  await orval({
    input,
    output: {
      target: path.join(project, 'orval', 'client.ts'),
      client: 'fetch',
      mode: 'single',
      override: { mutator },
    },
  });
  await orval({ input, output: { target: path.join(project, 'orval', 'zod.ts'), client: 'zod', mode: 'single' } });
}

/** A small frontend-like project: the scripts, the generated code, `tsc --strict` and nothing of Riff. */
async function writeProject(): Promise<void> {
  await mkdir(project, { recursive: true });
  for (const file of await readdir(scripts)) await copyFile(path.join(scripts, file), path.join(project, file));
  const compilerOptions = {
    strict: true,
    target: 'ES2022',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    // as a frontend's bundler resolves them: orval imports its fetch hook without an extension
    module: 'ESNext',
    moduleResolution: 'Bundler',
    types: [],
    noEmit: true,
    isolatedModules: true,
    skipLibCheck: true,
  };
  // one project per script, checked side by side (the Zodios client alone is a long check)
  for (const [name, file] of Object.entries(SCRIPTS)) {
    await writeFile(
      path.join(project, `tsconfig.${name}.json`),
      JSON.stringify({ compilerOptions, files: [file] }, null, 2),
    );
  }
}

let server: TestServer;
let generated: Promise<void>;

beforeAll(async () => {
  await writeProject();
  // one generation per run, made while the server starts
  generated = Promise.all([
    generateOpenapiTypescript(),
    generateHeyApi(),
    generateOpenapiZodClient(),
    generateOrval(),
  ]).then(() => undefined);
  generated.catch(() => undefined);
  server = await startTestServer();
  await generated;
}, 180_000);

afterAll(async () => {
  await server?.close();
  await rm(project, { recursive: true, force: true });
});

describe('clients generated from openapi.json', () => {
  it('typecheck the scripts under --strict', async () => {
    const tsc = require.resolve('typescript/bin/tsc');
    const check = async (name: string) => {
      const result = await exec(process.execPath, [tsc, '-p', path.join(project, `tsconfig.${name}.json`)], {
        cwd: project,
      }).catch((error: { stdout?: string; stderr?: string }) => error);
      return [name, `${result.stdout ?? ''}${result.stderr ?? ''}`] as const;
    };
    const outputs = Object.fromEntries(await Promise.all(Object.keys(SCRIPTS).map(check)));
    expect(outputs).toEqual(Object.fromEntries(Object.keys(SCRIPTS).map((name) => [name, ''])));
  }, 400_000);

  it('are used without casts or any', async () => {
    for (const file of CHECKED_FOR_CASTS) {
      const source = await readFile(path.join(scripts, file), 'utf8');
      const code = source.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
      expect(code, file).not.toMatch(/\bas\s+(?!const\b)[A-Za-z{[(]|<[A-Z]\w*>\s*\w|\bany\b|[\w)\]]!\./);
    }
  });

  it.each(Object.entries(SCRIPTS))(
    '%s: register, log in, upload, read, stream a range and read an error reply',
    async (_name, file) => {
      const { run } = (await import(pathToFileURL(path.join(project, file)).href)) as {
        run: (input: ScriptInput) => Promise<ScriptReport>;
      };
      const audio = silentWav(64 * 1024);
      const report = await run({
        baseUrl: server.baseUrl,
        account: newIdentity(),
        audio: new Blob([audio], { type: 'audio/wav' }),
        verificationToken: async (email) => tokenFromMail(await waitForMail(server.outboxDir, email, 'verify-email')),
      });
      expect(report).toEqual({
        userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        trackId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        title: 'Night Drive',
        isPublic: false,
        rangeStatus: 206,
        rangeBytes: 100,
        contentRange: `bytes 0-99/${audio.length}`,
        errorStatus: 404,
        errorCode: 'NOT_FOUND',
      });
    },
    60_000,
  );
});
