import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../support/accounts.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

let serverKey: KeyObject;
beforeAll(async () => {
  serverKey = createPrivateKey(await readFile(path.join(suite.server.dataDir, 'keys', 'jwt-ed25519.pem'), 'utf8'));
});

/** A token signed with the server's own key: only its claims are wrong. */
function forge(claims: { sub?: string; tv?: number; iat?: number; exp?: number | null }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ tv: claims.tv ?? 0 })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setIssuer('riff')
    .setAudience('api');
  if (claims.sub !== undefined) jwt.setSubject(claims.sub);
  jwt.setIssuedAt(claims.iat ?? now);
  if (claims.exp !== null) jwt.setExpirationTime(claims.exp ?? now + 600);
  return jwt.sign(serverKey);
}

describe('access tokens with a valid signature but wrong claims', () => {
  it('a well-formed forged token is accepted (the key is the server’s), so the refusals below are about the claims', async () => {
    const user = await signedInUser(suite.server);
    const token = await forge({ sub: user.id });
    expect((await suite.http.get('/auth/me', { token })).status).toBe(200);
  });

  it('a sub that is not a UUID is 401, not 500', async () => {
    for (const sub of ['admin', "1' OR '1'='1", '', '00000000-0000-0000-0000-00000000000g']) {
      const reply = await suite.http.get('/auth/me', { token: await forge({ sub }) });
      expect(reply.status, sub).toBe(401);
      expect(reply.body.error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('a token without exp is refused', async () => {
    const user = await signedInUser(suite.server);
    const reply = await suite.http.get('/auth/me', { token: await forge({ sub: user.id, exp: null }) });
    expect(reply.status).toBe(401);
  });

  it('a token issued in the future is refused', async () => {
    const user = await signedInUser(suite.server);
    const later = Math.floor(Date.now() / 1000) + 3600;
    const reply = await suite.http.get('/auth/me', {
      token: await forge({ sub: user.id, iat: later, exp: later + 600 }),
    });
    expect(reply.status).toBe(401);
  });
});

describe('X-API-Key that is not a key', () => {
  it('does not shadow a valid bearer token (what generated clients send)', async () => {
    const user = await signedInUser(suite.server);
    const both = await suite.http.get('/auth/me', {
      token: user.accessToken,
      headers: { 'x-api-key': user.accessToken },
    });
    expect(both.status).toBe(200);
    expect(both.body.data.id).toBe(user.id);
    const onAccountRoute = await suite.http.get('/users/me/export', {
      token: user.accessToken,
      headers: { 'x-api-key': 'whatever' },
    });
    expect(onAccountRoute.status).toBe(200);
  });

  it('a key-shaped X-API-Key still wins over the bearer token, and alone a non-key value is refused', async () => {
    const user = await signedInUser(suite.server);
    const keyShaped = await suite.http.get('/auth/me', {
      token: user.accessToken,
      headers: { 'x-api-key': `riff_${'a'.repeat(40)}` },
    });
    expect(keyShaped.status).toBe(401);
    const alone = await suite.http.get('/auth/me', { headers: { 'x-api-key': user.accessToken } });
    expect(alone.status).toBe(401);
  });
});
