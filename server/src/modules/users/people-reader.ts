import type { Profile } from '@riff/contract';
import { type Actor, anonymousActor } from '../../platform/access/actor.js';
import type { UserRow } from './users.tables.js';
import { toProfileDto } from './user.mapper.js';
import type { SocialRepository } from './social.repository.js';
import type { UsersRepository } from './users.repository.js';

/**
 * What other areas may ask the users area about people (playlists' collaborators): who exists,
 * who blocks whom, and how others see a profile. Nobody else reads the users or blocks tables.
 */
export interface PeopleReader {
  /** An account others may deal with: live, active, not banned, email verified. */
  findActive(id: string): Promise<UserRow | undefined>;
  /** True when either user blocks the other. */
  blockedEitherWay(a: string, b: string): Promise<boolean>;
  /**
   * The profiles of these users as `viewer` sees them (by default as others do; never an email),
   * whatever their account's state; unknown ids are missing.
   */
  profiles(ids: readonly string[], viewer?: Actor): Promise<Map<string, Profile>>;
  /**
   * Locks the user's account row until the current transaction ends (FOR UPDATE), so that work
   * counted per user (keys, products, playlists, uploads, subscriptions under a limit) runs one at
   * a time for that user; a no-op for a missing user.
   */
  lockAccount(userId: string): Promise<void>;
}

export function createPeopleReader(users: UsersRepository, social: SocialRepository): PeopleReader {
  const others = anonymousActor();
  return {
    findActive: (id) => users.findActiveById(id),
    blockedEitherWay: (a, b) => social.blockedEitherWay(a, b),
    lockAccount: (userId) => users.lockAccount(userId),
    async profiles(ids, viewer = others) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      return new Map((await users.findManyById(unique)).map((row) => [row.id, toProfileDto(row, viewer)]));
    },
  };
}
