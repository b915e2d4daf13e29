import { API_PREFIX } from '@riff/contract';

/**
 * The two pages a mail link opens when no frontend is configured (APP_BASE_URL unset): plain HTML,
 * one same-origin script and one stylesheet, nothing inline, nothing from elsewhere.
 */

export const SCRIPT_PATH = '/account/account.js';
export const STYLE_PATH = '/account/account.css';

function page(kind: 'verify' | 'reset', title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Riff</title>
<link rel="stylesheet" href="${STYLE_PATH}">
</head>
<body data-page="${kind}">
<main>
<h1>${title}</h1>
${body}
<p id="status" role="status" aria-live="polite"></p>
<noscript><p class="error">This page needs JavaScript to talk to Riff.</p></noscript>
</main>
<script src="${SCRIPT_PATH}"></script>
</body>
</html>
`;
}

export const VERIFY_EMAIL_HTML = page('verify', 'Confirm your email address', '');

// method=post and CSP form-action 'none': without the script the password never leaves the page
export const RESET_PASSWORD_HTML = page(
  'reset',
  'Choose a new password',
  `<form id="reset-form" method="post">
<label for="password">New password (at least 12 characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" maxlength="256" required>
<label for="password_confirmation">The same password again</label>
<input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password" minlength="12" maxlength="256" required>
<button type="submit">Set the new password</button>
</form>`,
);

export const ACCOUNT_PAGES_CSS = `body{font-family:system-ui,sans-serif;margin:0;background:#f6f6f8;color:#1d1d24}
main{max-width:26rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:.75rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin-top:0}
label{display:block;margin:1rem 0 .3rem}
input{box-sizing:border-box;width:100%;padding:.6rem;font-size:1rem}
button{margin-top:1.2rem;padding:.6rem 1.2rem;font-size:1rem;cursor:pointer}
#status{white-space:pre-line}
.ok{color:#176b2c}.error{color:#a4161a}.pending{color:#555}
[hidden]{display:none}
`;

/** What the pages do: read the token from the link, drop it from the address bar, call the API. */
export const ACCOUNT_PAGES_SCRIPT = `(function () {
  'use strict';
  var API = ${JSON.stringify(API_PREFIX)};
  var page = document.body.getAttribute('data-page');
  var token = new URLSearchParams(window.location.search).get('token') || '';
  if (window.location.search) window.history.replaceState(null, '', window.location.pathname);
  var status = document.getElementById('status');
  function show(text, kind) {
    status.textContent = text;
    status.className = kind;
  }
  function problem(body) {
    var error = body && body.error;
    if (!error) return 'Something went wrong. Try again in a moment.';
    var details = (error.details || []).map(function (detail) { return detail.message; });
    return details.length > 0 ? details.join('\\n') : error.message;
  }
  function call(path, init) {
    return fetch(API + path, init).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (body) {
        return { ok: response.ok, body: body };
      });
    }, function () {
      return { ok: false, body: null };
    });
  }
  var form = document.getElementById('reset-form');
  if (!token) {
    if (form) form.hidden = true;
    show('This link has no token. Open the link from your email again.', 'error');
    return;
  }
  if (page === 'verify') {
    show('Confirming your email address…', 'pending');
    call('/auth/verify-email', { method: 'POST', headers: { 'X-Verify-Token': token } }).then(function (result) {
      if (result.ok) show(result.body.data.message, 'ok');
      else show(problem(result.body), 'error');
    });
  }
  if (page === 'reset' && form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var button = form.querySelector('button');
      var fields = new FormData(form);
      button.disabled = true;
      show('Saving…', 'pending');
      call('/auth/password/reset', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: token, password: fields.get('password'), password_confirmation: fields.get('password_confirmation') })
      }).then(function (result) {
        button.disabled = false;
        if (result.ok) {
          form.hidden = true;
          show(result.body.data.message, 'ok');
        } else {
          show(problem(result.body), 'error');
        }
      });
    });
  }
})();
`;
