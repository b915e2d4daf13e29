/**
 * /docs as a third party meets it: the served document points "Try it out" at the server that
 * served it (forwarded headers count only behind a trusted proxy), the intro describes the areas
 * that exist, and optional authentication is not drawn as a closed padlock.
 */
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREA_DESCRIPTIONS, contract } from '@riff/contract';
import { startTestServer, type TestServer } from '../support/test-server.js';

let plain: TestServer;
let proxied: TestServer;

beforeAll(async () => {
  // The document route is not an operation of openapi.json: Prism in front would add nothing.
  [plain, proxied] = await Promise.all([
    startTestServer({ RIFF_TEST_PRISM_PROXY: '0' }),
    startTestServer({ RIFF_TEST_PRISM_PROXY: '0', TRUST_PROXY: 'true' }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), proxied?.close()]);
});

const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.riff.example' };

async function servedDocument(server: TestServer, headers: Record<string, string> = {}) {
  const reply = await fetch(`${server.directUrl}/api/v1/openapi.json`, { headers });
  expect(reply.status).toBe(200);
  return (await reply.json()) as { servers: { url: string }[]; info: { description: string }; paths: Record<string, Record<string, { security?: object[] }>> };
}

describe('the served OpenAPI document', () => {
  it('names the origin that served it as its server', async () => {
    const document = await servedDocument(plain);
    expect(document.servers.map((server) => server.url)).toEqual([plain.directUrl]);
  });

  it('ignores forwarded headers unless TRUST_PROXY is on', async () => {
    expect((await servedDocument(plain, forwarded)).servers[0]!.url).toBe(plain.directUrl);
    expect((await servedDocument(proxied, forwarded)).servers[0]!.url).toBe('https://api.riff.example');
    expect((await servedDocument(proxied)).servers[0]!.url).toBe(proxied.directUrl);
  });

  it('marks the deprecated token query parameter of verify-email deprecated', async () => {
    const { paths } = await servedDocument(plain);
    const parameters = (paths['/api/v1/auth/verify-email']!['post'] as { parameters?: { name: string; in: string; deprecated?: boolean }[] }).parameters;
    expect(parameters?.find((parameter) => parameter.in === 'query' && parameter.name === 'token')?.deprecated).toBe(true);
    expect(parameters?.find((parameter) => parameter.in === 'header')?.deprecated).toBeUndefined();
  });

  it('describes the areas it serves and no others', async () => {
    const { info } = await servedDocument(plain);
    for (const word of ['accounts', 'profiles', 'audit log', 'tracks']) expect(info.description).toContain(word);
    for (const absent of ['playlist', 'marketplace', 'webhook']) expect(info.description.toLowerCase()).not.toContain(absent);
    expect(Object.keys(contract).sort()).toEqual(Object.keys(AREA_DESCRIPTIONS).sort());
  });
});

describe('the padlock of /docs', () => {
  type Selector = (state: unknown, securities: List) => boolean;
  type Wrapper = (original: Selector) => Selector;
  /** The isAuthorized selector wrapper that /docs/init.js hands Swagger UI. */
  async function padlockWrapper() {
    const script = await (await fetch(`${plain.directUrl}/docs/init.js`)).text();
    let options: { plugins?: (() => { statePlugins: { auth: { wrapSelectors: Record<string, Wrapper> } } })[] } = {};
    runInNewContext(script, { window: {}, SwaggerUIBundle: (given: typeof options) => (options = given) });
    expect(options.plugins).toHaveLength(1);
    return options.plugins![0]!().statePlugins.auth.wrapSelectors['isAuthorized']!;
  }

  // Swagger UI's own rule (auth selectors, 5.x): a requirement is met when every scheme it names is authorized.
  const swaggerIsAuthorized = (authorized: Set<string>) => (_state: unknown, securities: List) =>
    securities.filter((requirement) => [...requirement.keys()].every((name) => authorized.has(name))).size > 0;
  type List = { filter(test: (requirement: Map<string, unknown>) => boolean): List; size: number };
  const list = (requirements: Record<string, string[]>[]): List => {
    const items = requirements.map((requirement) => new Map(Object.entries(requirement)));
    const make = (entries: Map<string, unknown>[]): List => ({ size: entries.length, filter: (test) => make(entries.filter(test)) });
    return make(items);
  };

  it('is open for optional authentication until credentials are entered', async () => {
    const wrap = await padlockWrapper();
    const optional = list([{}, { bearerAuth: [] }, { apiKeyAuth: [] }]);
    // Without the wrapper, Swagger UI counts `{}` as met: a closed padlock with nothing entered.
    expect(swaggerIsAuthorized(new Set())(undefined, optional)).toBe(true);
    expect(wrap(swaggerIsAuthorized(new Set()))(undefined, optional)).toBe(false);
    expect(wrap(swaggerIsAuthorized(new Set(['bearerAuth'])))(undefined, optional)).toBe(true);
    expect(wrap(swaggerIsAuthorized(new Set()))(undefined, list([{ bearerAuth: [] }]))).toBe(false);
  });

  it('documents optional authentication as optional', async () => {
    const { paths } = await servedDocument(plain);
    expect(paths['/api/v1/tracks/{id}']!['get']!.security).toEqual([{}, { bearerAuth: [] }, { apiKeyAuth: [] }]);
  });
});
