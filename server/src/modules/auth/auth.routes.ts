import { initServer } from '@ts-rest/express';
import { ok } from '../../platform/http/envelope.js';
import { contract } from '@riff/contract';
import { principalOf } from '../../platform/auth/authenticate.middleware.js';
import { AppError } from '../../platform/errors/app-error.js';
import { requestContext } from '../../platform/http/request-context.js';
import type { AuthService, LoginResult } from './auth.service.js';
import type { TwoFactorService } from './two-factor.service.js';
import { clearRefreshCookie, presentedRefreshToken, refreshCookieOf, setRefreshCookie } from './refresh-cookie.js';
import type { Response } from 'express';
import type { IssuedSession } from './session.service.js';
import { toUserDto as toUser } from '../users/user.mapper.js';

export interface AuthRoutesDeps {
  auth: AuthService;
  twoFactor: TwoFactorService;
  /** Origins whose requests may use the refresh cookie: the service's own and CORS_ORIGINS. */
  trustedOrigins: readonly string[];
  secureCookies: boolean;
}

const s = initServer();

export function authRoutes(deps: AuthRoutesDeps) {
  const { auth, twoFactor } = deps;

  const tokenPair = (res: Response, session: IssuedSession) => {
    setRefreshCookie(res, session.refresh_token, session.refreshMaxAgeMs, deps.secureCookies);
    const { refreshMaxAgeMs: _maxAge, ...pair } = session;
    return pair;
  };

  const loginReply = (res: Response, result: LoginResult) =>
    result.requires_2fa
      ? { status: 200 as const, body: { requires_2fa: true as const, user: result.user, two_factor_token: result.two_factor_token } }
      : { status: 200 as const, body: { requires_2fa: false as const, user: result.user, token: tokenPair(res, result.session) } };

  return s.router(contract.auth, {
    register: async ({ body, req }) => ({ status: 201, body: await auth.register(body, requestContext(req)) }),

    login: async ({ body, req, res }) => loginReply(res, await auth.login(body, requestContext(req))),

    loginTwoFactor: async ({ body, req, res }) => loginReply(res, await auth.loginTwoFactor(body, requestContext(req))),

    logout: async ({ body, req, res }) => {
      const token = presentedRefreshToken(req, body?.refresh_token, deps.trustedOrigins);
      const result = await auth.logout(principalOf(req).user, token, requestContext(req));
      clearRefreshCookie(res, deps.secureCookies);
      return { status: 200, body: ok(result) };
    },

    refresh: async ({ body, req, res }) => {
      const token = presentedRefreshToken(req, body?.refresh_token, deps.trustedOrigins);
      return { status: 200, body: tokenPair(res, await auth.refresh(token, requestContext(req))) };
    },

    me: async ({ req }) => ({ status: 200, body: ok(toUser(principalOf(req).user)) }),

    checkUsername: async ({ query }) => ({ status: 200, body: ok(await auth.checkUsername(query.username)) }),

    resendVerification: async ({ body, req }) => ({ status: 200, body: ok(await auth.resendVerification(body.email, requestContext(req))) }),

    verifyEmail: async ({ headers, query, req, res }) => {
      const fromHeader = headers['x-verify-token'];
      const token = fromHeader || query.token;
      if (!token) throw new AppError('INVALID_TOKEN', 'Send the verification token in the X-Verify-Token header');
      if (!fromHeader) {
        req.log.warn('verify-email token sent as a query parameter (deprecated)');
        res.setHeader('Deprecation', 'true');
      }
      return { status: 200, body: ok(await auth.verifyEmail(token, requestContext(req))) };
    },

    streamToken: async ({ req }) => ({ status: 200, body: await auth.streamToken(principalOf(req).user) }),

    twoFactorSetup: async ({ req }) => ({ status: 200, body: ok(await twoFactor.setup(principalOf(req).user)) }),

    twoFactorVerify: async ({ body, req }) => ({
      status: 200,
      body: ok(await twoFactor.enable(principalOf(req).user, body, requestContext(req))),
    }),

    twoFactorStatus: async ({ req }) => ({ status: 200, body: ok(twoFactor.status(principalOf(req).user)) }),

    twoFactorDisable: async ({ body, req }) => ({
      status: 200,
      body: ok(await twoFactor.disable(principalOf(req).user, body.password, requestContext(req))),
    }),

    passwordResetRequest: async ({ body, req }) => ({
      status: 200,
      body: ok(await auth.requestPasswordReset(body.email, requestContext(req))),
    }),

    passwordReset: async ({ body, req }) => ({ status: 200, body: ok(await auth.resetPassword(body, requestContext(req))) }),

    passwordChange: async ({ body, req }) => ({
      status: 200,
      body: ok(await auth.changePassword(principalOf(req).user, body, requestContext(req), refreshCookieOf(req))),
    }),

    chatToken: async ({ req }) => ({ status: 200, body: ok(await auth.chatToken(principalOf(req).user)) }),
  });
}
