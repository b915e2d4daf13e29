import { hash, verify } from '@node-rs/argon2';

/** argon2id, 19 MiB, 2 passes, parallelism 1 (OWASP's baseline). */
// algorithm 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read)
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spends the same time as a real verification, for unknown accounts. */
  verifyDummy(password: string): Promise<void>;
}

export function createPasswordHasher(): PasswordHasher {
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, OPTIONS),
    verify: async (stored, password) => {
      try {
        return await verify(stored, password);
      } catch {
        return false;
      }
    },
    verifyDummy: async (password) => {
      dummy ??= hash('riff-dummy-password-for-timing', OPTIONS);
      await verify(await dummy, password).catch(() => false);
    },
  };
}
