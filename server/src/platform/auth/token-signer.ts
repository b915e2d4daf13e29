import { generateKeyPairSync, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { SignJWT, jwtVerify, exportJWK, calculateJwkThumbprint, errors as joseErrors, type JWK } from 'jose';

export type PublicJwk = JWK & { kty: string; kid: string; alg: string; use: string };

/**
 * What a token is for. `playback` is never accepted by the authenticator: the one area that
 * issues such a token checks it itself, with its grant, on the few routes it is good for.
 */
export type TokenAudience = 'api' | 'stream' | 'chat' | 'playback';

/** An API or webhook key, named by its prefix (`riff_`, `whk_`) and id. */
export interface KeyRef {
  prefix: string;
  id: string;
}

export interface TokenClaims {
  sub: string;
  /** The user's token_version when the token was issued. */
  tv: number;
  /** What a narrowly scoped token is good for (e.g. one resource), as short strings; absent on ordinary tokens. */
  grant?: Record<string, string>;
  /** The key the token was minted with, when a key minted it: the token dies with that key. */
  key?: KeyRef;
}

export interface TokenTimeOptions {
  /**
   * The time the token is issued or checked at, for tokens whose lifetime is an area's rule
   * measured on the service's clock; the real time otherwise.
   */
  now?: Date;
}

export class TokenInvalidError extends Error {
  constructor(readonly expired: boolean) {
    super(expired ? 'token expired' : 'token invalid');
  }
}

export interface TokenSigner {
  sign(claims: TokenClaims, audience: TokenAudience, ttlSeconds: number, options?: TokenTimeOptions): Promise<string>;
  verify(token: string, audience: TokenAudience, options?: TokenTimeOptions): Promise<TokenClaims>;
  jwks(): { keys: PublicJwk[] };
}

const ISSUER = 'riff';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A grant is a few short strings: anything else in the claim makes the token invalid. */
const GRANT_KEYS = 8;
const GRANT_VALUE = 200;

function readGrant(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TokenInvalidError(false);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > GRANT_KEYS || entries.some(([, item]) => typeof item !== 'string' || item.length > GRANT_VALUE))
    throw new TokenInvalidError(false);
  return Object.fromEntries(entries) as Record<string, string>;
}

const KEY_PREFIX = /^[a-z]{1,10}_$/;

/** The `key` claim: absent, or exactly a key reference (anything else makes the token invalid). */
function keyClaim(value: unknown): KeyRef | undefined | false {
  if (value === undefined) return undefined;
  const key = value as Partial<KeyRef> | null;
  if (
    typeof key?.prefix !== 'string' ||
    !KEY_PREFIX.test(key.prefix) ||
    typeof key.id !== 'string' ||
    !UUID.test(key.id)
  )
    return false;
  return { prefix: key.prefix, id: key.id };
}

/** How far ahead of our clock an `iat` may be (another instance's clock). */
const IAT_SKEW_SECONDS = 30;

/** Ed25519 (EdDSA) or P-256 (ES256), by the key's type. */
function algorithmOf(key: KeyObject): 'EdDSA' | 'ES256' {
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new Error('JWT_PRIVATE_KEY: must be an Ed25519 or P-256 private key');
}

/** JWT_PRIVATE_KEY when set; otherwise a dev key generated once into DATA_DIR. */
export async function loadPrivateKey(pem: string | undefined, dataDir: string): Promise<KeyObject> {
  if (pem) {
    try {
      return createPrivateKey(pem.replace(/\\n/g, '\n'));
    } catch {
      throw new Error('JWT_PRIVATE_KEY: not a readable PEM private key');
    }
  }
  const file = path.join(dataDir, 'keys', 'jwt-ed25519.pem');
  try {
    return createPrivateKey(await readFile(file, 'utf8'));
  } catch {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync('ed25519');
    const exported = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    try {
      await writeFile(file, exported, { mode: 0o600, flag: 'wx' });
      return privateKey;
    } catch {
      // another process wrote it first: use theirs so every instance signs with one key
      return createPrivateKey(await readFile(file, 'utf8'));
    }
  }
}

export async function createTokenSigner(privateKey: KeyObject): Promise<TokenSigner> {
  const alg = algorithmOf(privateKey);
  const publicKey = createPublicKey(privateKey);
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  const publicJwk: PublicJwk = { ...jwk, kty: jwk.kty ?? 'OKP', kid, alg, use: 'sig' };

  return {
    async sign(claims, audience, ttlSeconds, options = {}) {
      const issuedAt = Math.floor((options.now ?? new Date()).getTime() / 1000);
      return new SignJWT({
        tv: claims.tv,
        ...(claims.grant ? { grant: claims.grant } : {}),
        ...(claims.key ? { key: { prefix: claims.key.prefix, id: claims.key.id } } : {}),
      })
        .setProtectedHeader({ alg, kid, typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(ISSUER)
        .setAudience(audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .sign(privateKey);
    },
    async verify(token, audience, options = {}) {
      const now = options.now ?? new Date();
      try {
        const { payload } = await jwtVerify(token, publicKey, {
          issuer: ISSUER,
          audience,
          algorithms: [alg],
          requiredClaims: ['sub', 'exp', 'iat'],
          currentDate: now,
        });
        const tv = payload['tv'];
        if (
          typeof payload.sub !== 'string' ||
          !UUID.test(payload.sub) ||
          typeof tv !== 'number' ||
          !Number.isSafeInteger(tv)
        ) {
          throw new TokenInvalidError(false);
        }
        if ((payload.iat ?? Infinity) > now.getTime() / 1000 + IAT_SKEW_SECONDS) throw new TokenInvalidError(false);
        const grant = readGrant(payload['grant']);
        const key = keyClaim(payload['key']);
        if (key === false) throw new TokenInvalidError(false);
        return { sub: payload.sub, tv, ...(grant ? { grant } : {}), ...(key ? { key } : {}) };
      } catch (error) {
        if (error instanceof TokenInvalidError) throw error;
        throw new TokenInvalidError(error instanceof joseErrors.JWTExpired);
      }
    },
    jwks: () => ({ keys: [publicJwk] }),
  };
}
