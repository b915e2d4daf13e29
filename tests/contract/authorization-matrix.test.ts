/**
 * Authorization matrix, generated from the contract: every route that needs a signed-in user
 * refuses, with 401 in the envelope, a request with no token, an expired access token, a stream
 * token, a chat token, and an access token whose token version is stale (signed with the service's
 * own key for a real user, so only the refused property differs).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenSigner, loadPrivateKey, type TokenSigner } from '../../server/src/platform/auth/token-signer.js';
import { signedInUser } from '../support/accounts.js';
import { request } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { bodySchema, contractOperations, isMultipart, pathParamNames, type Operation } from './operations.js';
import { literalPathParams } from './inputs.js';

const bearerOperations = contractOperations().filter((operation) => operation.meta.auth === 'user');

let server: TestServer;
let signer: TokenSigner;
let user: { id: string; accessToken: string };
let tokenVersion: number;

beforeAll(async () => {
  server = await startTestServer();
  // the test server generated its signing key into its DATA_DIR: the same key signs the crafted tokens
  signer = await createTokenSigner(await loadPrivateKey(undefined, server.dataDir));
  const signedIn = await signedInUser(server);
  user = signedIn;
  tokenVersion = JSON.parse(Buffer.from(signedIn.accessToken.split('.')[1]!, 'base64url').toString()).tv;
});

afterAll(async () => {
  await server?.close();
});

function pathOf(operation: Operation): string {
  const literals = literalPathParams(operation.route);
  let path = operation.route.path;
  for (const name of pathParamNames(operation.route)) path = path.replace(`:${name}`, literals[name] ?? randomUUID());
  return path;
}

async function send(operation: Operation, token: string | undefined) {
  const { method } = operation.route;
  const hasBody =
    method !== 'GET' &&
    method !== 'DELETE' &&
    (bodySchema(operation.route) !== undefined || isMultipart(operation.route));
  return request(server.baseUrl, method, pathOf(operation), { token, ...(hasBody ? { body: {} } : {}) });
}

const credentials: Array<[string, () => Promise<string | undefined>, string[]]> = [
  ['no token', async () => undefined, ['UNAUTHENTICATED']],
  ['an expired access token', () => signer.sign({ sub: user.id, tv: tokenVersion }, 'api', -120), ['TOKEN_EXPIRED']],
  ['a stream token', () => signer.sign({ sub: user.id, tv: tokenVersion }, 'stream', 300), ['UNAUTHENTICATED']],
  ['a chat token', () => signer.sign({ sub: user.id, tv: tokenVersion }, 'chat', 300), ['UNAUTHENTICATED']],
  [
    'a token of a stale version',
    () => signer.sign({ sub: user.id, tv: tokenVersion + 1 }, 'api', 300),
    ['UNAUTHENTICATED'],
  ],
  [
    'a token for a user who does not exist',
    () => signer.sign({ sub: randomUUID(), tv: 0 }, 'api', 300),
    ['UNAUTHENTICATED'],
  ],
];

describe('every bearer route of the contract', () => {
  it('is covered (the contract walk found them)', () => {
    expect(bearerOperations.length).toBeGreaterThan(10);
  });

  for (const [label, token, codes] of credentials) {
    it(`refuses ${label} with 401`, async () => {
      const wrong: string[] = [];
      const credential = await token();
      for (const operation of bearerOperations) {
        const reply = await send(operation, credential);
        if (reply.status !== 401 || !codes.includes(reply.body?.error?.code)) {
          wrong.push(
            `${operation.id} (${operation.route.method} ${operation.route.path}): ${reply.status} ${reply.text.slice(0, 200)}`,
          );
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  it('accepts the valid access token on every read (the refusals above are about the token)', async () => {
    const refused: string[] = [];
    for (const operation of bearerOperations.filter((candidate) => candidate.route.method === 'GET')) {
      const reply = await send(operation, user.accessToken);
      if (reply.status === 401) refused.push(`${operation.id}: ${reply.text.slice(0, 200)}`);
    }
    expect(refused).toEqual([]);
  });
});
