import { Router, type Response } from 'express';
import {
  ACCOUNT_PAGES_CSS,
  ACCOUNT_PAGES_SCRIPT,
  RESET_PASSWORD_HTML,
  SCRIPT_PATH,
  STYLE_PATH,
  VERIFY_EMAIL_HTML,
} from './account-pages.assets.js';

/** Only this origin's script and stylesheet; the script may only call this origin; no forms, frames or base. */
export const ACCOUNT_PAGES_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

function send(res: Response, type: string, body: string, cache: string): void {
  res.setHeader('Content-Security-Policy', ACCOUNT_PAGES_CSP);
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', cache);
  res.type(type).send(body);
}

/**
 * GET /verify-email and GET /reset-password: where the links in verification and reset mails
 * lead when APP_BASE_URL names no frontend. They finish the flow through the API.
 */
export function accountPagesRouter(): Router {
  const router = Router();
  // the link carries a token: never cache the page
  router.get('/verify-email', (_req, res) => send(res, 'html', VERIFY_EMAIL_HTML, 'no-store'));
  router.get('/reset-password', (_req, res) => send(res, 'html', RESET_PASSWORD_HTML, 'no-store'));
  router.get(SCRIPT_PATH, (_req, res) =>
    send(res, 'application/javascript', ACCOUNT_PAGES_SCRIPT, 'public, max-age=300'),
  );
  router.get(STYLE_PATH, (_req, res) => send(res, 'text/css', ACCOUNT_PAGES_CSS, 'public, max-age=300'));
  return router;
}
