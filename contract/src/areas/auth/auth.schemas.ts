import { z } from 'zod';
import { named, withOpenApi } from '../../common/openapi-meta.js';
import { UserResponseSchema } from '../users/users.schemas.js';

export const PASSWORD_MIN = 12;
/** Caps the work a client can make argon2 do. */
export const PASSWORD_MAX = 256;

export const EmailSchema = z.string().trim().toLowerCase().email().max(254);
export const PasswordSchema = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);
export const UsernameSchema = z
  .string()
  .min(3)
  .max(50)
  .regex(/^[A-Za-z0-9_.-]+$/, 'may contain only letters, digits, ".", "_" and "-"');

export const passwordsMatch = (body: { password: string; password_confirmation: string }) =>
  body.password === body.password_confirmation;
export const passwordMismatch = { message: 'must equal password', path: ['password_confirmation'] };

export const RegisterRequestSchema = named(
  'RegisterRequest',
  z
    .object({
      email: EmailSchema,
      password: PasswordSchema,
      password_confirmation: z.string().max(PASSWORD_MAX),
      username: UsernameSchema.optional().describe('3 to 50 characters; derived from the email when absent'),
    })
    .refine(passwordsMatch, passwordMismatch),
);

export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

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
    refresh_token: z
      .string()
      .describe('Opaque <id>.<secret>; rotated on every use. Also set as the refresh_token cookie'),
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

export type LoginRequest = z.infer<typeof LoginRequestSchema>;

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

export const TotpCodeSchema = z.string().regex(/^\d{6}$/, 'must be 6 digits');

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
