import type { AppError } from '../../platform/errors/app-error.js';

/** The error codes of the Subsonic API (OpenSubsonic adds 42, 43 and 44). */
export const SUBSONIC_ERROR = {
  generic: 0,
  missingParameter: 10,
  clientMustUpgrade: 20,
  serverMustUpgrade: 30,
  wrongCredentials: 40,
  tokenAuthNotSupported: 41,
  authMechanismNotSupported: 42,
  conflictingAuth: 43,
  invalidApiKey: 44,
  notAuthorised: 50,
  notFound: 70,
} as const;

export type SubsonicErrorCode = (typeof SUBSONIC_ERROR)[keyof typeof SUBSONIC_ERROR];

/** A refusal as Subsonic apps understand it: HTTP 200 with status "failed" and this code. */
export class SubsonicError extends Error {
  constructor(
    readonly code: SubsonicErrorCode,
    message: string,
    /** Headers the reply carries besides (Retry-After for a key over its hourly budget). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'SubsonicError';
  }
}

export const missingParameter = (name: string) =>
  new SubsonicError(SUBSONIC_ERROR.missingParameter, `Required parameter is missing: ${name}`);

/** The same message for an unknown user, a wrong password and a locked-out sign-in: none tells which. */
export const wrongCredentials = () => new SubsonicError(SUBSONIC_ERROR.wrongCredentials, 'Wrong username or password');

export const notAuthorised = (message: string) => new SubsonicError(SUBSONIC_ERROR.notAuthorised, message);

export const notFoundError = (what: string) => new SubsonicError(SUBSONIC_ERROR.notFound, `${what} not found`);

/** A bad value for a parameter that is present: Subsonic has no code of its own for it, so the generic one. */
export const invalidParameter = (name: string, expected: string) =>
  new SubsonicError(SUBSONIC_ERROR.generic, `Parameter ${name} must be ${expected}`);

/**
 * A refusal by another area's service, as the Subsonic code that means the same: what the caller may
 * not see is "not found" (70), what they may not do "not authorised" (50); a budget spent or a
 * dependency down is the generic code with Retry-After, and any other refusal the generic code with
 * the service's own message.
 */
export function fromAppError(error: AppError): SubsonicError {
  if (error.status === 404) return new SubsonicError(SUBSONIC_ERROR.notFound, error.message);
  if (error.status === 403) return new SubsonicError(SUBSONIC_ERROR.notAuthorised, error.message);
  if (error.status === 401) return new SubsonicError(SUBSONIC_ERROR.wrongCredentials, error.message);
  return new SubsonicError(SUBSONIC_ERROR.generic, error.message, error.headers);
}
