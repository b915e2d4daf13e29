import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { api, request } from '../support/http.js';
import { signedInUser } from '../support/accounts.js';
import { startTestServer } from '../support/test-server.js';

describe('signing keys', () => {
  it('signs with JWT_PRIVATE_KEY when set (P-256 gives ES256) and publishes its public key', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const server = await startTestServer({ JWT_PRIVATE_KEY: pem });
    try {
      const user = await signedInUser(server);
      expect(decodeProtectedHeader(user.accessToken).alg).toBe('ES256');
      const jwks = await request(server.baseUrl, 'GET', '/.well-known/jwks.json');
      expect(jwks.body.keys).toHaveLength(1);
      expect(jwks.body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      expect(jwks.body.keys[0].d).toBeUndefined();
      await jwtVerify(user.accessToken, createLocalJWKSet(jwks.body), { audience: 'api' });
    } finally {
      await server.close();
    }
  });

  it('refuses an RSA key by name', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expect(startTestServer({ JWT_PRIVATE_KEY: pem })).rejects.toThrow(/JWT_PRIVATE_KEY/);
  });

  it.skipIf(Boolean(process.env.DATABASE_URL))(
    'keeps the generated dev key in DATA_DIR, so sessions survive a restart',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-restart-'));
      try {
        const first = await startTestServer({ DATA_DIR: dataDir });
        const user = await signedInUser(first);
        await first.close();
        const second = await startTestServer({ DATA_DIR: dataDir });
        try {
          expect((await api(second.baseUrl).get('/auth/me', { token: user.accessToken })).status).toBe(200);
          expect(
            (await api(second.baseUrl).post('/auth/refresh', { body: { refresh_token: user.refreshToken } })).status,
          ).toBe(200);
        } finally {
          await second.close();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
