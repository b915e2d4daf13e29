import {
  COPYRIGHT_CLAIMS_PER_DAY,
  COUNTER_NOTICE_DAYS,
  MY_CLAIMS_LISTED,
  type CopyrightClaim,
  type CounterNoticeRequest,
  type CreateCopyrightClaimRequest,
  type DecideClaimRequest,
  type StaffClaimsQuery,
} from '@riff/contract';
import { onStaffDecision, systemActor, type Actor, type UserActor } from '../../platform/access/actor.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import { assertMayActOn } from '../../platform/access/staff-limits.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import {
  AppError,
  badRequest,
  conflict,
  fieldIssue,
  forbidden,
  notFound,
  rateLimited,
} from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { EventMap } from '../../platform/events/event-map.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { MailQueue } from '../../platform/mail/mail-queue.js';
import type { StaffLog } from '../admin/staff-log.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import { claimMail } from './copyright.mail.js';
import { toClaimDto, toClaimMadeDto, toClaimReceivedDto, toStaffClaimDto } from './copyright.mapper.js';
import { canSeeClaim, filedIt, mayCounter } from './copyright.policy.js';
import type { CopyrightRepository } from './copyright.repository.js';
import type { ClaimRow } from './copyright.tables.js';
import type { StrikesService } from './strikes.service.js';
import './copyright.events.js';

const DAY_MS = 86_400_000;
const UNANSWERED_BATCH = 100;
/** The moderation reason of a track hidden by a claim: a rejection restores only a track still hidden for it. */
export const CLAIM_REASON = 'copyright claim';

export interface CopyrightServiceDeps {
  scope: DbScope;
  clock: Clock;
  events: EventBus;
  mail: MailQueue;
  repository: CopyrightRepository;
  /** Which tracks the claimant may see. */
  tracks: Pick<TrackReader, 'visibleTracks'>;
  /** The tracks area's side of moderation: a claimed track's owner, title and state. */
  content: ModeratedContent;
  /** The owner's address for the claim's mail, and whether they are an admin (staff limits). */
  people: Pick<PeopleReader, 'contact' | 'findAccount'>;
  /** The admin area's staff log: every decision of staff. */
  staffLog: StaffLog;
  strikes: StrikesService;
}

type ClaimEvent = 'copyright.claimed' | 'copyright.countered' | 'copyright.upheld' | 'copyright.rejected';

/**
 * Copyright claims: filed by anyone who sees a track (which is hidden at once), answered by its
 * owner's counter-notice, decided by staff, or upheld by a job when the owner stays silent. An
 * upheld claim removes the track and gives its owner a strike (StrikesService).
 */
export class CopyrightService {
  constructor(private readonly deps: CopyrightServiceDeps) {}

  async claim(actor: UserActor, body: CreateCopyrightClaimRequest) {
    const { scope, clock, repository, content } = this.deps;
    return scope.transaction(async () => {
      await repository.lockClaimant(actor.id);
      const now = clock.now();
      const recent = await repository.claimsSince(actor.id, new Date(now.getTime() - DAY_MS));
      if (recent.count >= COPYRIGHT_CLAIMS_PER_DAY) {
        // the next one is allowed once the oldest of the day's claims is 24 hours old
        const wait = ((recent.oldest?.getTime() ?? now.getTime()) + DAY_MS - now.getTime()) / 1000;
        throw rateLimited(wait, `At most ${COPYRIGHT_CLAIMS_PER_DAY} copyright claims in 24 hours: try again later`);
      }
      if (!(await this.deps.tracks.visibleTracks(actor, [body.track_id])).has(body.track_id)) throw notFound('Track');
      const track = await content.find(body.track_id);
      if (!track?.owner_id) throw notFound('Track');
      if (track.owner_id === actor.id) throw badRequest('You cannot claim your own track');
      const open = await repository.openClaimOf(actor.id, body.track_id);
      if (open) {
        throw new AppError('CONFLICT', 'You already claimed this track; your claim is still open', {
          details: [fieldIssue('claim_id', 'Your open claim of this track', open.id)],
        });
      }
      const title = typeof track.snapshot['title'] === 'string' ? track.snapshot['title'] : '';
      const row = await repository.insert({
        track_id: body.track_id,
        track_title: title,
        owner_id: track.owner_id,
        claimant_id: actor.id,
        claimant_name: body.claimant_name,
        claimant_email: body.claimant_email,
        work_description: body.work_description,
        original_url: body.original_url ?? null,
        statement_good_faith: body.statement_good_faith,
        statement_accuracy: body.statement_accuracy,
        signature: body.signature,
        created_at: now,
        counter_deadline: new Date(now.getTime() + COUNTER_NOTICE_DAYS * DAY_MS),
      });
      // hidden at once; a track already hidden or removed for another reason stays as it is
      if (track.moderation_status === 'visible') await content.setStatus(row.track_id, 'hidden', CLAIM_REASON);
      const told = {
        claimant_name: row.claimant_name,
        work_description: row.work_description,
        original_url: row.original_url,
        counter_deadline: row.counter_deadline.toISOString(),
      };
      await this.record(actor, 'copyright.claimed', row, 'claimant', told);
      await this.record(actor, 'copyright.claimed', row, 'owner', told);
      const contact = await this.deps.people.contact(row.owner_id);
      if (contact?.email) {
        await this.deps.mail.send(
          claimMail(contact.email, contact.username, {
            trackTitle: row.track_title,
            claimantName: row.claimant_name,
            workDescription: row.work_description,
            originalUrl: row.original_url,
            counterDeadline: row.counter_deadline,
          }),
        );
      }
      return { claim: toClaimDto(row) };
    });
  }

