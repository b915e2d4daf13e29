import express, { Router, type Request, type Response } from 'express';
import { originOf } from '../../platform/access/request-actor.js';
import type { RiffRequest } from '../../platform/http/http-exchange.js';
import { replyBeforeBody } from '../../platform/http/request-body.js';
import { REPLIED } from './rest-methods.js';
import type { SubsonicAnswer, SubsonicCall, SubsonicRest } from './subsonic-rest.js';

/** A form POST's body: a playlist of thousands of songs (a `songId=<uuid>` each) fits many times over. */
const FORM_LIMIT_BYTES = 1024 * 1024;

const CONTENT_TYPES = { xml: 'application/xml; charset=utf-8', json: 'application/json; charset=utf-8' } as const;

function callOf(req: Request, res: Response): SubsonicCall {
  const url = req.originalUrl;
  const start = url.indexOf('?');
  // the path below /rest: `/ping` or `/ping.view`; anything deeper names no method
  const method = req.path.slice(1).replace(/\.view$/, '');
  return {
    method,
    query: start === -1 ? '' : url.slice(start + 1),
    ...(typeof req.body === 'string' ? { form: req.body } : {}),
    origin: originOf(req as unknown as RiffRequest),
    http: { req, res },
  };
}

function send(req: Request, res: Response, answer: SubsonicAnswer): void {
  if (answer === REPLIED) return;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  const body = answer.body;
  res.status(200);
  res.setHeader('Content-Type', CONTENT_TYPES[answer.format]);
  // a refusal before the form was read whole (too large): the app must still see it
  if (replyBeforeBody(req, res, body)) return;
  res.send(body);
}

/**
 * The Subsonic REST API at /rest/<method> and /rest/<method>.view (outside /api/v1, where the
 * apps look for it), by GET or form POST. HTTP only: SubsonicRest answers.
 *
 * Every reply is HTTP 200 with a subsonic-response, failures included, as the apps expect; unknown
 * methods too (never a 404 page). Credentials travel in the URL or the form, never in cookies, so
 * any page may call it (Access-Control-Allow-Origin: *) and load its images and audio
 * (Cross-Origin-Resource-Policy: cross-origin); nothing is cached (the URL holds credentials).
 */
export function subsonicRouter(rest: SubsonicRest): Router {
  const router = Router();
  const form = express.text({ type: 'application/x-www-form-urlencoded', limit: FORM_LIMIT_BYTES });
  const headers = (_req: Request, res: Response, next: () => void) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
  // a web player's preflight (a Range header on audio, a form POST with headers of its own): allowed, answered empty
  router.options('/rest/{*method}', headers, (req: Request, res: Response) => {
    res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, POST, OPTIONS');
    const asked = req.get('access-control-request-headers');
    if (asked) res.setHeader('Access-Control-Allow-Headers', asked);
    res.setHeader('Access-Control-Max-Age', '86400');
    res.status(204).end();
  });
  router.use('/rest', headers, form, async (req: Request, res: Response) => {
    const call = callOf(req, res);
    send(req, res, await rest.answer(call));
  });
  // the form could not be read (too large, a bad charset): a Subsonic error, as for any other failure
  router.use('/rest', (error: unknown, req: Request, res: Response, _next: (error?: unknown) => void) => {
    const call = callOf(req, res);
    send(req, res, rest.refuse({ ...call, form: undefined }, error));
  });
  return router;
}
