import './auth.events.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { policyLimiter } from '../../platform/rate-limit/limit-policies.js';
import type { UsersRepository } from '../users/users.repository.js';
import { signOutDeactivated } from './auth.events.js';
import { AuthRepository } from './auth.repository.js';
import { authRoutes } from './auth.routes.js';
import { AuthService, type AuthServiceDeps } from './auth.service.js';
import { SessionService } from './session.service.js';
import { TwoFactorService } from './two-factor.service.js';

/**
 * Registration, login (with two-factor), sessions and refresh tokens, e-mail verification, passwords.
 * Accounts themselves belong to the users module: auth reads and writes them through its repository.
 */
export type AuthModule = RiffModule & {
  /** The area's service, for the service-level tests (routes are the only other caller). */
  services: { auth: AuthService };
  /** For the admin area: signs an account out everywhere. */
  sessions: Pick<AuthService, 'revokeAllSessions'>;
};

export function createAuthModule(
  platform: Platform,
  deps: {
    users: UsersRepository;
    registration: AuthServiceDeps['registration'];
    listedAdmins: AuthServiceDeps['listedAdmins'];
  },
): AuthModule {
  const { config, scope, events, signer, clock, hasher, limits, keys, mail } = platform;
  const { users, registration, listedAdmins } = deps;
  const authRepository = new AuthRepository(scope);
  const sessions = new SessionService({
    scope,
    users,
    auth: authRepository,
    events,
    signer,
    clock,
    successorBox: keys.secretBox('refresh-successor'),
    reuseGraceMs: config.refreshReuseGraceMs,
  });
  const twoFactor = new TwoFactorService({
    scope,
    users,
    auth: authRepository,
    events,
    hasher,
    secretBox: keys.secretBox('totp-secret'),
    recoveryCodeKey: keys.key('recovery-code'),
    failures: policyLimiter(limits, '2fa-failures'),
    clock,
    revocations: platform.revocations,
  });
  const auth = new AuthService({
    scope,
    users,
    auth: authRepository,
    events,
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
    revocations: platform.revocations,
    registration,
    listedAdmins,
  });
  const trustedOrigins = [new URL(config.publicBaseUrl).origin, ...config.corsOrigins];
  return {
    name: 'auth',
    routes: { auth: authRoutes({ auth, twoFactor, trustedOrigins, secureCookies: config.secureCookies }) },
    eventHandlers: [signOutDeactivated((userId) => auth.signOutEverywhere(userId))],
    accountData: { erase: (owner) => auth.eraseAccountData(owner) },
    services: { auth },
    sessions: { revokeAllSessions: (userId) => auth.revokeAllSessions(userId) },
  };
}
