import type { ModeratedContentType, Sanction, Strike } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import type { StaffLog } from '../admin/staff-log.js';
import type { Sanctioner } from '../sanctions/sanctions.module.js';

/**
 * The copyright area's strikes, as appeals need them: a user's strikes (their standing, what they
 * may appeal), lifting one (a granted appeal) and who decided the claim that gave it.
 */
export interface StrikePort {
  /** The user's strikes, newest first. */
  strikesOf(userId: string): Promise<Strike[]>;
  /** Lifts the strike on staff's word (an appeal granted), in the caller's transaction. */
  liftStrike(actor: UserActor, strikeId: string): Promise<void>;
  /** The staff member who decided the claim that gave the strike; null or undefined when nobody did (a job). */
  decider(strikeId: string): Promise<string | null | undefined>;
}

/** The sanctions area, as appeals need it. */
export interface AppealSanctions {
  /** The account's sanctions, newest first (actor_id: who decided each). */
  standingOf(userId: string): Promise<Sanction[]>;
  /** The sanction a mailed one-time link names, and whose it is; the token is used up. */
  sanctionByAppealToken(token: string): Promise<{ userId: string; sanction: Sanction } | undefined>;
  /** Lifting a suspension or a ban, with the sanctions area's own rules and records. */
  lift: Pick<Sanctioner, 'unsuspend' | 'unban'>;
}

/**
 * What a content area with stored files does with removed content once nobody may appeal any
 * more: finds it and purges its files (each area on its own tables and storage).
 */
export interface RemovedContentPurge {
  /** Ids of live items removed before `cutoff`, after `afterId` in id order (keyset pages). */
  removedBefore(cutoff: Date, afterId: string | null, limit: number): Promise<string[]>;
  /** Purges the item's files if it is still removed since before `cutoff`: whether it did. */
  purge(id: string, cutoff: Date): Promise<boolean>;
}

/** Everything the appeals area asks of the other areas, wired in modules/index.ts. */
export interface AppealPorts {
  /** Each content area's side of moderation, by the content type it carries. */
  content: Partial<Record<ModeratedContentType, ModeratedContent>>;
  sanctions: AppealSanctions;
  strikes: StrikePort;
  /** The admin area's staff log (decisions and restorations are written to it). */
  staffLog: StaffLog;
  /** Who last hid or removed the content (the admin area's staff log); undefined when no staff member did. */
  contentDecider(target: { type: ModeratedContentType; id: string }): Promise<string | undefined>;
  /** Whether an account is an admin (staff limits) and banned; undefined for one that is gone. */
  account(id: string): Promise<{ id: string; isAdmin: boolean; isBanned: boolean } | undefined>;
  /** The content areas that store files, whose removed items are purged. */
  purgeable: Partial<Record<ModeratedContentType, RemovedContentPurge>>;
}
