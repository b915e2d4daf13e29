/**
 * openapi.json and the contract agree: every operation of the contract, called through the typed
 * client (@riff/client, which validates replies against the contract's zod schemas) with inputs
 * generated from its request schemas, against `prism mock openapi.json` (static examples), gets
 * the documented success status with a body the client accepts.
 *
 * Fails when openapi.json is out of date (an operation missing, a field the contract now requires),
 * when the document loses a constraint the zod schema has (Prism's example then breaks it), or when
 * a request the contract accepts is refused by the document.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRiffClient, memoryTokenStore } from '@riff/client';
import { OPENAPI_DOCUMENT, startPrism, type PrismServer } from '../support/prism.js';
import {
  contentTypeMatches,
  contractOperations,
  responseContentTypes,
  successStatus,
  type Operation,
} from './operations.js';
import { sampleRequest } from './inputs.js';
import { paginationProblems } from './pagination.js';

const SEED = Number(process.env.FUZZ_SEED ?? 42);
const operations = contractOperations();
const checked = new Set<string>();
let mock: PrismServer;

beforeAll(async () => {
  mock = await startPrism({ mode: 'mock', errors: false });
  console.warn(`prism mock started in ${mock.startupMs} ms`);
});
afterAll(async () => {
  await mock?.close();
});

type ClientCall = (args: Record<string, unknown>) => Promise<{ status: number; body: unknown; headers: Headers }>;

function clientCall(operation: Operation, headers: Record<string, string>): ClientCall {
  const client = createRiffClient({
    baseUrl: mock.baseUrl,
    // Prism only checks that credentials are present.
    tokens: memoryTokenStore({ accessToken: 'prism-mock-access-token' }),
    validateResponse: true,
    headers,
  });
  const call = operation.keys.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], client);
  if (typeof call !== 'function') throw new Error(`the client has no function for ${operation.id}`);
  return call as ClientCall;
}

describe('prism mock of openapi.json, called through @riff/client', () => {
  it('finds operations in the contract, and openapi.json documents the same number', () => {
    const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
    const documented = Object.values(document.paths).flatMap((item) =>
      Object.keys(item).filter((key) => methods.has(key)),
    );
    expect(operations.length).toBeGreaterThan(0);
    expect(documented.length).toBe(operations.length);
  });

  it.each(operations.map((operation, index) => [operation.id, operation, index] as const))(
    '%s answers its documented success through the validating client',
    async (_id, operation, index) => {
      const { route } = operation;
      const status = successStatus(route);
      let input = sampleRequest(route, SEED + index);
      // ts-rest's client cannot send a multipart route without a body (it reads the body's fields): sample one that has it
      for (
        let next = 1;
        'contentType' in route && route.contentType === 'multipart/form-data' && input.body === undefined && next < 50;
        next++
      )
        input = sampleRequest(route, SEED + index + next * 1000);
      const call = clientCall(operation, { prefer: `code=${status}` });
      let reply: Awaited<ReturnType<ClientCall>>;
      try {
        reply = await call({
          params: input.params,
          query: input.query,
          headers: input.headers ?? {},
          body: input.body,
        });
      } catch (error) {
        // (not chained: the client's errors carry the whole route, which would drown the message)
        const response = (error as { response?: { status?: number; body?: unknown } }).response;
        throw new Error(
          `${operation.id} (${route.method} ${route.path}) with ${JSON.stringify(input)}: ${String(error)}` +
            (response ? `\nreply: ${response.status} ${JSON.stringify(response.body)}` : ''),
        );
      }
      expect(reply.status, `${operation.id} with ${JSON.stringify(input)}: ${JSON.stringify(reply.body)}`).toBe(status);
      const declaredTypes = responseContentTypes(route, status);
      if (declaredTypes.length > 0) {
        // The client validates JSON replies only: a JSON reply must say so, or it was not validated.
        const actual = reply.headers.get('content-type');
        expect(
          declaredTypes.some((declared) => contentTypeMatches(actual, declared)),
          `content-type ${actual} for ${declaredTypes.join(' or ')}`,
        ).toBe(true);
      }
      // Mocked lists are data a frontend can page through: their pagination matches their items.
      const data = (reply.body as { data?: unknown } | undefined)?.data;
      if (data && typeof data === 'object' && 'pagination' in data)
        expect(paginationProblems(data as Record<string, unknown>)).toEqual([]);
      if (operation.id === 'auth.login')
        expect(reply.body).toMatchObject({ requires_2fa: false, token: { token_type: 'Bearer' } });
      checked.add(operation.id);
    },
  );

  it('checked every operation of the contract', () => {
    expect([...checked].sort()).toEqual(operations.map((operation) => operation.id).sort());
    expect(checked.size).toBe(operations.length);
  });
});
