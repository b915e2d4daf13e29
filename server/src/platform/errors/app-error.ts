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

/** 400 VALIDATION_FAILED for one field, found wrong by a rule beyond the request schema (the same shape as a schema's). */
export const invalidField = (field: string, message: string, value?: unknown) =>
  new AppError('VALIDATION_FAILED', `${field} ${message}`, {
    details: [{ field, message, value: value === undefined ? '' : String(value) }],
  });
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
