/** Examples of the auth area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { userResponse } from '../users/users.examples.js';
import { password } from '../../common/common.examples.js';

const ACCESS_TOKEN =
  'eyJhbGciOiJFUzI1NiIsImtpZCI6InJpZmYtMjAyNi0xMSIsInR5cCI6IkpXVCJ9.' +
  'eyJzdWIiOiIwYjZmM2MyZS04ZDRhLTRmMWUtOWM3Yi0yYTVkNmU4ZjFhM2IiLCJhdWQiOiJhcGkiLCJleHAiOjE3OTU3Nzg5MDB9.' +
  'c2lnbmF0dXJlLW9mLXRoZS1hY2Nlc3MtdG9rZW4';

const REFRESH_TOKEN = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a.Qm9vay1zZWNyZXQtb2YtdGhlLXJlZnJlc2gtdG9rZW4';

const TWO_FACTOR_TOKEN = 'tf_3q9XrT2mVb8KcLw5NzYp0Hs7Ud4Ga1Ej';

const tokenResponse = {
  access_token: ACCESS_TOKEN,
  refresh_token: REFRESH_TOKEN,
  token_type: 'Bearer',
  expires_in: 900,
};

export const AUTH_EXAMPLES: Record<string, unknown> = {
  RegisterRequest: { email: 'mira@example.org', password, password_confirmation: password, username: 'mira.lane' },
  RegisterResponse: {
    user: userResponse,
    verification_required: true,
    message: 'Registered. Check your email for the verification link.',
  },
  LoginRequest: { email: 'mira@example.org', password, remember_me: false },
  TokenResponse: tokenResponse,
  LoginSuccess: { requires_2fa: false, token: tokenResponse, user: userResponse },
  LoginTwoFactorRequired: { requires_2fa: true, two_factor_token: TWO_FACTOR_TOKEN, user: userResponse },
  LoginResponse: { requires_2fa: false, token: tokenResponse, user: userResponse },
  TwoFactorLoginRequest: { two_factor_token: TWO_FACTOR_TOKEN, code: '492817' },
  RefreshRequest: { refresh_token: REFRESH_TOKEN },
  UsernameAvailability: { available: true, username: 'mira.lane' },
  ResendVerificationRequest: { email: 'mira@example.org' },
  PasswordResetRequest: { email: 'mira@example.org' },
  PasswordResetConfirmRequest: { token: 'Jb3kXv9QmT2pLw8RzN5cYh1s', password, password_confirmation: password },
  StreamTokenResponse: { token: ACCESS_TOKEN, expires_in: 300 },
  ChatToken: { token: ACCESS_TOKEN, expires_in: 600 },
  SetupTwoFactorResponse: {
    secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    qr_code_url:
      'otpauth://totp/Riff:mira%40example.org?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Riff&digits=6&period=30',
    recovery_codes: [
      'k7m2q-9xv4t',
      'p3w8z-r6n1b',
      'd5h9c-t2y7m',
      'f8q1v-w4k6s',
      'n2b7x-j9e3r',
      'g6t4p-m1z8c',
      'y9r3k-h5w2d',
      's1c6n-b8v4q',
      'w7e2j-x3m9t',
      'r4z8d-q6p1h',
    ],
  },
  VerifyTwoFactorRequest: { code: '492817', secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' },
  TwoFactorStatus: { enabled: false },
  DisableTwoFactorRequest: { password },
  Jwks: {
    keys: [
      {
        kty: 'EC',
        kid: 'riff-2026-11',
        alg: 'ES256',
        use: 'sig',
        crv: 'P-256',
        x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
        y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
      },
    ],
  },
  PasswordChangeRequest: {
    current_password: password,
    password: 'a new and longer passphrase',
    password_confirmation: 'a new and longer passphrase',
  },
};
