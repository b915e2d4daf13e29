import type { RiffResponse as Response } from '../../platform/http/http-exchange.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { contract } from '@riff/contract';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import {
  clearRefreshCookie,
  presentedRefreshToken,
  refreshCookieOf,
  setRefreshCookie,
} from '../../platform/auth/refresh-cookie.js';
import { AppError } from '../../platform/errors/app-error.js';
import { ok } from '../../platform/http/envelope.js';
import { toUserDto as toUser } from '../users/user.mapper.js';
import type { AuthService, LoginResult } from './auth.service.js';
import type { IssuedSession } from './session.service.js';
import type { TwoFactorService } from './two-factor.service.js';

export interface AuthRoutesDeps {
  auth: AuthService;
  twoFactor: TwoFactorService;
  /** Origins whose requests may use the refresh cookie: the service's own and CORS_ORIGINS. */
  trustedOrigins: readonly string[];
  secureCookies: boolean;
}

export function authRoutes(deps: AuthRoutesDeps) {
  const { auth, twoFactor } = deps;

  const tokenPair = (res: Response, session: IssuedSession) => {
    setRefreshCookie(res, session.refresh_token, session.refreshMaxAgeMs, deps.secureCookies);
    const { refreshMaxAgeMs: _maxAge, ...pair } = session;
    return pair;
  };

  const loginReply = (res: Response, result: LoginResult) =>
    result.requires_2fa
      ? {
          status: 200 as const,
          body: { requires_2fa: true as const, user: result.user, two_factor_token: result.two_factor_token },
        }
      : {
          status: 200 as const,
          body: { requires_2fa: false as const, user: result.user, token: tokenPair(res, result.session) },
        };

  return contractRoutes(contract.auth, {
    register: async ({ body, req }) => ({ status: 201, body: await auth.register(actorOf(req), body) }),

    login: async ({ body, req, res }) => loginReply(res, await auth.login(actorOf(req), body)),

    loginTwoFactor: async ({ body, req, res }) => loginReply(res, await auth.loginTwoFactor(actorOf(req), body)),

    logout: async ({ body, req, res }) => {
      const token = presentedRefreshToken(req, body?.refresh_token, deps.trustedOrigins);
      const result = await auth.logout(signedInActor(req), token);
      clearRefreshCookie(res, deps.secureCookies);
      return { status: 200, body: ok(result) };
    },

    refresh: async ({ body, req, res }) => {
      const token = presentedRefreshToken(req, body?.refresh_token, deps.trustedOrigins);
      return { status: 200, body: tokenPair(res, await auth.refresh(actorOf(req), token)) };
    },

    me: async ({ req }) => ({ status: 200, body: ok(toUser(signedInActor(req).user)) }),

    checkUsername: async ({ query }) => ({ status: 200, body: ok(await auth.checkUsername(query.username)) }),

    resendVerification: async ({ body, req }) => ({
      status: 200,
      body: ok(await auth.resendVerification(actorOf(req), body.email)),
    }),

    verifyEmail: async ({ headers, query, req, res }) => {
      const fromHeader = headers['x-verify-token'];
      const token = fromHeader || query.token;
      if (!token) throw new AppError('INVALID_TOKEN', 'Send the verification token in the X-Verify-Token header');
      if (!fromHeader) {
        req.log.warn('verify-email token sent as a query parameter (deprecated)');
        res.setHeader('Deprecation', 'true');
      }
      return { status: 200, body: ok(await auth.verifyEmail(actorOf(req), token)) };
    },

    streamToken: async ({ req }) => ({ status: 200, body: await auth.streamToken(signedInActor(req)) }),

    twoFactorSetup: async ({ req }) => ({ status: 200, body: ok(await twoFactor.setup(signedInActor(req))) }),

    twoFactorVerify: async ({ body, req }) => ({
      status: 200,
      body: ok(await twoFactor.enable(signedInActor(req), body)),
    }),

    twoFactorStatus: async ({ req }) => ({ status: 200, body: ok(twoFactor.status(signedInActor(req))) }),

    twoFactorDisable: async ({ body, req }) => ({
      status: 200,
      body: ok(await twoFactor.disable(signedInActor(req), body.password)),
    }),

    passwordResetRequest: async ({ body, req }) => ({
      status: 200,
      body: ok(await auth.requestPasswordReset(actorOf(req), body.email)),
    }),

    passwordReset: async ({ body, req }) => ({ status: 200, body: ok(await auth.resetPassword(actorOf(req), body)) }),

    passwordChange: async ({ body, req }) => ({
      status: 200,
      body: ok(await auth.changePassword(signedInActor(req), body, refreshCookieOf(req))),
    }),

    chatToken: async ({ req }) => ({ status: 200, body: ok(await auth.chatToken(signedInActor(req))) }),
  });
}
