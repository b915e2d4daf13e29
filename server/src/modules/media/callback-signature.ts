import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a callback's timestamp may be from now (Standard Webhooks' usual tolerance). */
const TOLERANCE_SECONDS = 5 * 60;

/** The secret's key bytes: `whsec_<base64>` as Standard Webhooks writes it, else the string itself. */
function keyOf(secret: string): Buffer {
  return secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/** `v1,<base64>` of HMAC-SHA256 over `<id>.<timestamp>.<body>`: what the external transcoder sends. */
export function signCallback(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/**
 * Whether a request carries a valid Standard Webhooks signature (webhook-id, webhook-timestamp,
 * webhook-signature: space-separated `v1,<base64>` entries) over its raw body.
 */
export function verifyCallback(
  secret: string | undefined,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer | undefined,
  nowSeconds: number,
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (!secret || typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string' || !body)
    return false;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signCallback(secret, id, Number(timestamp), body));
  return signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
