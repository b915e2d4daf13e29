import { createHmac } from 'node:crypto';
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';
import { decodeBase32IgnorePadding, encodeBase32UpperCaseNoPadding } from '@oslojs/encoding';
import { randomBytes } from 'node:crypto';
import type { VerifyTwoFactorRequest } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { UserRow } from '../users/users.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, rateLimited } from '../../platform/errors/app-error.js';
import type { PasswordHasher } from '../../platform/auth/password-hasher.js';
import type { Revocations } from '../../platform/auth/revocations.js';
import { constantTimeEqualText, randomToken } from '../../platform/auth/secure-random.js';
import type { SecretBox } from '../../platform/auth/secret-box.js';
import type { Limiter } from '../../platform/rate-limit/rate-limiter.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { UsersRepository } from '../users/users.repository.js';
import { onSession, onUser } from './auth.events.js';
import type { AuthRepository } from './auth.repository.js';

const PERIOD_SECONDS = 30;
const DIGITS = 6;
const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Riff';

export interface TwoFactorDeps {
  scope: DbScope;
  users: UsersRepository;
  auth: AuthRepository;
  events: EventBus;
  hasher: PasswordHasher;
  secretBox: SecretBox;
  /** Recovery codes are stored as HMAC-SHA256 under this key, so a database copy alone cannot guess them. */
  recoveryCodeKey: Buffer;
  /** Wrong 2FA login codes per user: five lock 2FA login for 15 minutes. */
  failures: Limiter;
  clock: Clock;
  revocations: Revocations;
}

const normalizeSecret = (secret: string) => secret.replace(/[\s=]/g, '').toUpperCase();
const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** TOTP (RFC 6238: SHA-1, 6 digits, 30 s, one step of drift) with replay protection, and recovery codes. */
export class TwoFactorService {
  constructor(private readonly deps: TwoFactorDeps) {}

  private hashRecoveryCode(code: string): string {
    return createHmac('sha256', this.deps.recoveryCodeKey).update(normalizeRecoveryCode(code)).digest('hex');
  }

  /** The time step a code matches within one step of drift, or undefined. */
  private matchingStep(key: Uint8Array, code: string): number | undefined {
    if (!/^\d{6}$/.test(code)) return undefined;
    const current = Math.floor(this.deps.clock.now().getTime() / 1000 / PERIOD_SECONDS);
    for (const step of [current - 1, current, current + 1]) {
      if (constantTimeEqualText(generateHOTP(key, BigInt(step), DIGITS), code)) return step;
    }
    return undefined;
  }

  async setup(actor: UserActor) {
    const user = actor.user;
    if (user.two_factor_enabled)
      throw new AppError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already on');
    const key = new Uint8Array(randomBytes(20));
    const secret = encodeBase32UpperCaseNoPadding(key);
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
      const raw = randomToken(8).slice(0, 10);
      return `${raw.slice(0, 5)}-${raw.slice(5)}`;
    });
    await this.deps.users.update(user.id, { two_factor_pending_secret: this.deps.secretBox.seal(secret) });
    await this.deps.auth.replacePendingRecoveryCodes(
      user.id,
      recoveryCodes.map((code) => this.hashRecoveryCode(code)),
    );
    return {
      secret,
      qr_code_url: createTOTPKeyURI(ISSUER, user.email ?? user.username, key, PERIOD_SECONDS, DIGITS),
      recovery_codes: recoveryCodes,
    };
  }

  async enable(actor: UserActor, input: VerifyTwoFactorRequest) {
    const user = actor.user;
    if (user.two_factor_enabled)
      throw new AppError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already on');
    const pending = user.two_factor_pending_secret
      ? this.deps.secretBox.open(user.two_factor_pending_secret)
      : undefined;
    if (!pending || !constantTimeEqualText(pending, normalizeSecret(input.secret))) {
      throw new AppError('INVALID_CODE', 'This secret does not match the last setup; start setup again');
    }
    const step = this.matchingStep(decodeBase32IgnorePadding(pending), input.code);
    if (step === undefined) throw new AppError('INVALID_CODE', 'The code is not valid for this secret');
    await this.deps.scope.transaction(async () => {
      await this.deps.users.update(user.id, {
        two_factor_enabled: true,
        two_factor_secret: user.two_factor_pending_secret,
        two_factor_pending_secret: null,
        two_factor_last_step: step,
      });
      await this.deps.auth.activatePendingRecoveryCodes(user.id);
      await this.deps.events.record(actor, 'auth.2fa_enabled', { subject: onUser(user.id), data: {} });
    });
    return { message: 'Two-factor authentication is on' };
  }

  status(actor: UserActor) {
    return { enabled: actor.user.two_factor_enabled };
  }

  async disable(actor: UserActor, password: string) {
    const user = actor.user;
    if (!user.two_factor_enabled) throw new AppError('TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is not on');
    if (!user.password_hash || !(await this.deps.hasher.verify(user.password_hash, password))) {
      throw new AppError('INVALID_PASSWORD', 'The password is wrong');
    }
    await this.deps.scope.transaction(async () => {
      await this.deps.users.bumpTokenVersion(user.id, {
        two_factor_enabled: false,
        two_factor_secret: null,
        two_factor_pending_secret: null,
        two_factor_last_step: null,
      });
      await this.deps.auth.deleteRecoveryCodes(user.id);
      this.deps.revocations.revoke({ userId: user.id, reason: 'two_factor_disabled' });
      await this.deps.events.record(actor, 'auth.2fa_disabled', { subject: onUser(user.id), data: {} });
    });
    return { message: 'Two-factor authentication is off' };
  }

  /** Accepts a fresh TOTP code once, or an unused recovery code once; counts and locks failures. */
  async checkLoginCode(actor: Actor, user: UserRow, code: string): Promise<void> {
    const state = await this.deps.failures.peek(user.id);
    if (!state.allowed)
      throw rateLimited(state.retryAfterSeconds, 'Too many wrong codes; two-factor login is locked for 15 minutes');
    if (await this.accepts(user, code)) {
      await this.deps.failures.reset(user.id);
      return;
    }
    const after = await this.deps.failures.consume(user.id);
    await this.deps.events.record(actor, 'auth.2fa_login_failed', { subject: onSession(), data: {}, userId: user.id });
    if (!after.allowed)
      throw rateLimited(after.retryAfterSeconds, 'Too many wrong codes; two-factor login is locked for 15 minutes');
    throw new AppError('INVALID_CREDENTIALS', 'The code is wrong or was already used');
  }

  private async accepts(user: UserRow, code: string): Promise<boolean> {
    if (!user.two_factor_secret) return false;
    const trimmed = code.trim();
    const step = this.matchingStep(
      decodeBase32IgnorePadding(this.deps.secretBox.open(user.two_factor_secret)),
      trimmed,
    );
    if (step !== undefined) return this.deps.users.advanceTwoFactorStep(user.id, step);
    if (/^\d{6}$/.test(trimmed)) return false;
    return this.deps.auth.consumeRecoveryCode(user.id, this.hashRecoveryCode(trimmed), this.deps.clock.now());
  }
}