  async counter(actor: UserActor, id: string, body: CounterNoticeRequest) {
    const { scope, clock, repository } = this.deps;
    return scope.transaction(async () => {
      const row = await repository.lock(id);
      if (!row || !canSeeClaim(actor, row)) throw notFound('Claim');
      if (!mayCounter(actor, row)) throw forbidden('Only the track’s owner answers a claim');
      if (row.status !== 'pending') {
        throw conflict(
          row.status === 'countered' ? 'You answered this claim already' : 'This claim was decided already',
        );
      }
      const now = clock.now();
      if (now > row.counter_deadline) {
        throw new AppError(
          'COUNTER_WINDOW_CLOSED',
          `A counter-notice is accepted within ${COUNTER_NOTICE_DAYS} days of the claim`,
        );
      }
      const updated = await repository.counter(id, body.statement, body.signature, now);
      await this.record(actor, 'copyright.countered', updated, 'owner');
      await this.record(actor, 'copyright.countered', updated, 'claimant');
      return { claim: toClaimDto(updated) };
    });
  }

  async mine(actor: UserActor) {
    const { repository } = this.deps;
    const [made, received] = await Promise.all([
      repository.made(actor.id, MY_CLAIMS_LISTED),
      repository.received(actor.id, MY_CLAIMS_LISTED),
    ]);
    return { made: made.map(toClaimDto), received: received.map(toClaimDto) };
  }

  /** A claim as either party reads it in GET /copyright/claims/mine; undefined for anyone else. */
  async claimFor(reader: UserActor, id: string): Promise<CopyrightClaim | undefined> {
    const row = await this.deps.repository.find(id);
    return row && (row.owner_id === reader.id || row.claimant_id === reader.id) ? toClaimDto(row) : undefined;
  }

