import { ERROR_CODES, type ErrorCode } from '@riff/contract';

export interface ValidationIssue {
  field: string;
  message: string;
  value: string;
}

/** The one error type: a stable code, its HTTP status, a message safe to show, optional details. */
export class AppError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly details: ValidationIssue[] | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { details?: ValidationIssue[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_CODES[code];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** One entry of a VALIDATION_FAILED reply's details; a missing value is sent as ''. */
export const fieldIssue = (field: string, message: string, value?: unknown): ValidationIssue => ({
  field,
  message,
  value: value == null ? '' : String(value),
});
/** 400 VALIDATION_FAILED: a request that parsed but breaks a rule, with the fields at fault when known. */
export const validationFailed = (message: string, details?: ValidationIssue[]) =>
  new AppError('VALIDATION_FAILED', message, details === undefined ? {} : { details });
/** 400 VALIDATION_FAILED for one field, found wrong by a rule beyond the request schema (the same shape as a schema's). */
export const invalidField = (field: string, message: string, value?: unknown) =>
  new AppError('VALIDATION_FAILED', `${field} ${message}`, {
    details: [{ field, message, value: value === undefined ? '' : String(value) }],
  });
/** 400 BAD_REQUEST: a well-formed request the resource's state refuses (not a field's fault). */
export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
/** 400 LIMIT_REACHED: one more would pass a count the user may hold; removing one makes room. */
export const limitReached = (message: string) => new AppError('LIMIT_REACHED', message);
/** 401 UNAUTHENTICATED: no credentials, or credentials that do not identify anyone. */
export const unauthenticated = (message: string) => new AppError('UNAUTHENTICATED', message);
/** 409 CONFLICT: the request collides with what exists (a duplicate, a sold license, a write in progress). */
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const notFound = (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (message = 'You are not allowed to do this') => new AppError('FORBIDDEN', message);
export const rateLimited = (retryAfterSeconds: number, message = 'Too many requests') =>
  new AppError('RATE_LIMITED', message, {
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
export const unavailable = (message = 'The service is unavailable for a moment', retryAfterSeconds = 1) =>
  new AppError('UNAVAILABLE', message, {
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
