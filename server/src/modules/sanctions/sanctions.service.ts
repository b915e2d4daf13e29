import { SUSPENSION_MAX_DAYS, type Sanction } from '@riff/contract';
import { onStaffDecision, systemActor, type Actor, type UserActor } from '../../platform/access/actor.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import { randomToken, sha256Hex } from '../../platform/auth/secure-random.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { conflict, fieldIssue, notFound, validationFailed } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { EventMap } from '../../platform/events/event-map.js';
import type { MailQueue } from '../../platform/mail/mail-queue.js';
import type { StaffLog } from '../admin/staff-log.js';
import type { AccountStanding, AccountState } from '../users/account-standing.js';
import type { PeopleReader } from '../users/people-reader.js';
import { sanctionMail, type SanctionNotice } from './sanctions.mail.js';
import { toSanctionDto } from './sanctions.mapper.js';
import { checkMayBan, checkMayEndSuspension, checkMaySanction, checkMaySuspendUntil } from './sanctions.policy.js';
import type { SanctionsRepository } from './sanctions.repository.js';
import type { SanctionRow } from './sanctions.tables.js';
import './sanctions.events.js';

const DAY_MS = 86_400_000;
const EXPIRY_BATCH = 100;
/** What a ban hides of the account's content, and what an unban makes visible again (nothing hidden for another reason). */
export const BAN_REASON = 'account banned';

/** Who sanctions: a staff member (HTTP, the moderation area's decisions) or the service itself (a rule). */
export type SanctioningActor = UserActor | Extract<Actor, { kind: 'system' }>;

export interface SuspendInput {
  reason: string;
  /** When it ends by itself; null (the service itself only, or an admin) for one only an admin lifts. */
  until: string | Date | null;
}

export interface SanctionsServiceDeps {
  scope: DbScope;
  clock: Clock;
  events: EventBus;
  mail: MailQueue;
  sanctions: SanctionsRepository;
  /** The users area's port: the account's suspension and ban. */
  standing: AccountStanding;
  /** The admin area's append-only log of staff actions, written in the sanction's transaction. */
  staffLog: StaffLog;
  /** Each content area's side of moderation: a ban hides everything of the account, an unban restores it. */
  content: readonly ModeratedContent[];
  /** Where the account is mailed. */
  people: Pick<PeopleReader, 'contact'>;
  /** The one-time appeal links point here. */
  publicBaseUrl: string;
}

/** The account's standing as the staff log records it before and after a sanction. */
const standingOf = (state: AccountState) => ({
  is_banned: state.is_banned,
  suspended_at: state.suspended_at?.toISOString() ?? null,
  suspended_until: state.suspended_until?.toISOString() ?? null,
});

const invalidUntil = (message: string, value: unknown) =>
  validationFailed(`until ${message}`, [fieldIssue('until', message, value)]);

/**
 * Warnings, suspensions and bans of accounts, and their lifting. Each is one transaction: the
 * sanction's row, the account's state (users area), the staff log's entry, the event (an audit entry
 * for the account, and after the commit its notification, webhook event, sign-out of open sockets,
 * and its pending orders failed) and the mail to the account.
 */
export class SanctionsService {
  constructor(private readonly deps: SanctionsServiceDeps) {}

  async warn(actor: SanctioningActor, userId: string, reason: string): Promise<Sanction> {
    return this.deps.scope.transaction(async () => {
      const target = await this.target(actor, userId);
      const row = await this.deps.sanctions.insert({
        user_id: userId,
        kind: 'warn',
        reason,
        actor_id: actor.id,
      });
      await this.log(actor, 'user.warn', target, target, reason);
      await this.record(actor, 'user.warned', userId, { sanction_id: row.id, reason });
      await this.tell(userId, { kind: 'warn', reason });
      return toSanctionDto(row);
    });
  }

