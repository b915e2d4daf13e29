import { API_KEY_PREFIX } from '@riff/contract';
import { userActor, type AccountUser, type RequestOrigin, type UserActor } from '../../platform/access/actor.js';
import type { ApiKeyLimits, RateHeaders } from '../../platform/auth/api-key-limits.js';
import type { ApiKeyVerifier } from '../../platform/auth/authenticate.middleware.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Limiter } from '../../platform/rate-limit/rate-limiter.js';
import type { PasswordProof } from './app-passwords.service.js';
import {
  SUBSONIC_ERROR,
  SubsonicError,
  fromAppError,
  missingParameter,
  notAuthorised,
  wrongCredentials,
} from './rest-error.js';
import type { SubsonicParams } from './rest-params.js';

export interface SubsonicAuthDeps {
  /** The developer area's verifier of `riff_` keys: the same rule as on the API (live, owner may act). */
  keys: ApiKeyVerifier;
  /** Each key's hourly budget, shared with the API. */
  keyLimits: ApiKeyLimits;
  /** The users area's account by username, if it may act now (verified, active, not suspended or banned). */
  accounts: { findActingByUsername(username: string): Promise<AccountUser | undefined> };
  /** The app password of this user that the proof matches, if any. */
  passwords: { check(userId: string, proof: PasswordProof): Promise<unknown> };
  /** Failed sign-ins per username and address (policy subsonic-sign-in). */
  failures: Limiter;
}

const CREDENTIAL_PARAMS = ['u', 'p', 't', 's'] as const;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** `p` as sent: clear, or `enc:` and the UTF-8 bytes in hex; undefined when the hex is not hex (it matches nothing). */
function clearProof(p: string): PasswordProof | undefined {
  if (!p.startsWith('enc:')) return { kind: 'clear', password: p };
  const hex = p.slice(4);
  return HEX.test(hex) ? { kind: 'clear', password: Buffer.from(hex, 'hex').toString('utf8') } : undefined;
}

/**
 * Who a Subsonic call is from. Either `apiKey` (a Riff developer key, OpenSubsonic's
 * apiKeyAuthentication: its scopes and hourly budget hold as on the API) or `u` with `t`+`s` or `p`,
 * where the password is one of the user's app passwords: the account password never works here, so
 * a password typed into a player app can be revoked alone and never opens the account.
 */
export class SubsonicAuthenticator {
  constructor(private readonly deps: SubsonicAuthDeps) {}

  async authenticate(
    params: SubsonicParams,
    needs: 'read' | 'write',
    origin: RequestOrigin,
    headers: RateHeaders,
  ): Promise<UserActor> {
    const apiKey = params.get('apiKey');
    if (apiKey !== undefined) {
      if (CREDENTIAL_PARAMS.some((name) => params.has(name))) {
        throw new SubsonicError(
          SUBSONIC_ERROR.conflictingAuth,
          'Multiple conflicting authentication mechanisms provided: send apiKey alone, without u, p, t or s',
        );
      }
      return this.byApiKey(apiKey, needs, origin, headers);
    }
    return this.byAppPassword(params, origin);
  }

  private async byApiKey(key: string, needs: 'read' | 'write', origin: RequestOrigin, headers: RateHeaders) {
    const holder = key.startsWith(API_KEY_PREFIX) ? await this.deps.keys.verify(key) : undefined;
    if (!holder) throw new SubsonicError(SUBSONIC_ERROR.invalidApiKey, 'Invalid API key: unknown, revoked or expired');
    try {
      // the key's hourly budget counts reads and changes apart, as on the API (by the HTTP method a read or a change has there)
      await this.deps.keyLimits.charge(holder.keyId, needs === 'read' ? 'GET' : 'POST', headers);
    } catch (error) {
      throw error instanceof AppError ? fromAppError(error) : error;
    }
    if (!holder.scopes.includes(needs) && !holder.scopes.includes('admin')) {
      throw notAuthorised(`This method needs an API key with scope ${needs}`);
    }
    return userActor(holder.user, holder.via, origin, holder.scopes, {
      prefix: this.deps.keys.prefix,
      id: holder.keyId,
    });
  }

  private async byAppPassword(params: SubsonicParams, origin: RequestOrigin): Promise<UserActor> {
    const [u, p, t, s] = CREDENTIAL_PARAMS.map((name) => params.get(name));
    if (u === undefined || u === '') throw missingParameter(p || t ? 'u' : 'u (with p, or t and s) or apiKey');
    if (p !== undefined && (t !== undefined || s !== undefined)) {
      throw new SubsonicError(
        SUBSONIC_ERROR.conflictingAuth,
        'Multiple conflicting authentication mechanisms provided: send p, or t and s, not both',
      );
    }
    if (p === undefined && (t === undefined || t === '')) throw missingParameter(s ? 't' : 'p, or t and s');
    if (p === undefined && (s === undefined || s === '')) throw missingParameter('s');
    // one username from one address: 10 failures in the window and every attempt fails until it has passed
    const counter = `${u.toLowerCase()}\n${origin.ip ?? 'unknown'}`;
    if (!(await this.deps.failures.peek(counter)).allowed) throw wrongCredentials();
    const proof = p === undefined ? ({ kind: 'token', token: t!, salt: s! } as const) : clearProof(p);
    const user = proof && (await this.deps.accounts.findActingByUsername(u));
    if (!user || !proof || !(await this.deps.passwords.check(user.id, proof))) {
      await this.deps.failures.consume(counter);
      throw wrongCredentials();
    }
    return userActor(user, 'app_password', origin);
  }
}
