import { hash, verify } from '@node-rs/argon2';

/** What one hash costs: memory in KiB and passes over it. */
export interface HashCost {
  memoryCost: number;
  timeCost: number;
}

/**
 * argon2id, 19 MiB, 2 passes, parallelism 1 (OWASP's baseline). It is the only cost configuration
 * can give: a cheaper one exists only for code that builds the platform itself (the test suite,
 * which creates thousands of accounts), and a stored hash carries its own parameters, so
 * verification is the same whichever cost made it.
 */
export const PASSWORD_HASH_COST: HashCost = { memoryCost: 19_456, timeCost: 2 };

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spends the same time as a real verification, for unknown accounts. */
  verifyDummy(password: string): Promise<void>;
}

export function createPasswordHasher(cost: HashCost = PASSWORD_HASH_COST): PasswordHasher {
  // algorithm 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read)
  const options = { algorithm: 2, ...cost, parallelism: 1 } as const;
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, options),
    verify: async (stored, password) => {
      try {
        return await verify(stored, password);
      } catch {
        return false;
      }
    },
    verifyDummy: async (password) => {
      dummy ??= hash('riff-dummy-password-for-timing', options);
      await verify(await dummy, password).catch(() => false);
    },
  };
}