  async suspend(actor: SanctioningActor, userId: string, input: SuspendInput): Promise<Sanction> {
    const now = this.deps.clock.now();
    const until = this.untilOf(input.until, now);
    return this.deps.scope.transaction(async () => {
      const target = await this.target(actor, userId);
      checkMaySuspendUntil(actor, until, now);
      if (target.is_banned) throw conflict('This account is banned: a suspension would change nothing');
      checkMayEndSuspension(actor, target, now);
      // a new suspension replaces the running one
      await this.deps.sanctions.liftAll(userId, 'suspend', now, actor.id);
      const token = randomToken();
      const row = await this.deps.sanctions.insert({
        user_id: userId,
        kind: 'suspend',
        reason: input.reason,
        actor_id: actor.id,
        ends_at: until,
        appeal_token_hash: sha256Hex(token),
      });
      const after = await this.deps.standing.suspend(userId, until);
      await this.log(actor, 'user.suspend', target, after, input.reason);
      await this.record(actor, 'user.suspended', userId, {
        sanction_id: row.id,
        reason: input.reason,
        until: until?.toISOString() ?? null,
      });
      await this.tell(userId, { kind: 'suspend', reason: input.reason, until, appealUrl: this.appealUrl(token) });
      return toSanctionDto(row);
    });
  }

  async unsuspend(actor: SanctioningActor, userId: string): Promise<Sanction> {
    return this.deps.scope.transaction(async () => {
      const target = await this.target(actor, userId);
      const now = this.deps.clock.now();
      checkMayEndSuspension(actor, target, now);
      const sanction = newest(await this.deps.sanctions.liftAll(userId, 'suspend', now, actor.id));
      if (!sanction) throw conflict('This account is not suspended');
      const after = await this.deps.standing.unsuspend(userId);
      await this.log(actor, 'user.unsuspend', target, after, null);
      await this.record(actor, 'user.unsuspended', userId, { sanction_id: sanction.id, expired: false });
      await this.tell(userId, { kind: 'unsuspend' });
      return toSanctionDto(sanction);
    });
  }

  async ban(actor: SanctioningActor, userId: string, reason: string): Promise<Sanction> {
    checkMayBan(actor);
    return this.deps.scope.transaction(async () => {
      const target = await this.target(actor, userId);
      if (target.is_banned) throw conflict('This account is banned already');
      const token = randomToken();
      const row = await this.deps.sanctions.insert({
        user_id: userId,
        kind: 'ban',
        reason,
        actor_id: actor.id,
        appeal_token_hash: sha256Hex(token),
      });
      const after = await this.deps.standing.ban(userId);
      for (const content of this.deps.content) await content.hideAllOf(userId, BAN_REASON);
      await this.log(actor, 'user.ban', target, after, reason);
      // the marketplace archives the account's products in this transaction, on this event
      await this.record(actor, 'user.banned', userId, { sanction_id: row.id, reason });
      await this.tell(userId, { kind: 'ban', reason, appealUrl: this.appealUrl(token) });
      return toSanctionDto(row);
    });
  }

  async unban(actor: SanctioningActor, userId: string): Promise<Sanction> {
    checkMayBan(actor);
    return this.deps.scope.transaction(async () => {
      const target = await this.target(actor, userId);
      const sanction = newest(await this.deps.sanctions.liftAll(userId, 'ban', this.deps.clock.now(), actor.id));
      if (!target.is_banned || !sanction) throw conflict('This account is not banned');
      const after = await this.deps.standing.unban(userId);
      for (const content of this.deps.content) await content.restoreAllOf(userId, BAN_REASON);
      await this.log(actor, 'user.unban', target, after, null);
      await this.record(actor, 'user.unbanned', userId, { sanction_id: sanction.id });
      await this.tell(userId, { kind: 'unban' });
      return toSanctionDto(sanction);
    });
  }

  /**
   * The periodic job: suspensions whose end has passed are lifted (by nobody: they ran out) and
   * their accounts freed. Idempotent: an account signed in since (which ended it) is only marked.
   */
  async endSuspensions(): Promise<{ ended: number }> {
    let ended = 0;
    for (;;) {
      const now = this.deps.clock.now();
      const userIds = await this.deps.sanctions.endedSuspensionUsers(now, EXPIRY_BATCH);
      for (const userId of userIds) {
        await this.deps.scope.transaction(async () => {
          const target = await this.deps.standing.lock(userId);
          const lifted = await this.deps.sanctions.endSuspensions(userId, now);
          if (!target || lifted.length === 0) return;
          // a newer suspension that has not ended keeps the account suspended
          if (await this.deps.standing.endSuspensionIfOver(userId)) {
            await this.record(systemActor(), 'user.unsuspended', userId, {
              sanction_id: newest(lifted)!.id,
              expired: true,
            });
            await this.tell(userId, { kind: 'unsuspend' });
          }
          ended++;
        });
      }
      if (userIds.length < EXPIRY_BATCH) return { ended };
    }
  }

