import type { RiffRequest, RiffResponse } from '../http/http-exchange.js';
import { RequestValidationError } from '../http/request-validation-error.js';
import { replyBeforeBody } from '../http/request-body.js';
import type { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../db/db-errors.js';
import { AppError, badRequest, type ValidationIssue, unavailable, validationFailed } from './app-error.js';
import { describeIssue, summarize } from './validation-messages.js';

const SECRET_FIELD = /pass|token|secret|code|key/i;
const MAX_VALUE_LENGTH = 200;

function valueAt(input: unknown, path: (string | number)[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

function describeValue(field: string, value: unknown): string {
  if (value === undefined) return '';
  if (SECRET_FIELD.test(field)) return '[redacted]';
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    // nested too deeply (a JSON body of 20,000 brackets overflows the stack) to show
    text = Array.isArray(value) ? '[array]' : '[object]';
  }
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}…` : text;
}

export function issuesFrom(error: ZodError, input: unknown, prefix = ''): ValidationIssue[] {
  return error.issues.map((issue) => {
    const field = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'body';
    const value = valueAt(input, issue.path);
    return { field, message: describeIssue(issue, field, value !== undefined), value: describeValue(field, value) };
  });
}

/** ts-rest request validation failures: 400 INVALID_ID for a malformed path id, else VALIDATION_FAILED. */
function fromRequestValidation(error: RequestValidationError, req: RiffRequest): AppError {
  if (error.pathParams) {
    const issues = issuesFrom(error.pathParams, req.params);
    return new AppError('INVALID_ID', summarize(issues.map((issue) => `${issue.message} (in the path)`)), {
      details: issues,
    });
  }
  const details = [
    ...(error.headers ? issuesFrom(error.headers, req.headers, 'headers') : []),
    ...(error.query ? issuesFrom(error.query, req.query, 'query') : []),
    ...(error.body ? issuesFrom(error.body, req.body) : []),
  ];
  return validationFailed(summarize(details.map((issue) => issue.message)), details);
}

interface HttpLikeError {
  type?: string;
  status?: number;
  statusCode?: number;
}

/** Errors raised by body parsers and Express itself carry a status and a type. */
function fromHttpError(error: HttpLikeError): AppError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return badRequest('The body is not valid JSON');
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 'The body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding or charset');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return badRequest('The body could not be read');
  }
  const status = error.status ?? error.statusCode;
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'The body is too large');
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type');
  if (status !== undefined && status >= 400 && status < 500) return badRequest('Bad request');
  return undefined;
}

/** Text PostgreSQL cannot store (NUL, bad encoding) that slipped past the request checks. */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

export function toAppError(error: unknown, req: RiffRequest): AppError | undefined {
  if (error instanceof AppError) return error;
  if (UNSTORABLE_TEXT.has((error as { code?: string } | null)?.code ?? '')) {
    return validationFailed('The request contains characters that cannot be stored');
  }
  if (error instanceof RequestValidationError) return fromRequestValidation(error, req);
  const httpError = error && typeof error === 'object' ? fromHttpError(error as HttpLikeError) : undefined;
  if (httpError) return httpError;
  // checked after the body parsers' errors, so a client hanging up stays a 400 and is not taken for an outage
  if (isDatabaseUnavailable(error)) return unavailable('The database is unavailable for a moment; retry shortly', 2);
  return undefined;
}

/** The one place errors become the envelope. Unexpected errors are logged and answered 500 INTERNAL. */
export function replyWithError(error: unknown, req: RiffRequest, res: RiffResponse): void {
  const appError = toAppError(error, req) ?? new AppError('INTERNAL', 'Something went wrong on our side');
  if (appError.code === 'INTERNAL') {
    req.log.error({ err: error }, 'unhandled error');
  } else if (appError.code === 'UNAVAILABLE' && !(error instanceof AppError)) {
    req.log.warn({ err: error }, 'a dependency is unavailable');
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const [name, value] of Object.entries(appError.headers)) res.setHeader(name, value);
  const envelope = {
    success: false,
    error: {
      code: appError.code,
      message: appError.message,
      ...(appError.details ? { details: appError.details } : {}),
      request_id: String(req.id),
    },
  };
  res.status(appError.status);
  // a refusal before the body is read whole (413, 401, 415 ...): the client must still see it
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (replyBeforeBody(req, res, JSON.stringify(envelope))) return;
  res.json(envelope);
}

export const notFound = (req: Pick<RiffRequest, 'method' | 'path'>) =>
  new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`);
