import { randomUUID } from 'node:crypto';
import type { Actor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { UserRow } from '../users/users.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, unauthenticated } from '../../platform/errors/app-error.js';
import type { SecretBox } from '../../platform/auth/secret-box.js';
import { constantTimeEqualText, randomToken, sha256Hex } from '../../platform/auth/secure-random.js';
import type { TokenSigner } from '../../platform/auth/token-signer.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { UsersRepository } from '../users/users.repository.js';
import { onSession } from './auth.events.js';
import type { AuthRepository, RefreshTokenRow } from './auth.repository.js';
import { sanctionRefusal } from './sanction-refusal.js';

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
  /** Seals the successor kept with a rotated token. */
  successorBox: SecretBox;
  /** How long a rotated token may be presented again and get its successor (0: never). */
  reuseGraceMs: number;
}

/** A rotated token's successors are followed this far at most (each within its own grace). */
const MAX_SUCCESSOR_CHAIN = 8;

function parseRefreshToken(token: string): { id: string; secret: string } | undefined {
  const [id, secret, ...rest] = token.split('.');
  if (!id || !secret || rest.length > 0 || id.length > 64 || secret.length > 128) return undefined;
  return { id, secret };
}

/**
 * Access tokens (JWT, 15 minutes) and refresh tokens (opaque `<id>.<secret>`, stored hashed,
 * rotated on every use, in families so that replaying a rotated one after the reuse grace revokes
 * them all).
 */
export class SessionService {
  constructor(private readonly deps: SessionDeps) {}

  accessToken(user: UserRow): Promise<string> {
    return this.deps.signer.sign({ sub: user.id, tv: user.token_version }, 'api', ACCESS_TOKEN_TTL_SECONDS);
  }

  /** A new refresh token (of a new login, or the next of `familyId`), recorded with where the caller is. */
  async issue(
    actor: Actor,
    user: UserRow,
    rememberMe: boolean,
    familyId: string = randomUUID(),
  ): Promise<IssuedSession> {
    return this.record(actor, user, rememberMe, familyId, { id: randomToken(15), secret: randomToken(32) });
  }

  private async record(
    actor: Actor,
    user: UserRow,
    rememberMe: boolean,
    familyId: string,
    token: { id: string; secret: string },
  ): Promise<IssuedSession> {
    const lifetime = refreshLifetimeMs(rememberMe);
    await this.deps.auth.insertRefreshToken({
      id: token.id,
      familyId,
      userId: user.id,
      secretHash: sha256Hex(token.secret),
      rememberMe,
      expiresAt: new Date(this.deps.clock.now().getTime() + lifetime),
      ip: actor.origin.ip,
      userAgent: actor.origin.userAgent,
    });
    return this.pair(user, `${token.id}.${token.secret}`, lifetime);
  }

  private async pair(user: UserRow, refreshToken: string, refreshMaxAgeMs: number): Promise<IssuedSession> {
    return {
      access_token: await this.accessToken(user),
      refresh_token: refreshToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      refreshMaxAgeMs,
    };
  }

  /** The stored row of a well-formed token whose secret matches, else undefined. */
  private async rowOf(token: string): Promise<RefreshTokenRow | undefined> {
    const parsed = parseRefreshToken(token);
    const row = parsed ? await this.deps.auth.findRefreshToken(parsed.id) : undefined;
    if (!parsed || !row || !constantTimeEqualText(row.secret_hash, sha256Hex(parsed.secret))) return undefined;
    return row;
  }

