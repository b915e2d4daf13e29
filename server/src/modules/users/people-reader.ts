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
  /**
   * The account of this username (any case) if it may act now: active as findActive says and not
   * suspended, the rule every credential is checked against (for a sign-in by username).
   */
  findActingByUsername(username: string): Promise<UserRow | undefined>;
  /** A page of the accounts an announcement reaches, by id after `after`. */
  audiencePage(audience: 'all' | 'creators', after: string | null, limit: number): Promise<string[]>;
  /** An account that was not erased, whatever its state (suspended, banned, unverified): for staff. */
  findAccount(id: string): Promise<UserRow | undefined>;
  /** True when either user blocks the other. */
  blockedEitherWay(a: string, b: string): Promise<boolean>;
  /**
   * The profiles of these users as `viewer` sees them (by default as others do; never an email),
   * of accounts others may deal with (as findActive): a banned, deactivated or erased account's
   * profile is hidden from everyone, wherever it would show (a liker, a follower, a notification's
   * actor, a collaborator). Unknown ids and such accounts are missing.
   */
  profiles(ids: readonly string[], viewer?: Actor): Promise<Map<string, Profile>>;
  /**
   * Of these users, those who may be named in the viewer's audience (public, not opted out, no
   * block either way), as others see them.
   */
  audienceProfiles(ids: readonly string[], viewerId: string): Promise<Map<string, Profile>>;
  /** The profiles of these accounts whatever their state (not erased): for staff and records (a case, an invoice). */
  accountProfiles(ids: readonly string[]): Promise<Map<string, Profile>>;
  /**
   * Locks the user's account row until the current transaction ends (FOR UPDATE), so that work
   * counted per user (keys, products, playlists, uploads, subscriptions under a limit) runs one at
   * a time for that user; a no-op for a missing user.
   */
  lockAccount(userId: string): Promise<void>;
  /** True when `blockerId` blocks `blockedId` (one way: a track's owner who blocked a would-be commenter). */
  blocks(blockerId: string, blockedId: string): Promise<boolean>;
  /** The users this one blocked and those who blocked them (whose words a reader does not see). */
  blockedEitherWayWith(userId: string): Promise<string[]>;
  /**
   * How these accounts are named beside their words and items (comment authors, shared sessions),
   * in one read; deleted accounts are included, with their deleted_at. Unknown ids are missing.
   */
  names(ids: readonly string[]): Promise<Map<string, PersonName>>;
  /** Where mail reaches a live (not deleted) account, and its username; undefined for a missing or deleted one. */
  contact(userId: string): Promise<AccountContact | undefined>;
}

/** An account's name, handle and picture as its row holds them, deleted or not. */
export interface PersonName {
  id: string;
  username: string;
  slug: string;
  avatar: string | null;
  deleted_at: Date | null;
}

export interface AccountContact {
  email: string | null;
  username: string;
}

export function createPeopleReader(users: UsersRepository, social: SocialRepository): PeopleReader {
  const others = anonymousActor();
  return {
    findActive: (id) => users.findActiveById(id),
    findActingByUsername: (username) => users.findActingByUsername(username),
    audiencePage: (audience, after, limit) => users.audiencePage(audience, after, limit),
    findAccount: async (id) => {
      const row = await users.findById(id);
      return row && row.deleted_at === null ? row : undefined;
    },
    blockedEitherWay: (a, b) => social.blockedEitherWay(a, b),
    lockAccount: (userId) => users.lockAccount(userId),
    blocks: (blockerId, blockedId) => social.blocks(blockerId, blockedId),
    blockedEitherWayWith: (userId) => social.blockedEitherWayWith(userId),
    contact: (userId) => users.contactOf(userId),
    async names(ids) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      return new Map((await users.namesByIds(unique)).map((row) => [row.id, row]));
    },
    async profiles(ids, viewer = others) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      return new Map((await users.findManyActiveById(unique)).map((row) => [row.id, toProfileDto(row, viewer)]));
    },
    async audienceProfiles(ids, viewerId) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      return new Map(
        (await users.findAudienceMembers(unique, viewerId)).map((row) => [row.id, toProfileDto(row, others)]),
      );
    },
    async accountProfiles(ids) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      return new Map((await users.findManyById(unique)).map((row) => [row.id, toProfileDto(row, others)]));
    },
  };
}
