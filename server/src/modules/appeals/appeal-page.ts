import { API_PREFIX } from '@riff/contract';
import { Router, type Response } from 'express';
import { ACCOUNT_PAGES_CSP } from '../account-pages/account-pages.routes.js';
import { ACCOUNT_PAGES_CSS } from '../account-pages/account-pages.assets.js';

/**
 * GET /appeal: where the one-time link mailed with a suspension or ban leads (PUBLIC_BASE_URL, so
 * served whether or not a frontend is configured). A suspended or banned account cannot sign in:
 * the page sends the appeal with the link's token. Styled and locked down as the account pages
 * are: plain HTML, one same-origin script and stylesheet, nothing inline.
 */
export const APPEAL_PAGE_PATH = '/appeal';
const SCRIPT_PATH = '/appeal/appeal.js';
const STYLE_PATH = '/appeal/appeal.css';
const MESSAGE_MAX = 5000;

// method=post and CSP form-action 'none': without the script nothing leaves the page
export const APPEAL_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Appeal a decision · Riff</title>
<link rel="stylesheet" href="${STYLE_PATH}">
</head>
<body data-page="appeal">
<main>
<h1>Appeal a decision</h1>
<p>Tell the moderators why the decision about your account should be reconsidered. Another member of staff will review it; you will hear of the outcome by email or in your inbox once you can sign in.</p>
<form id="appeal-form" method="post">
<label for="message">Your appeal</label>
<textarea id="message" name="message" rows="8" minlength="1" maxlength="${MESSAGE_MAX}" required></textarea>
<button type="submit">Send the appeal</button>
</form>
<p id="status" role="status" aria-live="polite"></p>
<noscript><p class="error">This page needs JavaScript to talk to Riff.</p></noscript>
</main>
<script src="${SCRIPT_PATH}"></script>
</body>
</html>
`;

const APPEAL_CSS = `${ACCOUNT_PAGES_CSS}textarea{box-sizing:border-box;width:100%;padding:.6rem;font-size:1rem;font-family:inherit}
`;

/** Reads the token from the link, drops it from the address bar, sends the appeal once. */
export const APPEAL_SCRIPT = `(function () {
  'use strict';
  var API = ${JSON.stringify(API_PREFIX)};
  var token = new URLSearchParams(window.location.search).get('token') || '';
  if (window.location.search) window.history.replaceState(null, '', window.location.pathname);
  var status = document.getElementById('status');
  var form = document.getElementById('appeal-form');
  function show(text, kind) {
    status.textContent = text;
    status.className = kind;
  }
  function problem(body) {
    var error = body && body.error;
    if (!error) return 'Something went wrong. Try again in a moment.';
    var details = (error.details || []).map(function (detail) { return detail.message; });
    return details.length > 0 ? error.message + '\\n' + details.join('\\n') : error.message;
  }
  if (!token) {
    form.hidden = true;
    show('This link has no token. Open the link from your email again.', 'error');
    return;
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var button = form.querySelector('button');
    var message = String(new FormData(form).get('message') || '').trim();
    if (!message) {
      show('Write why the decision should be reconsidered.', 'error');
      return;
    }
    button.disabled = true;
    show('Sending…', 'pending');
    fetch(API + '/appeals/by-token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: token, message: message })
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (body) {
        return { ok: response.ok, body: body };
      });
    }, function () {
      return { ok: false, body: null };
    }).then(function (result) {
      button.disabled = false;
      if (result.ok) {
        form.hidden = true;
        show('Your appeal was sent. The moderators will review it.', 'ok');
      } else {
        show(problem(result.body), 'error');
      }
    });
  });
})();
`;

function send(res: Response, type: string, body: string, cache: string): void {
  res.setHeader('Content-Security-Policy', ACCOUNT_PAGES_CSP);
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', cache);
  res.type(type).send(body);
}

export function appealPageRouter(): Router {
  const router = Router();
  // the link carries a token: never cache the page
  router.get(APPEAL_PAGE_PATH, (_req, res) => send(res, 'html', APPEAL_HTML, 'no-store'));
  router.get(SCRIPT_PATH, (_req, res) => send(res, 'application/javascript', APPEAL_SCRIPT, 'public, max-age=300'));
  router.get(STYLE_PATH, (_req, res) => send(res, 'text/css', APPEAL_CSS, 'public, max-age=300'));
  return router;
}
