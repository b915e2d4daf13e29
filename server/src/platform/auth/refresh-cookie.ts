import type { RiffRequest as Request, RiffResponse as Response } from '../http/http-exchange.js';
import { API_PREFIX } from '@riff/contract';
import { AppError, fieldIssue, validationFailed } from '../errors/app-error.js';

export const REFRESH_COOKIE = 'refresh_token';
const COOKIE_PATH = `${API_PREFIX}/auth`;

export function setRefreshCookie(res: Response, token: string, maxAgeMs: number, secure: boolean): void {
  res.cookie(REFRESH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: COOKIE_PATH,
    secure,
    maxAge: maxAgeMs,
  });
}

export function clearRefreshCookie(res: Response, secure: boolean): void {
  res.clearCookie(REFRESH_COOKIE, { httpOnly: true, sameSite: 'strict', path: COOKIE_PATH, secure });
}

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The refresh token the browser sent in its cookie, if any. */
export const refreshCookieOf = (req: Request): string | undefined => readCookie(req, REFRESH_COOKIE);

/**
 * The refresh token from the body first, else from the cookie. A cookie is sent by the browser on
 * its own, so then the request must come from an allowed Origin (CSRF check); API-key requests
 * never reach here.
 */
export function presentedRefreshToken(
  req: Request,
  fromBody: string | undefined,
  allowedOrigins: readonly string[],
): string {
  if (fromBody) return fromBody;
  const fromCookie = readCookie(req, REFRESH_COOKIE);
  if (!fromCookie)
    throw validationFailed('A refresh token is required in the body or the refresh_token cookie', [
      fieldIssue('refresh_token', 'Required'),
    ]);
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || !allowedOrigins.includes(origin)) {
    throw new AppError('FORBIDDEN', 'A refresh cookie is only accepted from an allowed Origin');
  }
  return fromCookie;
}
