import type { LoginRequest, PasswordResetConfirmRequest, RegisterRequest, TwoFactorLoginRequest } from '@riff/contract';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { Db } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/db-errors.js';
import type { UserRow } from '../../platform/db/database.schema.js';
import { AppError, rateLimited } from '../../platform/errors/app-error.js';
import type { PasswordHasher } from '../../platform/auth/password-hasher.js';
import { randomToken, sha256Hex } from '../../platform/auth/secure-random.js';
import type { TokenSigner } from '../../platform/auth/token-signer.js';
import type { MailQueue } from '../../platform/mail/mail-queue.js';
import type { Limiter } from '../../platform/rate-limit/rate-limiter.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { RequestContext } from '../../platform/http/request-context.js';
import { toUserResponse } from '../users/user.mapper.js';
import type { UsersRepository } from '../users/users.repository.js';
import { uniqueSlug } from '../users/slug.js';
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
  db: Db;
  scope: DbScope;
  users: UsersRepository;
  auth: AuthRepository;
  audit: AuditRepository;
  sessions: SessionService;
  twoFactor: TwoFactorService;
  hasher: PasswordHasher;
  signer: TokenSigner;
  mail: MailQueue;
  clock: Clock;
  limits: AuthLimits;
  appBaseUrl: string;
}

export type LoginResult =
  | { requires_2fa: false; user: ReturnType<typeof toUserResponse>; session: IssuedSession }
  | { requires_2fa: true; user: ReturnType<typeof toUserResponse>; two_factor_token: string };

const GENERIC_RESET_MESSAGE = 'If an account exists for this address, a password reset link has been sent.';
const GENERIC_RESEND_MESSAGE = 'If this address belongs to an unverified account, a new verification link has been sent.';