  /**
   * Rotation: the token is marked rotated and a successor issued. A rotated token presented again
   * within the reuse grace (two tabs refreshing with the same cookie at once, a reply lost on the
   * way) is answered with the same successor and a new access token; presented later, it was
   * stolen or replayed, and the whole family is revoked.
   */
  async rotate(actor: Actor, presented: string): Promise<IssuedSession> {
    const now = this.deps.clock.now();
    const row = await this.rowOf(presented);
    if (!row) throw unauthenticated('Invalid refresh token');
    await this.refuseSanctioned(row.user_id, now);
    if (row.revoked_at) throw unauthenticated('This session has ended');
    if (row.rotated_at) return this.successorWithinGrace(actor, row);
    if (row.expires_at <= now) throw new AppError('TOKEN_EXPIRED', 'The refresh token has expired');
    const user = await this.deps.users.findActingById(row.user_id);
    if (!user) throw unauthenticated('This account cannot sign in');

    const next = { id: randomToken(15), secret: randomToken(32) };
    const { reuseGraceMs, successorBox } = this.deps;
    const sealed = reuseGraceMs > 0 ? successorBox.seal(`${next.id}.${next.secret}`) : null;
    const issued = await this.deps.scope.transaction(async () => {
      if (!(await this.deps.auth.markRotated(row.id, now, sealed, new Date(now.getTime() - reuseGraceMs))))
        return undefined;
      return this.record(actor, user, row.remember_me, row.family_id, next);
    });
    if (issued) return issued;
    // another request rotated (or revoked) it between our read and our write: the same token twice at once
    const rotatedMeanwhile = await this.deps.auth.findRefreshToken(row.id);
    if (rotatedMeanwhile?.revoked_at) throw unauthenticated('This session has ended');
    return this.successorWithinGrace(actor, rotatedMeanwhile ?? row);
  }

  /** A banned or suspended account's refresh says so (its tokens were revoked with the sanction). */
  private async refuseSanctioned(userId: string, now: Date): Promise<void> {
    const user = await this.deps.users.findById(userId);
    const refusal = user && sanctionRefusal(user, now);
    if (refusal) throw refusal;
  }

  /**
   * The live token that replaced a rotated one, followed along the family while every step was
   * rotated within the grace; the family is revoked when a step is older (or unreadable).
   */
  private async successorWithinGrace(actor: Actor, rotated: RefreshTokenRow): Promise<IssuedSession> {
    const now = this.deps.clock.now();
    const graceStart = now.getTime() - this.deps.reuseGraceMs;
    let current = rotated;
    let token: string | undefined;
    for (let step = 0; current.rotated_at; step++) {
      const sealed = current.successor_sealed;
      if (step >= MAX_SUCCESSOR_CHAIN || !sealed || current.rotated_at.getTime() < graceStart) {
        return this.revokeForReuse(actor, rotated.family_id, rotated.user_id);
      }
      token = this.openSeal(sealed);
      const next = token ? await this.rowOf(token) : undefined;
      if (!token || !next || next.family_id !== rotated.family_id)
        return this.revokeForReuse(actor, rotated.family_id, rotated.user_id);
      if (next.revoked_at) throw unauthenticated('This session has ended');
      current = next;
    }
    if (!token) return this.revokeForReuse(actor, rotated.family_id, rotated.user_id);
    if (current.expires_at <= now) throw new AppError('TOKEN_EXPIRED', 'The refresh token has expired');
    const user = await this.deps.users.findActingById(current.user_id);
    if (!user) throw unauthenticated('This account cannot sign in');
    return this.pair(user, token, current.expires_at.getTime() - now.getTime());
  }

  /** A seal made under another SECRET_KEY cannot be opened: then there is no successor to give. */
  private openSeal(sealed: string): string | undefined {
    try {
      return this.deps.successorBox.open(sealed);
    } catch {
      return undefined;
    }
  }

  private async revokeForReuse(actor: Actor, familyId: string, userId: string): Promise<never> {
    await this.deps.auth.revokeFamily(familyId, this.deps.clock.now());
    await this.deps.events.record(actor, 'auth.refresh_reuse_detected', {
      subject: onSession(familyId),
      data: {},
      userId,
    });
    throw new AppError(
      'TOKEN_REUSED',
      'This refresh token was already used; every session of its login has been ended',
    );
  }

  /** The family of a live (not rotated, revoked or expired) refresh token of this user, else undefined. */
  async liveFamilyOf(presented: string, userId: string): Promise<string | undefined> {
    const row = await this.rowOf(presented);
    if (!row || row.user_id !== userId) return undefined;
    if (row.revoked_at || row.rotated_at || row.expires_at <= this.deps.clock.now()) return undefined;
    return row.family_id;
  }

  /** Ends the login the token belongs to, if it is the caller's. */
  async revoke(presented: string, userId: string): Promise<boolean> {
    const row = await this.rowOf(presented);
    if (!row || row.user_id !== userId) return false;
    await this.deps.auth.revokeFamily(row.family_id, this.deps.clock.now());
    return true;
  }
}
