import { createPasswordHasher } from '../../server/src/platform/auth/password-hasher.js';

/**
 * argon2id at 1 MiB and one pass: the same algorithm and code as a deployment's (19 MiB, 2 passes),
 * at about a thirtieth of its CPU, for the thousands of accounts the suite creates. Files that test
 * the hashing itself (its timing against unknown emails, its parameters) pass the real one.
 */
export const testHasher = createPasswordHasher({ memoryCost: 1024, timeCost: 1 });
