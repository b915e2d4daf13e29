import { API_PREFIX, ERROR_CODES, type ErrorCode } from '@riff/contract';

/** Text made safe for HTML element content and quoted attributes. */
const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

interface SecurityScheme {
  type: string;
  scheme?: string;
  in?: string;
  name?: string;
  description?: string;
}

/** Where a client puts a scheme's credential, as a reader would write it. */
function carriedIn(scheme: SecurityScheme): string {
  if (scheme.type === 'http')
    return `<code>Authorization: ${escapeHtml(scheme.scheme === 'bearer' ? 'Bearer' : (scheme.scheme ?? ''))} …</code>`;
  if (scheme.in === 'header') return `<code>${escapeHtml(scheme.name ?? '')}</code> header`;
  if (scheme.in === 'cookie') return `<code>${escapeHtml(scheme.name ?? '')}</code> cookie`;
  if (scheme.in === 'query') return `<code>?${escapeHtml(scheme.name ?? '')}=</code> query parameter`;
  return escapeHtml(scheme.type);
}

function authenticationTable(schemes: Record<string, SecurityScheme>): string {
  const rows = Object.entries(schemes).map(
    ([name, scheme]) =>
      `<tr><td><code>${escapeHtml(name)}</code></td><td>${carriedIn(scheme)}</td><td>${escapeHtml(scheme.description ?? '')}</td></tr>`,
  );
  return `<table><thead><tr><th>Scheme</th><th>Sent as</th><th>What it is</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Every stable error code, grouped by the HTTP status it is sent with. */
function errorCodeTable(): string {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(ERROR_CODES) as [ErrorCode, number][])
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  const rows = [...byStatus]
    .sort(([a], [b]) => a - b)
    .map(
      ([status, codes]) =>
        `<tr><td>${status}</td><td>${codes.map((code) => `<code>${code}</code>`).join(' ')}</td></tr>`,
    );
  return `<table><thead><tr><th>Status</th><th>error.code</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const STYLE = `
.riff-front{max-width:1460px;margin:0 auto;padding:16px 20px 0;font-family:sans-serif;color:#3b4151;font-size:14px}
.riff-front details{margin:0 0 12px}
.riff-front summary{font-size:18px;font-weight:bold;cursor:pointer}
.riff-front table{border-collapse:collapse;margin-top:8px}
.riff-front th,.riff-front td{border-bottom:1px solid #e0e0e0;padding:4px 10px;text-align:left;vertical-align:top}
.riff-front code{font-size:13px}
`;

/**
 * The /docs page: what every client needs before any operation (the authentication schemes and the
 * error codes) as plain HTML, where a browser's find reaches it, then Swagger UI with its filter.
 */
export function docsPage(document: { components?: { securitySchemes?: Record<string, SecurityScheme> } }): string {
  const schemes = document.components?.securitySchemes ?? {};
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Riff API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<style>${STYLE}</style>
</head>
<body>
<section class="riff-front">
<p>The OpenAPI document: <a href="${API_PREFIX}/openapi.json">${API_PREFIX}/openapi.json</a>. Type in the filter box below to find an
operation by its name (operationId), summary, path, method or tag; each operation has a link of its own.</p>
<details open id="authentication"><summary>Authentication</summary>${authenticationTable(schemes)}</details>
<details open id="error-codes"><summary>Error codes</summary>
<p>Every failure is <code>{"success":false,"error":{"code","message","details"?,"request_id"}}</code>; <code>code</code> is one of these.</p>
${errorCodeTable()}</details>
</section>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;
}
