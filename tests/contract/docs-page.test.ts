/**
 * The /docs page as a reader uses it: the authentication schemes and the error codes are on the
 * page itself, and the filter box finds an operation by its name (operationId) or summary, which
 * Swagger UI's own filter (tag names and paths only) does not; each operation has a deep link.
 * The page is driven in headless Chromium with RIFF_TEST_BROWSER=1 (and a Chromium installed); the
 * filter function itself is always run here on the served document, so the rule is checked without a browser too.
 */
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@riff/contract';
import { findChromium, openPage, type BrowserPage } from '../support/headless-browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RIFF_TEST_PRISM_PROXY: '0' });
});
afterAll(async () => {
  await server?.close();
});

type Operation = { operationId: string; summary?: string; tags: string[] };
async function servedOperations() {
  const document = (await (await fetch(`${server.directUrl}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  return {
    document,
    operations: Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    ),
  };
}

/** Swagger UI's options as /docs/init.js hands them over. */
async function swaggerOptions() {
  const script = await (await fetch(`${server.directUrl}/docs/init.js`)).text();
  let options: Record<string, unknown> & {
    plugins?: (() => { fn?: Record<string, (...args: unknown[]) => unknown> })[];
  } = {};
  runInNewContext(script, { window: {}, SwaggerUIBundle: (given: typeof options) => (options = given) });
  return options;
}

/**
 * The few Immutable.js calls Swagger UI's opsFilter contract uses (get, set, map, filter, size),
 * holding the served operations grouped by tag as Swagger UI's taggedOperations selector does.
 */
class Entries {
  constructor(readonly items: [unknown, unknown][]) {}
  get size() {
    return this.items.length;
  }
  get(key: unknown) {
    return this.items.find(([name]) => name === key)?.[1];
  }
  set(key: unknown, value: unknown) {
    return new Entries([...this.items.filter(([name]) => name !== key), [key, value]]);
  }
  map(change: (value: unknown, key: unknown) => unknown) {
    return new Entries(this.items.map(([key, value]) => [key, change(value, key)]));
  }
  filter(keep: (value: unknown, key: unknown) => boolean) {
    return new Entries(this.items.filter(([key, value]) => keep(value, key)));
  }
}
const record = (object: Record<string, unknown>) => new Entries(Object.entries(object));

async function filteredIds(phrase: string): Promise<string[]> {
  const { operations } = await servedOperations();
  const byTag = new Map<string, Entries[]>();
  for (const { path, method, operation } of operations) {
    const tag = operation.tags[0]!;
    const entry = record({ path, method, operation: record(operation as unknown as Record<string, unknown>) });
    byTag.set(tag, [...(byTag.get(tag) ?? []), entry]);
  }
  const tagged = new Entries(
    [...byTag].map(([tag, entries]) => [
      tag,
      record({ operations: new Entries(entries.map((entry, index) => [index, entry])) }),
    ]),
  );
  const plugin = (await swaggerOptions()).plugins!.map((make) => make()).find((made) => made.fn?.['opsFilter']);
  const result = plugin!.fn!['opsFilter']!(tagged, phrase) as Entries;
  return result.items.flatMap(([, tagObj]) =>
    ((tagObj as Entries).get('operations') as Entries).items.map(
      ([, entry]) => ((entry as Entries).get('operation') as Entries).get('operationId') as string,
    ),
  );
}

describe('the /docs page', () => {
  it('lists every authentication scheme and every error code on the page itself', async () => {
    const reply = await fetch(`${server.directUrl}/docs`);
    expect(reply.status).toBe(200);
    const html = await reply.text();
    const { document } = await servedOperations();
    for (const scheme of Object.keys(document.components.securitySchemes))
      expect(html).toContain(`<code>${scheme}</code>`);
    expect(html).toContain('<code>X-API-Key</code> header');
    for (const [code, status] of Object.entries(ERROR_CODES))
      expect(html).toMatch(new RegExp(`<td>${status}</td><td>[^<]*(<code>[A-Z_]+</code> )*<code>${code}</code>`));
    // descriptions are text, not markup (an API key is described as <prefix>_<random>)
    expect(html).not.toContain('<prefix>');
  });

  it('turns on the filter box, deep links and operation ids', async () => {
    const options = await swaggerOptions();
    expect(options).toMatchObject({ filter: true, deepLinking: true, displayOperationId: true });
  });

  it('filters operations by operationId, summary words, method and path', async () => {
    expect(await filteredIds('tracksUpload')).toEqual(['tracksUpload']);
    expect(await filteredIds('TRACKSUPLOAD')).toEqual(['tracksUpload']);
    expect((await filteredIds('chunked upload')).sort()).toEqual(
      ['tracksCancel', 'tracksComplete', 'tracksInitiate', 'tracksResume'].sort(),
    );
    expect(await filteredIds('delete /api/v1/tracks/resume')).toEqual(['tracksCancel']);
    expect(await filteredIds('no-such-operation')).toEqual([]);
  });
});

const chromium = findChromium();
// Opt-in (RIFF_TEST_BROWSER=1 and a Chromium): Swagger UI's first load of the whole document takes
// from seconds to minutes (a loaded machine). The page does not depend on the database: the pass on
// PostgreSQL leaves it out.
describe.skipIf(!chromium || process.env.RIFF_TEST_BROWSER !== '1' || process.env.DATABASE_URL)(
  '/docs in headless Chromium',
  { timeout: 300_000 },
  () => {
    let page: BrowserPage | undefined;
    afterAll(async () => {
      await page?.close();
    });
    const visibleOperations = `[...document.querySelectorAll('#swagger-ui .opblock')].map((block) => block.id)`;

    it('finds an operation by its operationId in the filter box', async () => {
      page = await openPage(chromium!, `${server.directUrl}/docs`);
      // Swagger UI has drawn the reference (tracks come late in it) and its filter box
      await page.waitFor<boolean>(
        `Boolean(document.querySelector('#operations-tracks-tracksUpload') && document.querySelector('#swagger-ui input.operation-filter-input'))`,
        240_000,
      );
      expect((await page.evaluate<string[]>(visibleOperations)).length).toBeGreaterThan(10);
      expect(await page.evaluate<string>(`document.querySelector('#error-codes').textContent`)).toContain(
        'TOKEN_EXPIRED',
      );

      await page.evaluate(`document.querySelector('#swagger-ui input.operation-filter-input').focus()`);
      await page.type('tracksUpload');
      const found = await page.waitFor<string[]>(
        `(() => { const ids = ${visibleOperations}; return ids.length < 10 && ids; })()`,
        60_000,
      );
      expect(found).toEqual(['operations-tracks-tracksUpload']);
    });

    it('opens the operation a deep link names', async () => {
      // a fresh load of the page at the operation's link (the reload ends the evaluation's context)
      await page!.evaluate(
        `history.replaceState(null, '', '/docs#/tracks/tracksInitiate'); setTimeout(() => location.reload(), 0)`,
      );
      const opened = await page!.waitFor<string[]>(
        `(() => { const ids = [...document.querySelectorAll('#swagger-ui .opblock.is-open')].map((block) => block.id); return ids.length > 0 && ids; })()`,
        240_000,
      );
      expect(opened).toEqual(['operations-tracks-tracksInitiate']);
    });
  },
);
