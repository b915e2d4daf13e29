import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { DELIVERY_EXCERPT_BYTES } from '@riff/contract';
import type { CheckedUrl } from './webhook-url-guard.js';

export const USER_AGENT = 'Riff-Webhooks/1.2.0';

/** What one attempt came to. */
export interface AttemptResult {
  ok: boolean;
  status: number | null;
  excerpt: string | null;
  durationMs: number;
  error: string | null;
}

/** The connection goes to the address the guard checked, whatever the resolver would say now. */
function pinnedLookup(address: { address: string; family: number }): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  }) as unknown as LookupFunction;
}

/**
 * POSTs the signed body once: a 2xx within the timeout is success; anything else (a redirect
 * included: it is never followed) fails. Keeps the first KiB of the answer and stops reading there.
 */
export function sendOnce(
  target: CheckedUrl,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = client.request(
      target.url,
      {
        method: 'POST',
        lookup: pinnedLookup(target.address),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'content-length': String(Buffer.byteLength(body)),
        },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () => {
          const status = response.statusCode ?? 0;
          const excerpt = Buffer.concat(chunks)
            .subarray(0, DELIVERY_EXCERPT_BYTES)
            .toString('utf8')
            .replace(/\uFFFD+$/, '');
          const ok = status >= 200 && status < 300;
          finish({
            ok,
            status,
            excerpt,
            error: ok ? null : status >= 300 && status < 400 ? `Redirect (${status}) not followed` : `HTTP ${status}`,
          });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          if (kept < DELIVERY_EXCERPT_BYTES) chunks.push(chunk);
          kept += chunk.length;
          if (kept >= DELIVERY_EXCERPT_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, status: null, excerpt: null, error: `No answer within ${timeoutMs} ms` });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, status: null, excerpt: null, error: `Connection failed: ${error.code ?? error.message}` }),
    );
    request.end(body);
  });
}
