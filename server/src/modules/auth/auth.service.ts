import type { LoginRequest, PasswordResetConfirmRequest, RegisterRequest, TwoFactorLoginRequest } from '@riff/contract';
import type { Clock } from '../../platform/clock.js';
import { scopeAllows, type Actor, type UserActor } from '../../platform/access/actor.js';
import type { Revocations } from '../../platform/auth/revocations.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { isUniqueViolation } from '../../platform/db/db-errors.js';
import type { UserRow } from '../users/users.tables.js';
import { AppError, conflict, fieldIssue, rateLimited, unauthenticated } from '../../platform/errors/app-error.js';
import type { PasswordHasher } from '../../platform/auth/password-hasher.js';
import { randomToken, sha256Hex } from '../../platform/auth/secure-random.js';
import type { TokenSigner } from '../../platform/auth/token-signer.js';
import type { MailQueue } from '../../platform/mail/mail-queue.js';
import type { Limiter } from '../../platform/rate-limit/rate-limiter.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { toUserResponse } from '../users/user.mapper.js';
import type { UsersRepository } from '../users/users.repository.js';
import { uniqueSlug } from '../users/slug.js';
import { onSession, onUser } from './auth.events.js';
import { sanctionRefusal } from './sanction-refusal.js';
import { passwordChangedMail, passwordResetMail, verificationMail } from './auth.mail.js';
import type { AuthRepository } from './auth.repository.js';
import type { IssuedSession, SessionService } from './session.service.js';
import type { TwoFactorService } from './two-factor.service.js';

const HOUR = 60 * 60 * 1000;
const VERIFICATION_TTL_MS = 24 * HOUR;
const RESET_TTL_MS = HOUR;
const TWO_FACTOR_CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const STREAM_TOKEN_TTL_SECONDS = 300;
export const CHAT_TOKEN_TTL_SECONDS = 600;

export interface AuthLimits {
  /** Failed logins per account and client address. */
  loginAccount: Limiter;
  /** Failed logins per client address, whatever the account. */
  loginAddress: Limiter;
  verificationMail: Limiter;
  resetMail: Limiter;
}

export interface AuthServiceDeps {
  scope: DbScope;
  users: UsersRepository;
  auth: AuthRepository;
  events: EventBus;
  sessions: SessionService;
  twoFactor: TwoFactorService;
  hasher: PasswordHasher;
  signer: TokenSigner;
  mail: MailQueue;
  clock: Clock;
  limits: AuthLimits;
  appBaseUrl: string;
  revocations: Revocations;
  /** The platform's settings: whether anyone may register now. */
  registration: { isOpen(): Promise<boolean> };
  /** ADMIN_EMAILS: the account becomes admin once its address is verified, if it is listed. */
  listedAdmins: { promote(userId: string): Promise<string[]> };
}

export type LoginResult =
  | { requires_2fa: false; user: ReturnType<typeof toUserResponse>; session: IssuedSession }
  | { requires_2fa: true; user: ReturnType<typeof toUserResponse>; two_factor_token: string };

const GENERIC_RESET_MESSAGE = 'If an account exists for this address, a password reset link has been sent.';
const GENERIC_RESEND_MESSAGE =
  'If this address belongs to an unverified account, a new verification link has been sent.';