  /** Every sanction of the account, newest first (its standing, and what it may appeal). */
  async standingOf(userId: string): Promise<Sanction[]> {
    return (await this.deps.sanctions.listOf(userId)).map(toSanctionDto);
  }

  /**
   * The sanction a mailed appeal link names, with its account; the link is used up by this call
   * (single use). Undefined for an unknown or used token.
   */
  async sanctionByAppealToken(token: string): Promise<{ userId: string; sanction: Sanction } | undefined> {
    if (token.length === 0 || token.length > 200) return undefined;
    const row = await this.deps.sanctions.consumeAppealToken(sha256Hex(token));
    return row && { userId: row.user_id, sanction: toSanctionDto(row) };
  }

  async exportFor(owner: UserActor): Promise<{ sanctions: Sanction[] }> {
    return { sanctions: await this.standingOf(owner.id) };
  }

  /** An erased account's sanctions go with it; those its owner decided as staff keep their actor_id. */
  async eraseFor(owner: UserActor): Promise<void> {
    await this.deps.sanctions.deleteOf(owner.id);
  }

  // -- the parts of every sanction

  /** The account sanctioned, locked for the sanction, and whether the caller may: 404, then 403. */
  private async target(actor: SanctioningActor, userId: string): Promise<AccountState> {
    const target = await this.deps.standing.lock(userId);
    if (!target) throw notFound('User');
    checkMaySanction(actor, target);
    return target;
  }

  private untilOf(value: string | Date | null, now: Date): Date | null {
    if (value === null) return null;
    const until = value instanceof Date ? value : new Date(value);
    if (Number.isNaN(until.getTime())) throw invalidUntil('must be a date and time', value);
    if (until <= now) throw invalidUntil('must be in the future', value);
    if (until.getTime() > now.getTime() + SUSPENSION_MAX_DAYS * DAY_MS)
      throw invalidUntil(`must be at most ${SUSPENSION_MAX_DAYS} days ahead`, value);
    return until;
  }

  private appealUrl(token: string): string {
    return `${this.deps.publicBaseUrl}/appeal?token=${token}`;
  }

  private async log(
    actor: SanctioningActor,
    action: string,
    before: AccountState,
    after: AccountState,
    reason: string | null,
  ): Promise<void> {
    // the service's own sanctions (a rule) are no staff member's action
    if (actor.kind !== 'user') return;
    await this.deps.staffLog.record(actor, {
      action,
      target_type: 'user',
      target_id: before.id,
      reason,
      before: standingOf(before),
      after: standingOf(after),
    });
  }

  /**
   * The event, in the sanctioned account's name: its audit log, notification and webhooks name no
   * staff member (who decided is in the staff log and on the sanction), nor their address.
   */
  private record<K extends 'user.warned' | 'user.suspended' | 'user.unsuspended' | 'user.banned' | 'user.unbanned'>(
    actor: SanctioningActor,
    type: K,
    userId: string,
    data: EventMap[K],
  ): Promise<void> {
    return this.deps.events.record(onStaffDecision(actor), type, {
      subject: { resource: 'user', id: userId },
      data,
      userId,
    });
  }

  private async tell(userId: string, notice: SanctionNotice): Promise<void> {
    const contact = await this.deps.people.contact(userId);
    if (contact?.email) await this.deps.mail.send(sanctionMail(contact.email, contact.username, notice));
  }
}

const newest = (rows: SanctionRow[]): SanctionRow | undefined =>
  rows.reduce<SanctionRow | undefined>(
    (latest, row) => (!latest || row.created_at > latest.created_at ? row : latest),
    undefined,
  );
