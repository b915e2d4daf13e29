import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { MessageSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { named, withOpenApi } from '../../common/openapi-meta.js';
import { publicRoute, userOnlyRoute, userRoute } from '../../common/route-meta.js';
import { UserSchema } from '../users/users.schemas.js';
import {
  EmailSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  PASSWORD_MAX,
  PasswordSchema,
  RefreshRequestSchema,
  RegisterRequestSchema,
  RegisterResponseSchema,
  SetupTwoFactorResponseSchema,
  StreamTokenResponseSchema,
  TokenResponseSchema,
  TotpCodeSchema,
  UsernameSchema,
  passwordMismatch,
  passwordsMatch,
} from './auth.schemas.js';

const c = initContract();

export const authContract = c.router({
  register: {
    method: 'POST',
    path: '/auth/register',
    summary: 'Register an account',
    description:
      'Creates an unverified account and mails a verification link. No tokens are issued. While an admin has closed ' +
      'registration: 403 REGISTRATION_CLOSED.',
    metadata: publicRoute,
    body: RegisterRequestSchema,
    responses: { 201: RegisterResponseSchema, ...errors(400, 403, 409, 413, 415) },
  },
  login: {
    method: 'POST',
    path: '/auth/login',
    summary: 'Log in',
    description:
      'Answers the token pair and sets the refresh_token cookie (HttpOnly, SameSite=Strict, Path=/api/v1/auth). ' +
      'For an account with 2FA on, answers requires_2fa with a two_factor_token instead. ' +
      'Repeated failures for one account and address are refused with 429.',
    metadata: publicRoute,
    body: LoginRequestSchema,
    responses: { 200: LoginResponseSchema, ...errors(400, 401, 413, 415) },
  },
  loginTwoFactor: {
    method: 'POST',
    path: '/auth/2fa/login',
    summary: 'Complete a 2FA login',
    description:
      'Takes the two_factor_token from login and a current TOTP code (accepted once) or an unused recovery code. ' +
      'Five wrong codes lock 2FA login for 15 minutes (429).',
    metadata: publicRoute,
    body: named(
      'TwoFactorLoginRequest',
      z.object({ two_factor_token: z.string().min(1).max(512), code: z.string().trim().min(1).max(64) }),
    ),
    responses: { 200: LoginResponseSchema, ...errors(400, 401, 413, 415) },
  },
  logout: {
    method: 'POST',
    path: '/auth/logout',
    summary: 'Log out',
    description:
      'Revokes the refresh token family (body refresh_token, else the cookie; from the cookie the Origin must be allowed) and clears the cookie.',
    metadata: { ...userOnlyRoute, refreshCookie: true },
    body: RefreshRequestSchema,
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 413, 415) },
  },
  refresh: {
    method: 'POST',
    path: '/auth/refresh',
    summary: 'Rotate the refresh token',
    description:
      'Answers a new token pair and sets the new cookie. Presenting an already rotated token revokes its whole family (401 TOKEN_REUSED).',
    metadata: { ...publicRoute, refreshCookie: true },
    body: RefreshRequestSchema,
    responses: { 200: TokenResponseSchema, ...errors(400, 401, 403, 413, 415) },
  },
  me: {
    method: 'GET',
    path: '/auth/me',
    summary: 'The current user',
    metadata: userRoute,
    responses: { 200: envelope(UserSchema), ...errors(401, 403, 404) },
  },
  checkUsername: {
    method: 'GET',
    path: '/auth/check-username',
    summary: 'Is a username free',
    metadata: publicRoute,
    query: z.object({ username: UsernameSchema }),
    responses: {
      200: envelope(named('UsernameAvailability', z.object({ available: z.boolean(), username: z.string() }))),
      ...errors(400),
    },
  },
  resendVerification: {
    method: 'POST',
    path: '/auth/resend-verification',
    summary: 'Send the verification mail again',
    description:
      'Answers the same whether or not the address is known or already verified; at most one mail a minute per address.',
    metadata: publicRoute,
    body: named('ResendVerificationRequest', z.object({ email: EmailSchema })),
    responses: { 200: envelope(MessageSchema), ...errors(400, 413, 415) },
  },
  verifyEmail: {
    method: 'POST',
    path: '/auth/verify-email',
    summary: 'Verify an email address',
    description:
      'Takes the token from header X-Verify-Token. The token query parameter still works for links already sent, ' +
      'but is deprecated: such replies carry a Deprecation: true header.',
    metadata: publicRoute,
    headers: z.object({ 'x-verify-token': z.string().max(512).optional() }),
    query: z.object({
      token: withOpenApi(z.string().max(512).optional().describe('Deprecated: use the X-Verify-Token header'), {
        deprecated: true,
      }),
    }),
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400) },
  },
  streamToken: {
    method: 'POST',
    path: '/auth/stream-token',
    summary: 'Issue a stream token',
    description: 'A JWT with audience stream, valid 300 seconds, accepted only by streaming and HLS endpoints.',
    metadata: userRoute,
    body: c.noBody(),
    responses: { 200: StreamTokenResponseSchema, ...errors(401, 403) },
  },
  twoFactorSetup: {
    method: 'POST',
    path: '/auth/2fa/setup',
    summary: 'Start 2FA setup',
    description: '2FA is on only after POST /auth/2fa/verify with a valid code for this secret.',
    metadata: userOnlyRoute,
    body: c.noBody(),
    responses: { 200: envelope(SetupTwoFactorResponseSchema), ...errors(400, 401, 403) },
  },
  twoFactorVerify: {
    method: 'POST',
    path: '/auth/2fa/verify',
    summary: 'Turn 2FA on',
    metadata: userOnlyRoute,
    body: named('VerifyTwoFactorRequest', z.object({ code: TotpCodeSchema, secret: z.string().min(16).max(128) })),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 413, 415) },
  },
  twoFactorStatus: {
    method: 'GET',
    path: '/auth/2fa/status',
    summary: 'Is 2FA on',
    metadata: userRoute,
    responses: { 200: envelope(named('TwoFactorStatus', z.object({ enabled: z.boolean() }))), ...errors(401, 403) },
  },
  twoFactorDisable: {
    method: 'POST',
    path: '/auth/2fa/disable',
    summary: 'Turn 2FA off',
    description: 'Needs the password. Bumps token_version, so older access tokens stop working.',
    metadata: userOnlyRoute,
    body: named('DisableTwoFactorRequest', z.object({ password: z.string().min(1).max(PASSWORD_MAX) })),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 413, 415) },
  },
  passwordResetRequest: {
    method: 'POST',
    path: '/auth/password/reset-request',
    summary: 'Ask for a password reset mail',
    description: 'Answers the same bytes whether or not the address is known; at most one mail a minute per address.',
    metadata: publicRoute,
    body: named('PasswordResetRequest', z.object({ email: EmailSchema })),
    responses: { 200: envelope(MessageSchema), ...errors(400, 413, 415) },
  },
  passwordReset: {
    method: 'POST',
    path: '/auth/password/reset',
    summary: 'Set a new password with a reset token',
    description: 'Revokes every session of the user and bumps token_version.',
    metadata: publicRoute,
    body: named(
      'PasswordResetConfirmRequest',
      z
        .object({
          token: z.string().min(1).max(512),
          password: PasswordSchema,
          password_confirmation: z.string().max(PASSWORD_MAX),
        })
        .refine(passwordsMatch, passwordMismatch),
    ),
    responses: { 200: envelope(MessageSchema), ...errors(400, 413, 415) },
  },
  passwordChange: {
    method: 'POST',
    path: '/auth/password/change',
    summary: 'Change your password',
    description:
      'Needs the current password (a wrong one is 400 INVALID_PASSWORD; repeated wrong ones are refused with 429). ' +
      'Bumps token_version, so every access token stops working, the caller’s included; every refresh token is revoked ' +
      'except the one in the refresh_token cookie sent with this request, if any, so a browser session continues through ' +
      'POST /auth/refresh. The user is mailed that the password changed. Bearer only: never an API key.',
    metadata: userOnlyRoute,
    body: named(
      'PasswordChangeRequest',
      z
        .object({
          current_password: z.string().min(1).max(PASSWORD_MAX),
          password: PasswordSchema,
          password_confirmation: z.string().max(PASSWORD_MAX),
        })
        .refine(passwordsMatch, passwordMismatch)
        .refine((body) => body.password !== body.current_password, {
          message: 'must differ from current_password',
          path: ['password'],
        }),
    ),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 413, 415) },
  },
  chatToken: {
    method: 'GET',
    path: '/chat/token',
    summary: 'Issue a chat token',
    description:
      'A JWT with audience chat, valid 10 minutes: it opens the live socket (GET /api/v1/ws), on which its holder chats ' +
      'as the user. With an API key, the key needs scope write (or admin): a read-only key or a webhook key is 403 ' +
      'INSUFFICIENT_SCOPE. A token minted with a key dies with the key (its sockets are closed when the key is revoked).',
    metadata: userRoute,
    responses: {
      200: envelope(named('ChatToken', z.object({ token: z.string(), expires_in: z.number().int() }))),
      ...errors(401, 403),
    },
  },
});

/** Request bodies as the server receives them. */
export type TwoFactorLoginRequest = z.infer<typeof authContract.loginTwoFactor.body>;
export type VerifyTwoFactorRequest = z.infer<typeof authContract.twoFactorVerify.body>;
export type PasswordResetConfirmRequest = z.infer<typeof authContract.passwordReset.body>;
