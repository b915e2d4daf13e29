import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';

/** A random token of `bytes` bytes of entropy, base32 (URL- and copy-safe). */
export const randomToken = (bytes = 32) => encodeBase32LowerCaseNoPadding(randomBytes(bytes));

/** Tokens that carry their own entropy are stored as SHA-256 (no salt needed for 256-bit secrets). */
export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

export function constantTimeEqualText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters drawn uniformly from [0-9A-Za-z] (bytes past 247 are drawn again, so no character is likelier). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}
