import { hkdfSync } from 'node:crypto';
import { createSecretBox, type SecretBox } from './secret-box.js';

/** Every purpose a key is derived for; a new purpose is a new name here, never a reused one. */
export type KeyPurpose =
  | 'job-data'
  | 'totp-secret'
  | 'recovery-code'
  | 'refresh-successor'
  | 'webhook-secret'
  | 'track-secret-link'
  | 'play-listener'
  | 'payment-sandbox'
  | 'marketplace-download'
  | 'app-password';

/**
 * Keys derived from SECRET_KEY, one per purpose (HKDF-SHA256): a key leaked from one use
 * reveals nothing of the others, and rotating SECRET_KEY rotates them all.
 */
export interface KeyRing {
  key(purpose: KeyPurpose): Buffer;
  /** Authenticated encryption under the purpose's key. */
  secretBox(purpose: KeyPurpose): SecretBox;
}

export function createKeyRing(secret: Buffer): KeyRing {
  const key = (purpose: KeyPurpose) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `riff:${purpose}`, 32));
  return { key, secretBox: (purpose) => createSecretBox(key(purpose)) };
}
