import './auth.events.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { policyLimiter } from '../../platform/rate-limit/limit-policies.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { UsersRepository } from '../users/users.repository.js';
import { AuthRepository } from './auth.repository.js';
import { authRoutes } from './auth.routes.js';
import { AuthService } from './auth.service.js';
import { SessionService } from './session.service.js';
import { TwoFactorService } from './two-factor.service.js';

/** Registration, login (with two-factor), sessions and refresh tokens, e-mail verification, passwords. */
export function createAuthModule(platform: Platform, deps: { users: UsersRepository; audit: AuditRepository }): RiffModule {
  const { config, database, signer, clock, hasher, limits, keys, mail } = platform;
  const db = database.db;
  const { users, audit } = deps;
  const authRepository = new AuthRepository(db);
  const sessions = new SessionService({ db, users, auth: authRepository, audit, signer, clock });
  const twoFactor = new TwoFactorService({
    db,
    users,
    auth: authRepository,
    audit,
    hasher,
    secretBox: keys.secretBox('totp-secret'),
    recoveryCodeKey: keys.key('recovery-code'),
    failures: policyLimiter(limits, '2fa-failures'),
    clock,
  });
  const auth = new AuthService({
    db,
    scope: platform.scope,
    users,
    auth: authRepository,
    audit,
    sessions,
    twoFactor,
    hasher,
    signer,
    mail,
    clock,
    limits: {
      loginAccount: policyLimiter(limits, 'login-account'),
      loginAddress: policyLimiter(limits, 'login-address'),
      verificationMail: policyLimiter(limits, 'verification-mail'),
      resetMail: policyLimiter(limits, 'reset-mail'),
    },
    appBaseUrl: config.appBaseUrl,
  });
  const trustedOrigins = [new URL(config.publicBaseUrl).origin, ...config.corsOrigins];
  return { name: 'auth', routes: { auth: authRoutes({ auth, twoFactor, trustedOrigins, secureCookies: config.secureCookies }) } };
}