export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  async register(actor: Actor, input: Pick<RegisterRequest, 'email' | 'password' | 'username'>) {
    const { users, clock } = this.deps;
    if (!(await this.deps.registration.isOpen()))
      throw new AppError('REGISTRATION_CLOSED', 'Registration is closed for now');
    if (await users.emailTaken(input.email)) throw conflict('An account with this email already exists');
    const username = input.username ?? (await this.usernameFromEmail(input.email));
    if (await users.usernameTaken(username)) throw conflict('This username is taken');
    const passwordHash = await this.deps.hasher.hash(input.password);
    const token = randomToken();
    const now = clock.now();
    const slug = await uniqueSlug(users, username);

    let user: UserRow;
    try {
      user = await this.deps.scope.transaction(async () => {
        const created = await users.insert({
          email: input.email,
          username,
          slug,
          password_hash: passwordHash,
          password_changed_at: now,
          social_links: '{}',
        });
        await this.deps.auth.replaceEmailToken(
          created.id,
          'verify_email',
          sha256Hex(token),
          new Date(now.getTime() + VERIFICATION_TTL_MS),
        );
        await this.deps.events.record(actor, 'auth.register', {
          subject: onUser(created.id),
          data: {},
          userId: created.id,
        });
        await this.deps.mail.send(verificationMail(input.email, created.username, this.deps.appBaseUrl, token));
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('An account with this email or username already exists');
      throw error;
    }
    return {
      user: toUserResponse(user),
      verification_required: true as const,
      message: 'Account created. Check your email to verify your address before logging in.',
    };
  }

  async login(actor: Actor, input: LoginRequest): Promise<LoginResult> {
    const { limits } = this.deps;
    const { ip } = actor.origin;
    const accountKey = `${input.email}|${ip ?? ''}`;
    const addressKey = ip ?? 'unknown';
    for (const [limiter, key] of [
      [limits.loginAccount, accountKey],
      [limits.loginAddress, addressKey],
    ] as const) {
      const state = await limiter.peek(key);
      if (!state.allowed) throw rateLimited(state.retryAfterSeconds, 'Too many failed logins; try again later');
    }

    const user = await this.deps.users.findByEmail(input.email);
    const passwordOk = user?.password_hash
      ? await this.deps.hasher.verify(user.password_hash, input.password)
      : (await this.deps.hasher.verifyDummy(input.password), false);
    if (!user || !passwordOk) {
      await limits.loginAccount.consume(accountKey);
      await limits.loginAddress.consume(addressKey);
      await this.deps.events.record(actor, 'auth.login_failed', {
        subject: onSession(),
        data: { reason: 'invalid_credentials' },
        userId: user?.id ?? null,
      });
      throw new AppError('INVALID_CREDENTIALS', 'Wrong email or password');
    }
    if (!user.is_active) throw new AppError('ACCOUNT_DISABLED', 'This account is disabled');
    const refusal = sanctionRefusal(user, this.deps.clock.now());
    if (refusal) throw refusal;
    // a suspension that has run out ends here if the job has not ended it yet
    if (user.suspended_at) await this.deps.users.clearEndedSuspension(user.id, this.deps.clock.now());
    if (!user.is_verified) throw new AppError('EMAIL_NOT_VERIFIED', 'Verify your email address before logging in');
    await limits.loginAccount.reset(accountKey);

    const rememberMe = input.remember_me ?? false;
    if (user.two_factor_enabled) {
      const challenge = randomToken();
      await this.deps.auth.insertChallenge(
        user.id,
        sha256Hex(challenge),
        rememberMe,
        new Date(this.deps.clock.now().getTime() + TWO_FACTOR_CHALLENGE_TTL_MS),
      );
      return { requires_2fa: true, user: toUserResponse(user), two_factor_token: challenge };
    }
    return {
      requires_2fa: false,
      user: toUserResponse(user),
      session: await this.startSession(actor, user, rememberMe),
    };
  }

  async loginTwoFactor(actor: Actor, input: TwoFactorLoginRequest): Promise<LoginResult> {
    const now = this.deps.clock.now();
    const challenge = await this.deps.auth.findLiveChallenge(sha256Hex(input.two_factor_token), now);
    if (!challenge) throw unauthenticated('The two-factor login has expired or was already used; log in again');
    const user = await this.deps.users.findActingById(challenge.user_id);
    if (!user || !user.two_factor_enabled) {
      // suspended or banned since the password step: said as the password step says it
      const account = await this.deps.users.findById(challenge.user_id);
      throw (account && sanctionRefusal(account, now)) || unauthenticated('This account cannot sign in');
    }
    await this.deps.twoFactor.checkLoginCode(actor, user, input.code);
    if (!(await this.deps.auth.consumeChallenge(challenge.id, now))) {
      throw unauthenticated('The two-factor login was already used; log in again');
    }
    return {
      requires_2fa: false,
      user: toUserResponse(user),
      session: await this.startSession(actor, user, challenge.remember_me),
    };
  }

  private async startSession(actor: Actor, user: UserRow, rememberMe: boolean): Promise<IssuedSession> {
    return this.deps.scope.transaction(async () => {
      const session = await this.deps.sessions.issue(actor, user, rememberMe);
      await this.deps.users.recordLogin(user.id, this.deps.clock.now());
      await this.deps.events.record(actor, 'auth.login', { subject: onSession(), data: {}, userId: user.id });
      return session;
    });
  }

  async logout(actor: UserActor, refreshToken: string) {
    await this.deps.scope.transaction(async () => {
      await this.deps.sessions.revoke(refreshToken, actor.id);
      await this.deps.events.record(actor, 'auth.logout', { subject: onSession(), data: {} });
    });
    return { message: 'Logged out' };
  }

  async refresh(actor: Actor, refreshToken: string): Promise<IssuedSession> {
    return this.deps.sessions.rotate(actor, refreshToken);
  }

  async checkUsername(username: string) {
    return { available: !(await this.deps.users.usernameTaken(username)), username };
  }

  async resendVerification(actor: Actor, email: string) {
    const user = await this.deps.users.findByEmail(email);
    if (user && !user.is_verified && (await this.deps.limits.verificationMail.consume(email)).allowed) {
      const token = randomToken();
      await this.deps.auth.replaceEmailToken(
        user.id,
        'verify_email',
        sha256Hex(token),
        new Date(this.deps.clock.now().getTime() + VERIFICATION_TTL_MS),
      );
      await this.deps.events.record(actor, 'auth.verification_resent', {
        subject: onUser(user.id),
        data: {},
        userId: user.id,
      });
      await this.deps.mail.send(verificationMail(email, user.username, this.deps.appBaseUrl, token));
    }
    return { message: GENERIC_RESEND_MESSAGE };
  }

  async verifyEmail(actor: Actor, token: string) {
    const now = this.deps.clock.now();
    const userId = await this.deps.scope.transaction(async () => {
      const id = await this.deps.auth.consumeEmailToken('verify_email', sha256Hex(token), now);
      if (!id) return undefined;
      await this.deps.users.update(id, { is_verified: true, email_verified_at: now });
      await this.deps.events.record(actor, 'auth.email_verified', { subject: onUser(id), data: {}, userId: id });
      await this.deps.listedAdmins.promote(id);
      return id;
    });
    if (!userId) throw new AppError('INVALID_TOKEN', 'The verification link is invalid, used or expired');
    return { message: 'Email verified. You can now log in.' };
  }

  async requestPasswordReset(actor: Actor, email: string) {
    const user = await this.deps.users.findByEmail(email);
    if (user && (await this.deps.limits.resetMail.consume(email)).allowed) {
      const token = randomToken();
      await this.deps.auth.replaceEmailToken(
        user.id,
        'password_reset',
        sha256Hex(token),
        new Date(this.deps.clock.now().getTime() + RESET_TTL_MS),
      );
      await this.deps.events.record(actor, 'auth.password_reset_requested', {
        subject: onUser(user.id),
        data: {},
        userId: user.id,
      });
      await this.deps.mail.send(passwordResetMail(email, user.username, this.deps.appBaseUrl, token));
    }
    return { message: GENERIC_RESET_MESSAGE };
  }

  async resetPassword(actor: Actor, input: Pick<PasswordResetConfirmRequest, 'token' | 'password'>) {
    const now = this.deps.clock.now();
    const passwordHash = await this.deps.hasher.hash(input.password);
    const userId = await this.deps.scope.transaction(async () => {
      const id = await this.deps.auth.consumeEmailToken('password_reset', sha256Hex(input.token), now);
      if (!id) return undefined;
      await this.deps.users.bumpTokenVersion(id, { password_hash: passwordHash, password_changed_at: now });
      await this.deps.auth.revokeAllForUser(id, now);
      this.deps.revocations.revoke({ userId: id, reason: 'password_reset' });
      await this.deps.events.record(actor, 'auth.password_reset', { subject: onUser(id), data: {}, userId: id });
      return id;
    });
    if (!userId) throw new AppError('INVALID_TOKEN', 'The reset link is invalid, used or expired');
    return { message: 'Password changed. Every session has been signed out; log in with the new password.' };
  }

  /**
   * Signed-in password change. Every access token stops working (token_version); every refresh
   * token is revoked except the caller's own browser session (the refresh cookie sent with the
   * request), which continues through /auth/refresh.
   */
  async changePassword(
    actor: UserActor,
    input: { current_password: string; password: string },
    callerRefreshToken: string | undefined,
  ) {
    const { limits } = this.deps;
    const user = actor.user;
    const key = `${user.email ?? user.id}|${actor.origin.ip ?? ''}`;
    const state = await limits.loginAccount.peek(key);
    if (!state.allowed) throw rateLimited(state.retryAfterSeconds, 'Too many wrong passwords; try again later');
    if (!user.password_hash || !(await this.deps.hasher.verify(user.password_hash, input.current_password))) {
      await limits.loginAccount.consume(key);
      await this.deps.events.record(actor, 'auth.password_change_failed', { subject: onUser(user.id), data: {} });
      throw new AppError('INVALID_PASSWORD', 'The current password is wrong', {
        details: [fieldIssue('current_password', 'does not match your password', '[redacted]')],
      });
    }
    await limits.loginAccount.reset(key);
    const now = this.deps.clock.now();
    const passwordHash = await this.deps.hasher.hash(input.password);
    const keepFamily = callerRefreshToken
      ? await this.deps.sessions.liveFamilyOf(callerRefreshToken, user.id)
      : undefined;
    await this.deps.scope.transaction(async () => {
      await this.deps.users.bumpTokenVersion(user.id, { password_hash: passwordHash, password_changed_at: now });
      await this.deps.auth.revokeAllForUser(user.id, now, keepFamily);
      this.deps.revocations.revoke({ userId: user.id, reason: 'password_changed' });
      await this.deps.events.record(actor, 'auth.password_changed', {
        subject: onUser(user.id),
        data: { kept_current_session: Boolean(keepFamily) },
      });
      if (user.email) await this.deps.mail.send(passwordChangedMail(user.email, user.username, now));
    });
    return {
      message: keepFamily
        ? 'Password changed. Every other session has been signed out; refresh your access token to continue.'
        : 'Password changed. Every session has been signed out; log in with the new password.',
    };
  }

  /** Minted from a key, a token names it and dies with it (the key's revocation ends it and what it opened). */
  private claimsOf(actor: UserActor) {
    return { sub: actor.id, tv: actor.user.token_version, ...(actor.key ? { key: actor.key } : {}) };
  }

  async streamToken(actor: UserActor) {
    const token = await this.deps.signer.sign(this.claimsOf(actor), 'stream', STREAM_TOKEN_TTL_SECONDS);
    return { token, expires_in: STREAM_TOKEN_TTL_SECONDS };
  }

  /** A chat token posts chat lines as its user: a key that may only read does not get one. */
  async chatToken(actor: UserActor) {
    if (!scopeAllows(actor, 'write'))
      throw new AppError(
        'INSUFFICIENT_SCOPE',
        'A chat token lets its holder write: it needs an API key with scope write',
      );
    const token = await this.deps.signer.sign(this.claimsOf(actor), 'chat', CHAT_TOKEN_TTL_SECONDS);
    return { token, expires_in: CHAT_TOKEN_TTL_SECONDS };
  }

  /** Auth's part of an erased account: every login ends, and no token, challenge or recovery code is left. */
  async eraseAccountData(owner: UserActor): Promise<void> {
    await this.deps.auth.revokeAllForUser(owner.id, this.deps.clock.now());
    await this.deps.auth.removeSecretsFor(owner.id);
  }

  /**
   * Signs the account out everywhere, as staff do it: every access token stops working
   * (token_version), every refresh token is revoked, open connections are told.
   */
  async revokeAllSessions(userId: string): Promise<void> {
    await this.deps.scope.transaction(async () => {
      await this.deps.users.bumpTokenVersion(userId);
      await this.deps.auth.revokeAllForUser(userId, this.deps.clock.now());
      this.deps.revocations.revoke({ userId, reason: 'signed_out' });
    });
  }

  /** A deactivated account is signed out everywhere, in the deactivation's transaction. */
  async signOutEverywhere(userId: string): Promise<void> {
    await this.deps.auth.revokeAllForUser(userId, this.deps.clock.now());
  }

  private async usernameFromEmail(email: string): Promise<string> {
    const base = (email.split('@')[0] ?? 'user')
      .replace(/[^A-Za-z0-9_.-]/g, '')
      .slice(0, 40)
      .padEnd(3, '0');
    if (!(await this.deps.users.usernameTaken(base))) return base;
    return `${base.slice(0, 40)}-${randomToken(4).slice(0, 6)}`;
  }
}
