import { STRIKE_MONTHS, STRIKES_SUSPENSION, STRIKES_UPLOADS_DISABLED, type Strike } from '@riff/contract';
import { onStaffDecision, systemActor, type Actor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, conflict, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { Sanctioner } from '../sanctions/sanctions.module.js';
import { isActiveStrike, toStrikeDto } from './copyright.mapper.js';
import type { CopyrightRepository } from './copyright.repository.js';
import './copyright.events.js';

/** Why the service suspends an account on its third active strike. */
export const REPEAT_INFRINGEMENT_REASON = `Repeat copyright infringement: ${STRIKES_SUSPENSION} active strikes`;

export interface StrikesServiceDeps {
  scope: DbScope;
  clock: Clock;
  events: EventBus;
  repository: CopyrightRepository;
  /** The sanctions area: the suspension that the third active strike brings, as the service's own. */
  sanctions: Pick<Sanctioner, 'suspend'>;
}

/** The moment `months` calendar months after `at` (UTC). */
export function monthsAfter(at: Date, months: number): Date {
  const next = new Date(at.getTime());
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

/**
 * Strikes: one per upheld claim, active for STRIKE_MONTHS unless a granted appeal lifts it. What
 * they do is decided here alone: uploads refused from two active ones on (the upload rules ask
 * uploadsAllowed) and the suspension at three, given as they are added.
 */
export class StrikesService {
  constructor(private readonly deps: StrikesServiceDeps) {}

  /** The strike of an upheld claim (once per claim), and at three active ones the account's suspension. */
  async add(actor: Actor, userId: string, claimId: string): Promise<void> {
    const { repository, clock, events } = this.deps;
    await this.deps.scope.transaction(async () => {
      await repository.lockStrikesOf(userId);
      if (await repository.strikeOfClaim(claimId)) return;
      const now = clock.now();
      const row = await repository.insertStrike({
        user_id: userId,
        claim_id: claimId,
        created_at: now,
        expires_at: monthsAfter(now, STRIKE_MONTHS),
      });
      const active = await this.activeCount(userId);
      await events.record(onStaffDecision(actor), 'strike.added', {
        subject: { resource: 'strike', id: row.id },
        userId,
        data: { strike_id: row.id, claim_id: claimId, active, expires_at: row.expires_at.toISOString() },
      });
      if (active < STRIKES_SUSPENSION) return;
      try {
        await this.deps.sanctions.suspend(systemActor(), userId, { reason: REPEAT_INFRINGEMENT_REASON, until: null });
      } catch (error) {
        // an account gone or banned meanwhile needs no suspension
        if (!(error instanceof AppError && (error.status === 404 || error.status === 409))) throw error;
      }
    });
  }

  /** The account's active strikes (neither expired nor lifted). */
  async activeCount(userId: string): Promise<number> {
    return (await this.deps.repository.activeStrikes([userId], this.deps.clock.now())).get(userId) ?? 0;
  }

  /** Whether the account's strikes let it upload: not from STRIKES_UPLOADS_DISABLED active ones on. */
  async uploadsAllowed(userId: string): Promise<boolean> {
    return (await this.activeCount(userId)) < STRIKES_UPLOADS_DISABLED;
  }

  /** Active strikes of each account among `userIds` (0 for those without). */
  async activeStrikes(userIds: readonly string[]): Promise<Map<string, number>> {
    const counts = await this.deps.repository.activeStrikes(userIds, this.deps.clock.now());
    return new Map(userIds.map((id) => [id, counts.get(id) ?? 0]));
  }

  /** Every strike of the account, newest first. */
  async strikesOf(userId: string): Promise<Strike[]> {
    const now = this.deps.clock.now();
    return (await this.deps.repository.strikesOf(userId)).map((row) => toStrikeDto(row, now));
  }

  /** One of the account's strikes as its standing shows it; undefined for another's. */
  async strikeOf(userId: string, strikeId: string): Promise<Strike | undefined> {
    const row = await this.deps.repository.findStrike(strikeId);
    return row?.user_id === userId ? toStrikeDto(row, this.deps.clock.now()) : undefined;
  }

  /** Lifts a strike (a granted appeal): 404 for an unknown one, 409 for one lifted already. */
  async liftStrike(actor: Actor, strikeId: string): Promise<Strike> {
    const { repository, clock, events } = this.deps;
    return this.deps.scope.transaction(async () => {
      const row = await repository.findStrike(strikeId);
      if (!row) throw notFound('Strike');
      await repository.lockStrikesOf(row.user_id);
      const now = clock.now();
      const lifted = await repository.liftStrike(strikeId, now, actor.kind === 'user' ? actor.id : null);
      if (!lifted) throw conflict('This strike was lifted already');
      await events.record(onStaffDecision(actor), 'strike.lifted', {
        subject: { resource: 'strike', id: strikeId },
        userId: row.user_id,
        data: { strike_id: strikeId, claim_id: row.claim_id },
      });
      return toStrikeDto(lifted, now);
    });
  }

  /** The strike with whether it counts now, or undefined. */
  async find(strikeId: string): Promise<{ userId: string; claimId: string; active: boolean } | undefined> {
    const row = await this.deps.repository.findStrike(strikeId);
    return row && { userId: row.user_id, claimId: row.claim_id, active: isActiveStrike(row, this.deps.clock.now()) };
  }

  /** Who decided the claim behind a strike: the staff member, null when the service upheld it; undefined for no strike. */
  async claimDecider(strikeId: string): Promise<string | null | undefined> {
    const row = await this.deps.repository.findStrike(strikeId);
    if (!row) return undefined;
    return (await this.deps.repository.find(row.claim_id))?.decided_by ?? null;
  }

  async exportFor(userId: string): Promise<{ strikes: Strike[] }> {
    return { strikes: await this.strikesOf(userId) };
  }

  async eraseFor(userId: string): Promise<{ deleted_strikes: number }> {
    return { deleted_strikes: await this.deps.repository.deleteStrikesOf(userId) };
  }
}
