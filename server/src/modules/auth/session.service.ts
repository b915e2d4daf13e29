import { randomUUID } from 'node:crypto';
import type { Actor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { UserRow } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError } from '../../platform/errors/app-error.js';
import { constantTimeEqualText, randomToken, sha256Hex } from '../../platform/auth/secure-random.js';
import type { TokenSigner } from '../../platform/auth/token-signer.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { UsersRepository } from '../users/users.repository.js';
import { onSession } from './auth.events.js';
import type { AuthRepository } from './auth.repository.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const DAY = 24 * 60 * 60 * 1000;
export const refreshLifetimeMs = (rememberMe: boolean) => (rememberMe ? 30 : 7) * DAY;

export interface IssuedSession {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  /** For the cookie's Max-Age. */
  refreshMaxAgeMs: number;
}

interface SessionDeps {
  scope: DbScope;
  users: UsersRepository;
  auth: AuthRepository;
  events: EventBus;
  signer: TokenSigner;
  clock: Clock;
}

function parseRefreshToken(token: string): { id: string; secret: string } | undefined {
  const [id, secret, ...rest] = token.split('.');
  if (!id || !secret || rest.length > 0 || id.length > 64 || secret.length > 128) return undefined;
  return { id, secret };
}

/**
 * Access tokens (JWT, 15 minutes) and refresh tokens (opaque `<id>.<secret>`, stored hashed,
 * rotated on every use, in families so that replaying a rotated one revokes them all).
 */
export class SessionService {
  constructor(private readonly deps: SessionDeps) {}

  accessToken(user: UserRow): Promise<string> {
    return this.deps.signer.sign({ sub: user.id, tv: user.token_version }, 'api', ACCESS_TOKEN_TTL_SECONDS);
  }

  /** A new refresh token (of a new login, or the next of `familyId`), recorded with where the caller is. */
  async issue(actor: Actor, user: UserRow, rememberMe: boolean, familyId: string = randomUUID()): Promise<IssuedSession> {
    const id = randomToken(15);
    const secret = randomToken(32);
    const lifetime = refreshLifetimeMs(rememberMe);
    await this.deps.auth.insertRefreshToken({
      id,
      familyId,
      userId: user.id,
      secretHash: sha256Hex(secret),
      rememberMe,
      expiresAt: new Date(this.deps.clock.now().getTime() + lifetime),
      ip: actor.origin.ip,
      userAgent: actor.origin.userAgent,
    });
    return {
      access_token: await this.accessToken(user),
      refresh_token: `${id}.${secret}`,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      refreshMaxAgeMs: lifetime,
    };
  }

  async rotate(actor: Actor, presented: string): Promise<IssuedSession> {
    const now = this.deps.clock.now();
    const parsed = parseRefreshToken(presented);
    const row = parsed ? await this.deps.auth.findRefreshToken(parsed.id) : undefined;
    if (!parsed || !row || !constantTimeEqualText(row.secret_hash, sha256Hex(parsed.secret))) {
      throw new AppError('UNAUTHENTICATED', 'Invalid refresh token');
    }
    if (row.revoked_at) throw new AppError('UNAUTHENTICATED', 'This session has ended');
    if (row.rotated_at) {
      await this.revokeForReuse(actor, row.family_id, row.user_id);
    }
    if (row.expires_at <= now) throw new AppError('TOKEN_EXPIRED', 'The refresh token has expired');
    const user = await this.deps.users.findActiveById(row.user_id);
    if (!user) throw new AppError('UNAUTHENTICATED', 'This account cannot sign in');

    const issued = await this.deps.scope.transaction(async () => {
      if (!(await this.deps.auth.markRotated(row.id, now))) return undefined;
      return this.issue(actor, user, row.remember_me, row.family_id);
    });
    // another request rotated it between our read and our write: the same token was used twice
    if (!issued) return this.revokeForReuse(actor, row.family_id, row.user_id);
    return issued;
  }

  private async revokeForReuse(actor: Actor, familyId: string, userId: string): Promise<never> {
    await this.deps.auth.revokeFamily(familyId, this.deps.clock.now());
    await this.deps.events.record(actor, 'auth.refresh_reuse_detected', { subject: onSession(familyId), data: {}, userId });
    throw new AppError('TOKEN_REUSED', 'This refresh token was already used; every session of its login has been ended');
  }

  /** The family of a live (not rotated, revoked or expired) refresh token of this user, else undefined. */
  async liveFamilyOf(presented: string, userId: string): Promise<string | undefined> {
    const parsed = parseRefreshToken(presented);
    const row = parsed ? await this.deps.auth.findRefreshToken(parsed.id) : undefined;
    if (!parsed || !row || row.user_id !== userId || !constantTimeEqualText(row.secret_hash, sha256Hex(parsed.secret))) return undefined;
    if (row.revoked_at || row.rotated_at || row.expires_at <= this.deps.clock.now()) return undefined;
    return row.family_id;
  }

  /** Ends the login the token belongs to, if it is the caller's. */
  async revoke(presented: string, userId: string): Promise<boolean> {
    const parsed = parseRefreshToken(presented);
    const row = parsed ? await this.deps.auth.findRefreshToken(parsed.id) : undefined;
    if (!parsed || !row || row.user_id !== userId || !constantTimeEqualText(row.secret_hash, sha256Hex(parsed.secret))) {
      return false;
    }
    await this.deps.auth.revokeFamily(row.family_id, this.deps.clock.now());
    return true;
  }
}