export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  async register(input: Pick<RegisterRequest, 'email' | 'password' | 'username'>, context: RequestContext) {
    const { users, clock } = this.deps;
    if (await users.emailTaken(input.email)) throw new AppError('CONFLICT', 'An account with this email already exists');
    const username = input.username ?? (await this.usernameFromEmail(input.email));
    if (await users.usernameTaken(username)) throw new AppError('CONFLICT', 'This username is taken');
    const passwordHash = await this.deps.hasher.hash(input.password);
    const token = randomToken();
    const now = clock.now();
    const slug = await uniqueSlug(users, username);

    let user: UserRow;
    try {
      user = await this.deps.scope.transaction(async () => {
        const trx = this.deps.scope.db;
        const created = await users.insert({
          email: input.email,
          username,
          slug,
          password_hash: passwordHash,
          password_changed_at: now,
          social_links: '{}',
        }, trx);
        await this.deps.auth.replaceEmailToken(created.id, 'verify_email', sha256Hex(token), new Date(now.getTime() + VERIFICATION_TTL_MS), trx);
        await this.deps.audit.record({ userId: created.id, action: 'auth.register', resource: 'user', resourceId: created.id }, context, trx);
        await this.deps.mail.send(verificationMail(input.email, created.username, this.deps.appBaseUrl, token));
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'An account with this email or username already exists');
      throw error;
    }
    return {
      user: toUserResponse(user),
      verification_required: true as const,
      message: 'Account created. Check your email to verify your address before logging in.',
    };
  }

  async login(input: LoginRequest, context: RequestContext): Promise<LoginResult> {
    const { limits } = this.deps;
    const accountKey = `${input.email}|${context.ip ?? ''}`;
    const addressKey = context.ip ?? 'unknown';
    for (const [limiter, key] of [[limits.loginAccount, accountKey], [limits.loginAddress, addressKey]] as const) {
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
      await this.deps.audit.record(
        { userId: user?.id ?? null, action: 'auth.login_failed', resource: 'session', metadata: { reason: 'invalid_credentials' } },
        context,
      );
      throw new AppError('INVALID_CREDENTIALS', 'Wrong email or password');
    }
    if (!user.is_active || user.is_banned) throw new AppError('ACCOUNT_DISABLED', 'This account is disabled');
    if (!user.is_verified) throw new AppError('EMAIL_NOT_VERIFIED', 'Verify your email address before logging in');
    await limits.loginAccount.reset(accountKey);

    const rememberMe = input.remember_me ?? false;
    if (user.two_factor_enabled) {
      const challenge = randomToken();
      await this.deps.auth.insertChallenge(user.id, sha256Hex(challenge), rememberMe, new Date(this.deps.clock.now().getTime() + TWO_FACTOR_CHALLENGE_TTL_MS));
      return { requires_2fa: true, user: toUserResponse(user), two_factor_token: challenge };
    }
    return { requires_2fa: false, user: toUserResponse(user), session: await this.startSession(user, rememberMe, context) };
  }

  async loginTwoFactor(input: TwoFactorLoginRequest, context: RequestContext): Promise<LoginResult> {
    const now = this.deps.clock.now();
    const challenge = await this.deps.auth.findLiveChallenge(sha256Hex(input.two_factor_token), now);
    if (!challenge) throw new AppError('UNAUTHENTICATED', 'The two-factor login has expired or was already used; log in again');
    const user = await this.deps.users.findActiveById(challenge.user_id);
    if (!user || !user.two_factor_enabled) throw new AppError('UNAUTHENTICATED', 'This account cannot sign in');
    await this.deps.twoFactor.checkLoginCode(user, input.code, context);
    if (!(await this.deps.auth.consumeChallenge(challenge.id, now))) {
      throw new AppError('UNAUTHENTICATED', 'The two-factor login was already used; log in again');
    }
    return { requires_2fa: false, user: toUserResponse(user), session: await this.startSession(user, challenge.remember_me, context) };
  }

  private async startSession(user: UserRow, rememberMe: boolean, context: RequestContext): Promise<IssuedSession> {
    const session = await this.deps.sessions.issue(user, rememberMe, context);
    await this.deps.users.recordLogin(user.id, this.deps.clock.now());
    await this.deps.audit.record({ userId: user.id, action: 'auth.login', resource: 'session' }, context);
    return session;
  }

  async logout(user: UserRow, refreshToken: string, context: RequestContext) {
    await this.deps.sessions.revoke(refreshToken, user.id);
    await this.deps.audit.record({ userId: user.id, action: 'auth.logout', resource: 'session' }, context);
    return { message: 'Logged out' };
  }

  async refresh(refreshToken: string, context: RequestContext): Promise<IssuedSession> {
    return this.deps.sessions.rotate(refreshToken, context);
  }

  async checkUsername(username: string) {
    return { available: !(await this.deps.users.usernameTaken(username)), username };
  }

  async resendVerification(email: string, context: RequestContext) {
    const user = await this.deps.users.findByEmail(email);
    if (user && !user.is_verified && (await this.deps.limits.verificationMail.consume(email)).allowed) {
      const token = randomToken();
      await this.deps.auth.replaceEmailToken(user.id, 'verify_email', sha256Hex(token), new Date(this.deps.clock.now().getTime() + VERIFICATION_TTL_MS));
      await this.deps.audit.record({ userId: user.id, action: 'auth.verification_resent', resource: 'user', resourceId: user.id }, context);
      await this.deps.mail.send(verificationMail(email, user.username, this.deps.appBaseUrl, token));
    }
    return { message: GENERIC_RESEND_MESSAGE };
  }

  async verifyEmail(token: string, context: RequestContext) {
    const now = this.deps.clock.now();
    const userId = await this.deps.db.transaction().execute(async (trx) => {
      const id = await this.deps.auth.consumeEmailToken('verify_email', sha256Hex(token), now, trx);
      if (id) await this.deps.users.update(id, { is_verified: true, email_verified_at: now }, trx);
      return id;
    });
    if (!userId) throw new AppError('INVALID_TOKEN', 'The verification link is invalid, used or expired');
    await this.deps.audit.record({ userId, action: 'auth.email_verified', resource: 'user', resourceId: userId }, context);
    return { message: 'Email verified. You can now log in.' };
  }

  async requestPasswordReset(email: string, context: RequestContext) {
    const user = await this.deps.users.findByEmail(email);
    if (user && (await this.deps.limits.resetMail.consume(email)).allowed) {
      const token = randomToken();
      await this.deps.auth.replaceEmailToken(user.id, 'password_reset', sha256Hex(token), new Date(this.deps.clock.now().getTime() + RESET_TTL_MS));
      await this.deps.audit.record({ userId: user.id, action: 'auth.password_reset_requested', resource: 'user', resourceId: user.id }, context);
      await this.deps.mail.send(passwordResetMail(email, user.username, this.deps.appBaseUrl, token));
    }
    return { message: GENERIC_RESET_MESSAGE };
  }

  async resetPassword(input: Pick<PasswordResetConfirmRequest, 'token' | 'password'>, context: RequestContext) {
    const now = this.deps.clock.now();
    const passwordHash = await this.deps.hasher.hash(input.password);
    const userId = await this.deps.db.transaction().execute(async (trx) => {
      const id = await this.deps.auth.consumeEmailToken('password_reset', sha256Hex(input.token), now, trx);
      if (!id) return undefined;
      await this.deps.users.bumpTokenVersion(id, { password_hash: passwordHash, password_changed_at: now }, trx);
      await this.deps.auth.revokeAllForUser(id, now, trx);
      await this.deps.audit.record({ userId: id, action: 'auth.password_reset', resource: 'user', resourceId: id }, context, trx);
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
    user: UserRow,
    input: { current_password: string; password: string },
    context: RequestContext,
    callerRefreshToken: string | undefined,
  ) {
    const { limits } = this.deps;
    const key = `${user.email ?? user.id}|${context.ip ?? ''}`;
    const state = await limits.loginAccount.peek(key);
    if (!state.allowed) throw rateLimited(state.retryAfterSeconds, 'Too many wrong passwords; try again later');
    if (!user.password_hash || !(await this.deps.hasher.verify(user.password_hash, input.current_password))) {
      await limits.loginAccount.consume(key);
      await this.deps.audit.record({ userId: user.id, action: 'auth.password_change_failed', resource: 'user', resourceId: user.id }, context);
      throw new AppError('INVALID_PASSWORD', 'The current password is wrong', {
        details: [{ field: 'current_password', message: 'does not match your password', value: '[redacted]' }],
      });
    }
    await limits.loginAccount.reset(key);
    const now = this.deps.clock.now();
    const passwordHash = await this.deps.hasher.hash(input.password);
    const keepFamily = callerRefreshToken ? await this.deps.sessions.liveFamilyOf(callerRefreshToken, user.id) : undefined;
    await this.deps.scope.transaction(async () => {
      const trx = this.deps.scope.db;
      await this.deps.users.bumpTokenVersion(user.id, { password_hash: passwordHash, password_changed_at: now }, trx);
      await this.deps.auth.revokeAllForUser(user.id, now, trx, keepFamily);
      await this.deps.audit.record(
        { userId: user.id, action: 'auth.password_changed', resource: 'user', resourceId: user.id, metadata: { kept_current_session: Boolean(keepFamily) } },
        context,
        trx,
      );
      if (user.email) await this.deps.mail.send(passwordChangedMail(user.email, user.username, now));
    });
    return {
      message: keepFamily
        ? 'Password changed. Every other session has been signed out; refresh your access token to continue.'
        : 'Password changed. Every session has been signed out; log in with the new password.',
    };
  }

  async streamToken(user: UserRow) {
    const token = await this.deps.signer.sign({ sub: user.id, tv: user.token_version }, 'stream', STREAM_TOKEN_TTL_SECONDS);
    return { token, expires_in: STREAM_TOKEN_TTL_SECONDS };
  }

  async chatToken(user: UserRow) {
    const token = await this.deps.signer.sign({ sub: user.id, tv: user.token_version }, 'chat', CHAT_TOKEN_TTL_SECONDS);
    return { token, expires_in: CHAT_TOKEN_TTL_SECONDS };
  }

  private async usernameFromEmail(email: string): Promise<string> {
    const base = (email.split('@')[0] ?? 'user').replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 40).padEnd(3, '0');
    if (!(await this.deps.users.usernameTaken(base))) return base;
    return `${base.slice(0, 40)}-${randomToken(4).slice(0, 6)}`;
  }
}
