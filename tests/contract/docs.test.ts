/**
 * /docs as a third party meets it: the served document points "Try it out" at the server that
 * served it (forwarded headers count only behind a trusted proxy), the intro describes the areas
 * that exist, optional authentication is not drawn as a closed padlock, the page lists the
 * authentication schemes and error codes and finds an operation by name (docs-page.test.ts), and
 * its Content-Security-Policy upgrades requests to https only when the service's URL is https.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREA_DESCRIPTIONS, contract } from '@riff/contract';
import { createBootApp } from '../../server/src/platform/http/boot-app.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let plain: TestServer;
let proxied: TestServer;

beforeAll(async () => {
  // The document route is not an operation of openapi.json: Prism in front would add nothing.
  [plain, proxied] = await Promise.all([
    startTestServer({ RIFF_TEST_PRISM_PROXY: '0' }),
    // behind a TLS proxy: the service's public URL is https
    startTestServer({ RIFF_TEST_PRISM_PROXY: '0', TRUST_PROXY: 'true', PUBLIC_BASE_URL: 'https://api.riff.example' }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), proxied?.close()]);
});

const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.riff.example' };

async function servedDocument(server: TestServer, headers: Record<string, string> = {}) {
  const reply = await fetch(`${server.directUrl}/api/v1/openapi.json`, { headers });
  expect(reply.status).toBe(200);
  return (await reply.json()) as {
    servers: { url: string }[];
    info: { description: string };
    paths: Record<string, Record<string, { security?: object[] }>>;
  };
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
    const parameters = (
      paths['/api/v1/auth/verify-email']!['post'] as {
        parameters?: { name: string; in: string; deprecated?: boolean }[];
      }
    ).parameters;
    expect(parameters?.find((parameter) => parameter.in === 'query' && parameter.name === 'token')?.deprecated).toBe(
      true,
    );
    expect(parameters?.find((parameter) => parameter.in === 'header')?.deprecated).toBeUndefined();
  });

  it('describes the areas it serves and no others', async () => {
    const { info } = await servedDocument(plain);
    for (const word of ['accounts', 'profiles', 'audit log', 'tracks']) expect(info.description).toContain(word);
    for (const absent of ['playlist', 'marketplace', 'webhook'])
      expect(info.description.toLowerCase()).not.toContain(absent);
    expect(Object.keys(contract).sort()).toEqual(Object.keys(AREA_DESCRIPTIONS).sort());
  });
});

describe('the padlock of /docs', () => {
  type Selector = (state: unknown, securities: List) => boolean;
  type Wrapper = (original: Selector) => Selector;
  /** The isAuthorized selector wrapper that /docs/init.js hands Swagger UI. */
  async function padlockWrapper() {
    const script = await (await fetch(`${plain.directUrl}/docs/init.js`)).text();
    let options: { plugins?: (() => { statePlugins?: { auth: { wrapSelectors: Record<string, Wrapper> } } })[] } = {};
    runInNewContext(script, { window: {}, SwaggerUIBundle: (given: typeof options) => (options = given) });
    const padlock = options.plugins?.map((plugin) => plugin()).find((plugin) => plugin.statePlugins?.auth);
    expect(padlock).toBeDefined();
    return padlock!.statePlugins!.auth.wrapSelectors['isAuthorized']!;
  }

  // Swagger UI's own rule (auth selectors, 5.x): a requirement is met when every scheme it names is authorized.
  const swaggerIsAuthorized = (authorized: Set<string>) => (_state: unknown, securities: List) =>
    securities.filter((requirement) => [...requirement.keys()].every((name) => authorized.has(name))).size > 0;
  type List = { filter(test: (requirement: Map<string, unknown>) => boolean): List; size: number };
  const list = (requirements: Record<string, string[]>[]): List => {
    const items = requirements.map((requirement) => new Map(Object.entries(requirement)));
    const make = (entries: Map<string, unknown>[]): List => ({
      size: entries.length,
      filter: (test) => make(entries.filter(test)),
    });
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

describe('the Content-Security-Policy of /docs', () => {
  const csp = async (url: string) => (await fetch(url)).headers.get('content-security-policy') ?? '';

  // upgrade-insecure-requests on a plain-http address makes the browser fetch the page's script and
  // style over https, which nobody answers: the page stays blank.
  it('does not upgrade requests to https when the public URL is http', async () => {
    const policy = await csp(`${plain.directUrl}/docs`);
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('upgrade-insecure-requests');
    expect(await csp(`${plain.directUrl}/api/v1/openapi.json`)).not.toContain('upgrade-insecure-requests');
  });

  it('upgrades requests to https when the public URL is https', async () => {
    expect(await csp(`${proxied.directUrl}/docs`)).toContain('upgrade-insecure-requests');
    expect(await csp(`${proxied.directUrl}/healthz`)).toContain('upgrade-insecure-requests');
  });

  it('follows the public URL while the service starts, too', async () => {
    for (const [publicUrl, upgrades] of [
      ['http://192.168.1.20:8080', false],
      ['https://api.riff.example', true],
    ] as const) {
      const server = createServer(createBootApp(publicUrl));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        // every reply of the start-up app carries the policy; /healthz does not build the document
        const policy = await csp(`http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`);
        expect(policy).toContain("default-src 'self'");
        expect(policy.includes('upgrade-insecure-requests')).toBe(upgrades);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });
});
