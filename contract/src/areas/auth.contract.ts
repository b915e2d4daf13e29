import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { MessageSchema } from '../common/common.schemas.js';
import { envelope, errors } from '../common/envelope.schemas.js';
import { named, withOpenApi } from '../common/openapi-meta.js';
import { publicRoute, userOnlyRoute, userRoute } from '../common/route-meta.js';
import { UserResponseSchema, UserSchema } from './users.schemas.js';

const c = initContract();

export const PASSWORD_MIN = 12;
/** Caps the work a client can make argon2 do. */
export const PASSWORD_MAX = 256;

export const EmailSchema = z.string().trim().toLowerCase().email().max(254);
const PasswordSchema = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);
export const UsernameSchema = z
  .string()
  .min(3)
  .max(50)
  .regex(/^[A-Za-z0-9_.-]+$/, 'may contain only letters, digits, ".", "_" and "-"');

const passwordsMatch = (body: { password: string; password_confirmation: string }) =>
  body.password === body.password_confirmation;
const mismatch = { message: 'must equal password', path: ['password_confirmation'] };

export const RegisterRequestSchema = named(
  'RegisterRequest',
  z
    .object({
      email: EmailSchema,
      password: PasswordSchema,
      password_confirmation: z.string().max(PASSWORD_MAX),
      username: UsernameSchema.optional().describe('3 to 50 characters; derived from the email when absent'),
    })
    .refine(passwordsMatch, mismatch),
);

export const RegisterResponseSchema = named(
  'RegisterResponse',
  z.object({
    user: UserResponseSchema,
    verification_required: z.literal(true),
    message: z.string(),
  }),
);

export const TokenResponseSchema = named(
  'TokenResponse',
  z.object({
    access_token: z.string().describe('JWT, valid 15 minutes; send as Authorization: Bearer <token>'),
    refresh_token: z.string().describe('Opaque <id>.<secret>; rotated on every use. Also set as the refresh_token cookie'),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().describe('Access token lifetime in seconds'),
  }),
);

/** A login that issued tokens: requires_2fa is false and token is present. */
export const LoginSuccessSchema = named(
  'LoginSuccess',
  z.object({
    requires_2fa: z.literal(false),
    token: TokenResponseSchema,
    user: UserResponseSchema,
  }),
);

/** A login that needs a second factor: no tokens yet, a two_factor_token for POST /auth/2fa/login. */
export const LoginTwoFactorRequiredSchema = named(
  'LoginTwoFactorRequired',
  z.object({
    requires_2fa: z.literal(true),
    two_factor_token: z.string().describe('Single use, valid 5 minutes, for POST /auth/2fa/login'),
    user: UserResponseSchema,
  }),
);

/** Discriminated on requires_2fa, so a client that checks it knows whether token is there. */
export const LoginResponseSchema = named(
  'LoginResponse',
  withOpenApi(z.discriminatedUnion('requires_2fa', [LoginSuccessSchema, LoginTwoFactorRequiredSchema]), {
    // OpenAPI 3.0 discriminators name string values; the literal requires_2fa already tells the branches apart
    discriminator: undefined,
  }),
);

export const LoginRequestSchema = named(
  'LoginRequest',
  z.object({
    email: EmailSchema,
    password: z.string().min(1).max(PASSWORD_MAX),
    remember_me: z.boolean().optional().describe('Refresh token lives 30 days instead of 7'),
  }),
);

export const RefreshRequestSchema = named(
  'RefreshRequest',
  z
    .object({
      refresh_token: z.string().min(1).max(512).optional().describe('Taken from the refresh_token cookie when absent'),
    })
    .optional(),
);

export const SetupTwoFactorResponseSchema = named(
  'SetupTwoFactorResponse',
  z.object({
    secret: z.string().describe('Base32 TOTP secret'),
    qr_code_url: z.string().describe('otpauth://totp/ URI to show as a QR code'),
    recovery_codes: z.array(z.string()).describe('Ten single-use codes, shown only now'),
  }),
);

const TotpCodeSchema = z.string().regex(/^\d{6}$/, 'must be 6 digits');

export const StreamTokenResponseSchema = named(
  'StreamTokenResponse',
  z.object({
    token: z.string(),
    expires_in: z.number().int().describe('Seconds'),
  }),
);

export const JwksSchema = named(
  'Jwks',
  z.object({
    keys: z.array(
      z.object({
        kty: z.string(),
        kid: z.string(),
        alg: z.string(),
        use: z.string(),
        crv: z.string().optional(),
        x: z.string().optional(),
        y: z.string().optional(),
      }),
    ),
  }),
);

export const authContract = c.router({
  register: {
    method: 'POST',
    path: '/auth/register',
    summary: 'Register an account',
    description: 'Creates an unverified account and mails a verification link. No tokens are issued.',
    metadata: publicRoute,
    body: RegisterRequestSchema,
    responses: { 201: RegisterResponseSchema, ...errors(400, 409, 413, 415) },
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
    description: 'Answers the same whether or not the address is known or already verified; at most one mail a minute per address.',
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
      token: withOpenApi(z.string().max(512).optional().describe('Deprecated: use the X-Verify-Token header'), { deprecated: true }),
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
    responses: { 200: envelope(SetupTwoFactorResponseSchema), ...errors(400, 401) },
  },
  twoFactorVerify: {
    method: 'POST',
    path: '/auth/2fa/verify',
    summary: 'Turn 2FA on',
    metadata: userOnlyRoute,
    body: named('VerifyTwoFactorRequest', z.object({ code: TotpCodeSchema, secret: z.string().min(16).max(128) })),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 413, 415) },
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
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 413, 415) },
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
        .refine(passwordsMatch, mismatch),
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
        .refine(passwordsMatch, mismatch)
        .refine((body) => body.password !== body.current_password, {
          message: 'must differ from current_password',
          path: ['password'],
        }),
    ),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 413, 415) },
  },
  chatToken: {
    method: 'GET',
    path: '/chat/token',
    summary: 'Issue a chat token',
    description: 'A JWT with audience chat, valid 10 minutes.',
    metadata: userRoute,
    responses: {
      200: envelope(named('ChatToken', z.object({ token: z.string(), expires_in: z.number().int() }))),
      ...errors(401, 403),
    },
  },
});

