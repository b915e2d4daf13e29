import type { RiffRequest as Request, RiffResponse as Response } from '../http/http-exchange.js';
import type { Middleware } from '../http/middleware-chain.js';
import type { AppRoute } from '@ts-rest/core';
import { requiredScope, routeMeta, type ApiKeyScope, type RouteMeta } from '@riff/contract';
import { AppError, forbidden, unauthenticated } from '../errors/app-error.js';
import {
  anonymousActor,
  userActor,
  type AccountUser,
  type AuthMethod,
  type RequestOrigin,
  type UserActor,
} from '../access/actor.js';
import type { ApiKeyLimits } from './api-key-limits.js';
import { originOf } from '../access/request-actor.js';
import { TokenInvalidError, type KeyRef, type TokenAudience, type TokenSigner } from './token-signer.js';

/** Who a key speaks for: its owner (who may still act), what it may do, and the counter it spends. */
export interface KeyHolder {
  /** Counts the key's requests (unique across kinds of key). */
  keyId: string;
  user: AccountUser;
  scopes: readonly ApiKeyScope[];
  via: Extract<AuthMethod, 'api_key' | 'webhook_key'>;
}

/** Resolves the keys that start with `prefix` (e.g. `riff_`, `whk_`); supplied by the area that issues them. */
export interface ApiKeyVerifier {
  prefix: string;
  /** The holder of a live key (not revoked, not expired, its owner active), else undefined. */
  verify(key: string): Promise<KeyHolder | undefined>;
  /**
   * Whether the key of this id is still live (not revoked, not expired), for the tokens minted
   * with it. A kind of key without it mints no token that outlives a request.
   */
  isLive?(keyId: string): Promise<boolean>;
}

/** Whether the key a token was minted from is still live: a token dies with its key. */
export async function keyIsLive(verifiers: readonly ApiKeyVerifier[], key: KeyRef): Promise<boolean> {
  const verifier = verifiers.find((candidate) => candidate.prefix === key.prefix);
  return verifier?.isLive ? verifier.isLive(key.id) : false;
}

export interface AuthenticatorDeps {
  signer: TokenSigner;
  /** The user behind a token, if it may still act: exists, active, verified, not banned or deleted. */
  loadActiveUser(id: string): Promise<AccountUser | undefined>;
  keyVerifiers: readonly ApiKeyVerifier[];
  keyLimits: ApiKeyLimits;
}

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;
/** Developer keys (`riff_…`) and webhook keys (`whk_…`). */
const API_KEY_SHAPE = /^(?:riff|whk)_[A-Za-z0-9]+$/;

interface Credential {
  kind: 'jwt' | 'api_key';
  value: string;
  /** A JWT that came as ?token= may only be a stream token. */
  fromQuery?: boolean;
}

function readCredential(req: Request, allowQueryToken: boolean): Credential | undefined {
  const apiKeyHeader = req.headers['x-api-key'];
  const authorization = req.headers.authorization;
  const hasAuthorization = typeof authorization === 'string' && authorization.length > 0;
  // Some generated clients send the bearer token as X-API-Key too: a value that is not a key
  // must not shadow the Authorization header.
  if (
    typeof apiKeyHeader === 'string' &&
    apiKeyHeader.length > 0 &&
    (API_KEY_SHAPE.test(apiKeyHeader) || !hasAuthorization)
  ) {
    return { kind: 'api_key', value: apiKeyHeader };
  }
  if (hasAuthorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) throw unauthenticated('Authorization must be "Bearer <token>"');
    return { kind: JWT_SHAPE.test(match[1]) ? 'jwt' : 'api_key', value: match[1] };
  }
  const queryToken = (req.query as Record<string, unknown>)['token'];
  if (allowQueryToken && typeof queryToken === 'string' && queryToken.length > 0) {
    return { kind: 'jwt', value: queryToken, fromQuery: true };
  }
  return undefined;
}

/**
 * Authenticates a request as its route's metadata says (public, optional, user, stream) and sets
 * req.actor, once, for the whole request. Runs after routing, so it knows the route.
 */
export function createAuthenticator(deps: AuthenticatorDeps): Middleware {
  async function fromJwt(token: string, audiences: TokenAudience[], origin: RequestOrigin): Promise<UserActor> {
    let lastError: TokenInvalidError | undefined;
    for (const audience of audiences) {
      try {
        const claims = await deps.signer.verify(token, audience);
        const user = await deps.loadActiveUser(claims.sub);
        if (
          !user ||
          user.token_version !== claims.tv ||
          (claims.key && !(await keyIsLive(deps.keyVerifiers, claims.key)))
        ) {
          throw unauthenticated('This token is no longer valid');
        }
        return userActor(user, audience === 'stream' ? 'stream_token' : 'bearer', origin, undefined, claims.key);
      } catch (error) {
        if (!(error instanceof TokenInvalidError)) throw error;
        lastError = error;
      }
    }
    if (lastError?.expired) throw new AppError('TOKEN_EXPIRED', 'The token has expired');
    throw unauthenticated('The token is not valid here');
  }

  // every request of a known key counts and carries the rate headers, refusals included
  async function fromApiKey(key: string, res: Response, route: AppRoute, origin: RequestOrigin): Promise<UserActor> {
    const verifier = deps.keyVerifiers.find((candidate) => key.startsWith(candidate.prefix));
    const holder = verifier ? await verifier.verify(key) : undefined;
    if (!holder) throw new AppError('INVALID_CREDENTIALS', 'Unknown, revoked or expired API key');
    await deps.keyLimits.charge(holder.keyId, route.method, res);
    if (!routeMeta(route).apiKey) {
      throw new AppError('INSUFFICIENT_SCOPE', 'An API key cannot perform this operation: sign in with your password');
    }
    const needed = requiredScope(route.method);
    if (!holder.scopes.includes(needed) && !holder.scopes.includes('admin')) {
      throw new AppError('INSUFFICIENT_SCOPE', `This operation needs an API key with scope ${needed}`);
    }
    return userActor(holder.user, holder.via, origin, holder.scopes, { prefix: verifier!.prefix, id: holder.keyId });
  }

  async function authenticate(
    req: Request,
    res: Response,
    route: AppRoute,
    meta: RouteMeta,
    origin: RequestOrigin,
  ): Promise<void> {
    const credential = readCredential(req, meta.auth === 'stream');
    if (!credential) {
      if (meta.auth === 'optional' || meta.auth === 'stream') return;
      throw unauthenticated('Authentication required');
    }
    if (credential.kind === 'api_key') {
      req.actor = await fromApiKey(credential.value, res, route, origin);
    } else {
      const audiences: TokenAudience[] =
        meta.auth !== 'stream' ? ['api'] : credential.fromQuery ? ['stream'] : ['api', 'stream'];
      req.actor = await fromJwt(credential.value, audiences, origin);
    }
    if (meta.staff && !(meta.staff === 'admin' ? req.actor.isAdmin : req.actor.isStaff)) {
      throw forbidden(meta.staff === 'admin' ? 'Only an admin may do this' : 'Only staff may do this');
    }
  }

  return async (req, res, next) => {
    try {
      const route = req.tsRestRoute!;
      const meta = routeMeta(route);
      const origin = originOf(req);
      req.actor = anonymousActor(origin);
      if (meta.auth === 'public') return next();
      try {
        await authenticate(req, res, route, meta, origin);
      } catch (error) {
        // a lenient route serves a caller whose credentials fail as anonymous
        if (!(meta.lenient && error instanceof AppError)) throw error;
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}