  async list(_actor: UserActor, query: StaffClaimsQuery) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.repository.list(query.status, window.limit, window.offset);
    return { claims: rows.map(toStaffClaimDto), pagination: paginate(window, total) };
  }

  /** Staff's decision. The staff limits fall on the track's owner; nobody decides a claim they filed. */
  async decide(actor: UserActor, id: string, body: DecideClaimRequest) {
    return this.deps.scope.transaction(async () => {
      const row = await this.deps.repository.lock(id);
      if (!row) throw notFound('Claim');
      const owner = await this.deps.people.findAccount(row.owner_id);
      assertMayActOn(actor, { id: row.owner_id, isAdmin: owner?.is_admin ?? false });
      if (filedIt(actor, row)) throw forbidden('Staff never decide a claim they filed');
      if (row.status !== 'pending' && row.status !== 'countered') throw conflict('This claim was decided already');
      const decided = await this.settle(actor, row, body.outcome, body.note);
      return { claim: toStaffClaimDto(decided) };
    });
  }

  /**
   * The periodic job: pending claims whose counter-notice window closed are upheld by the service
   * (a removal and a strike, as staff's). Each in its own transaction; one decided meanwhile is skipped.
   */
  async upholdUnanswered(): Promise<{ upheld: number }> {
    let upheld = 0;
    for (;;) {
      const ids = await this.deps.repository.unanswered(this.deps.clock.now(), UNANSWERED_BATCH);
      for (const id of ids) {
        await this.deps.scope.transaction(async () => {
          const row = await this.deps.repository.lock(id);
          if (row?.status !== 'pending' || row.counter_deadline >= this.deps.clock.now()) return;
          await this.settle(systemActor(), row, 'upheld', null);
          upheld++;
        });
      }
      if (ids.length < UNANSWERED_BATCH) return { upheld };
    }
  }

  /**
   * Who put the track in its state, when a claim did (it is hidden or removed "copyright claim"):
   * the staff member who upheld the claim, null when nobody did (a claim still open, or upheld by
   * the job). Undefined when the track's state is not a claim's. An appeal of the track is not
   * decided by whoever this names.
   */
  async trackDecider(trackId: string): Promise<string | null | undefined> {
    const track = await this.deps.content.find(trackId);
    if (!track || track.moderation_status === 'visible' || track.moderation_reason !== CLAIM_REASON) return undefined;
    if (track.moderation_status !== 'removed') return null;
    return (await this.deps.repository.lastUpheldOf(trackId))?.decided_by ?? null;
  }

  /** Claims not decided yet (the platform's figures). */
  pendingClaims(): Promise<number> {
    return this.deps.repository.pendingCount();
  }

  async exportFor(owner: UserActor) {
    const { repository } = this.deps;
    const [made, received] = await Promise.all([
      repository.made(owner.id, 100_000),
      repository.received(owner.id, 100_000),
    ]);
    return {
      copyright_claims_made: made.map(toClaimMadeDto),
      copyright_claims_received: received.map(toClaimReceivedDto),
    };
  }

  /** An erased claimant's claims keep no personal data; an erased owner's counter-notices go. */
  async eraseFor(owner: UserActor) {
    return {
      anonymised_claims: await this.deps.repository.forgetClaimant(owner.id),
      forgotten_counter_notices: await this.deps.repository.forgetOwner(owner.id),
    };
  }

  // -- the parts of a decision

  private async settle(actor: Actor, row: ClaimRow, outcome: 'upheld' | 'rejected', note: string | null) {
    const { content, repository, clock } = this.deps;
    const now = clock.now();
    const before = await content.find(row.track_id);
    let after = before?.moderation_status ?? null;
    if (before && outcome === 'upheld' && before.moderation_status !== 'removed') {
      await content.setStatus(row.track_id, 'removed', CLAIM_REASON);
      after = 'removed';
    }
    // a track hidden for another reason, or by another open claim, stays hidden
    if (
      before &&
      outcome === 'rejected' &&
      before.moderation_status === 'hidden' &&
      before.moderation_reason === CLAIM_REASON &&
      (await repository.otherOpenClaims(row.track_id, row.id)) === 0
    ) {
      await content.setStatus(row.track_id, 'visible', null);
      after = 'visible';
    }
    const decided = await repository.decide(row.id, {
      status: outcome,
      at: now,
      by: actor.kind === 'user' ? actor.id : null,
      note,
    });
    if (actor.kind === 'user') {
      await this.deps.staffLog.record(actor, {
        action: `copyright.${outcome === 'upheld' ? 'uphold' : 'reject'}`,
        target_type: 'copyright_claim',
        target_id: row.id,
        reason: note,
        before: { status: row.status, track_moderation_status: before?.moderation_status ?? null },
        after: { status: outcome, track_moderation_status: after },
      });
    }
    const type = outcome === 'upheld' ? 'copyright.upheld' : 'copyright.rejected';
    const extra = outcome === 'upheld' ? { by_staff: actor.kind === 'user' } : {};
    await this.record(actor, type, decided, 'owner', extra);
    await this.record(actor, type, decided, 'claimant', extra);
    if (outcome === 'upheld') await this.deps.strikes.add(actor, decided.owner_id, decided.id);
    return decided;
  }

  /**
   * The event for one party. The acting party's own copy carries their request; the other party's
   * is recorded as the service (onStaffDecision), so it carries neither their address nor account.
   */
  private async record<K extends ClaimEvent>(
    actor: Actor,
    type: K,
    row: ClaimRow,
    party: 'owner' | 'claimant',
    extra: Omit<EventMap[K], 'claim_id' | 'track_id' | 'track_title' | 'party'> | Record<string, never> = {},
  ): Promise<void> {
    const userId = party === 'owner' ? row.owner_id : row.claimant_id;
    if (!userId) return;
    const own = actor.kind === 'user' && actor.id === userId;
    await this.deps.events.record(own ? actor : onStaffDecision(actor), type, {
      subject: { resource: 'copyright_claim', id: row.id },
      userId,
      data: {
        claim_id: row.id,
        track_id: row.track_id,
        track_title: row.track_title,
        party,
        ...extra,
      } as EventMap[K],
    });
  }
}
