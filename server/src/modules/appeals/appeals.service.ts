import type {
  Appeal,
  AppealByTokenRequest,
  AppealQueueQuery,
  AppealSubjectType,
  CreateAppealRequest,
  DecideAppealRequest,
  ModeratedContentType,
  PaginationQuery,
  Standing,
} from '@riff/contract';
import { onStaffDecision, type Actor, type UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, conflict, fieldIssue, forbidden, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import { assertMayActOn } from '../../platform/access/staff-limits.js';
import type { AppealPorts } from './appeals.ports.js';
import { toAppealDto, toStaffAppealDto } from './appeals.mapper.js';
import type { AppealsRepository } from './appeals.repository.js';
import type { AppealRow } from './appeals.tables.js';
import './appeals.events.js';

const DAY_MS = 86_400_000;
/** Removed content keeps its files this long, and longer while an appeal of it is open. */
export const REMOVED_CONTENT_KEPT_DAYS = 30;
const PURGE_BATCH = 100;

export interface AppealsServiceDeps {
  scope: DbScope;
  clock: Clock;
  events: EventBus;
  appeals: AppealsRepository;
  ports: AppealPorts;
}

/** What is appealed, as found for its appellant. */
interface Subject {
  type: AppealSubjectType;
  id: string;
  targetType: ModeratedContentType | null;
}

const invalidToken = () =>
  new AppError('INVALID_TOKEN', 'This appeal link is unknown or was used already: each link allows one appeal');

/**
 * Appeals: the owner of hidden or removed content, a sanctioned account (signed in, or by the
 * one-time link mailed with a suspension or ban) and the owner of a strike appeal; staff other than
 * the one who decided grant or deny. Granted undoes the decision through the area that owns it.
 */
export class AppealsService {
  constructor(private readonly deps: AppealsServiceDeps) {}

  /** What the user may appeal: their sanctions, strikes, and content moderation hid or removed. */
  async standing(actor: UserActor): Promise<Standing> {
    const { ports } = this.deps;
    const [sanctions, strikes, content] = await Promise.all([
      ports.sanctions.standingOf(actor.id),
      ports.strikes.strikesOf(actor.id),
      Promise.all(
        Object.entries(ports.content).map(async ([type, port]) =>
          (await port!.moderatedOf(actor.id)).map((item) => ({
            target_type: type as ModeratedContentType,
            target_id: item.id,
            moderation_status: item.moderation_status,
            moderation_reason: item.moderation_reason,
          })),
        ),
      ),
    ]);
    return { sanctions, strikes, content: content.flat() };
  }

  async create(actor: UserActor, body: CreateAppealRequest) {
    const subject = await this.subjectOf(actor.id, body.subject_type, body.subject_id);
    return this.deps.scope.transaction(() => this.file(actor, actor.id, subject, body.message));
  }

  /** A suspended or banned account's appeal by the mailed link: the token names the sanction, and is used up. */
  async createByToken(actor: Actor, body: AppealByTokenRequest) {
    return this.deps.scope.transaction(async () => {
      // used up only if the appeal is filed: a refusal below rolls the use back
      const named = await this.deps.ports.sanctions.sanctionByAppealToken(body.token);
      if (!named) throw invalidToken();
      if (named.sanction.lifted_at !== null)
        throw conflict('This sanction was lifted already: there is nothing to appeal');
      const subject: Subject = { type: 'sanction', id: named.sanction.id, targetType: null };
      return this.file(actor, named.userId, subject, body.message);
    });
  }

  async mine(actor: UserActor, query: PaginationQuery) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.appeals.ofUser(actor.id, window.limit, window.offset);
    return { appeals: rows.map(toAppealDto), pagination: paginate(window, total) };
  }

  async queue(_actor: UserActor, query: AppealQueueQuery) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.appeals.withStatus(query.status, window.limit, window.offset);
    return { appeals: rows.map(toStaffAppealDto), pagination: paginate(window, total) };
  }

  async decide(actor: UserActor, id: string, body: DecideAppealRequest) {
    const { scope, appeals, ports, clock, events } = this.deps;
    return scope.transaction(async () => {
      const appeal = await appeals.lock(id);
      if (!appeal) throw notFound('Appeal');
      const appellant = await ports.account(appeal.user_id);
      assertMayActOn(actor, appellant);
      if (appeal.status !== 'open') throw conflict(`This appeal was ${appeal.status} already`);
      if ((await this.deciderOf(appeal)) === actor.id) {
        throw forbidden('You took the decision appealed against: another staff member decides the appeal');
      }
      // a ban hides all of the account's content until it is lifted: granting would show this item meanwhile
      if (body.outcome === 'granted' && appeal.subject_type === 'content' && appellant?.isBanned) {
        throw conflict('The appellant is banned: their content stays hidden until the ban is lifted');
      }
      if (body.outcome === 'granted') await this.undo(actor, appeal, body.note);
      const decided = await appeals.decide(id, {
        status: body.outcome,
        note: body.note,
        by: actor.id,
        at: clock.now(),
      });
      await ports.staffLog.record(actor, {
        action: body.outcome === 'granted' ? 'appeal.grant' : 'appeal.deny',
        target_type: 'appeal',
        target_id: id,
        reason: body.note,
        before: { status: appeal.status },
        after: {
          status: decided.status,
          subject_type: appeal.subject_type,
          subject_id: appeal.subject_id,
          target_type: appeal.target_type,
        },
      });
      await events.record(onStaffDecision(actor), body.outcome === 'granted' ? 'appeal.granted' : 'appeal.denied', {
        subject: { resource: 'appeal', id },
        userId: appeal.user_id,
        data: { ...this.facts(appeal), note: body.note },
      });
      return { appeal: toStaffAppealDto(decided) };
    });
  }

  /**
   * The periodic job: removed content whose removal is older than REMOVED_CONTENT_KEPT_DAYS and
   * that no open appeal holds loses its files (each content area purges its own). Idempotent.
   */
  async purgeRemoved(): Promise<{ purged: number; kept: number }> {
    const cutoff = new Date(this.deps.clock.now().getTime() - REMOVED_CONTENT_KEPT_DAYS * DAY_MS);
    let purged = 0;
    let kept = 0;
    for (const port of Object.values(this.deps.ports.purgeable)) {
      let after: string | null = null;
      for (;;) {
        const ids = await port!.removedBefore(cutoff, after, PURGE_BATCH);
        if (ids.length === 0) break;
        after = ids[ids.length - 1]!;
        const appealed = await this.deps.appeals.openSubjects('content', ids);
        for (const id of ids) {
          if (appealed.has(id)) kept++;
          else if (await this.purgeUnlessAppealed(port!, id, cutoff)) purged++;
        }
        if (ids.length < PURGE_BATCH) break;
      }
    }
    return { purged, kept };
  }

  /** Open appeals, for the platform's figures. */
  openCount(): Promise<number> {
    return this.deps.appeals.openCount();
  }

  /** One of the caller's appeals as GET /appeals/mine shows it; undefined for another's. */
  async appealFor(reader: UserActor, id: string): Promise<Appeal | undefined> {
    const row = await this.deps.appeals.ofUserById(reader.id, id);
    return row && toAppealDto(row);
  }

  async exportFor(owner: UserActor) {
    const { rows } = await this.deps.appeals.ofUser(owner.id, 100_000, 0);
    return { appeals: rows.map(toAppealDto) };
  }

  async eraseFor(owner: UserActor) {
    return { deleted_appeals: await this.deps.appeals.deleteOf(owner.id) };
  }

  // -- the parts

  /** The subject as the appellant may appeal it; anything else (not theirs, not appealable) is 404. */
  private async subjectOf(userId: string, type: AppealSubjectType, id: string): Promise<Subject> {
    const { ports } = this.deps;
    if (type === 'content') {
      for (const [targetType, port] of Object.entries(ports.content)) {
        const item = await port!.find(id);
        if (item && item.owner_id === userId && item.moderation_status !== 'visible') {
          return { type, id, targetType: targetType as ModeratedContentType };
        }
      }
      throw notFound('Hidden or removed content of yours');
    }
    if (type === 'sanction') {
      const sanction = (await ports.sanctions.standingOf(userId)).find((row) => row.id === id);
      if (!sanction || sanction.lifted_at !== null) throw notFound('Sanction in force');
      return { type, id, targetType: null };
    }
    const strike = (await ports.strikes.strikesOf(userId)).find((row) => row.id === id);
    if (!strike || !strike.active) throw notFound('Active strike');
    return { type, id, targetType: null };
  }

  /** Files the appeal: one open appeal per subject (409 naming the first). In the caller's transaction. */
  private async file(actor: Actor, appellantId: string, subject: Subject, message: string) {
    const { appeals, events } = this.deps;
    await appeals.lockSubject(subject);
    const open = await appeals.openOf(subject);
    if (open) {
      throw new AppError('CONFLICT', 'An appeal of this is open already: wait for its decision', {
        details: [fieldIssue('appeal_id', 'The open appeal of this subject', open.id)],
      });
    }
    const row = await appeals.insert({
      user_id: appellantId,
      subject_type: subject.type,
      subject_id: subject.id,
      target_type: subject.targetType,
      message,
    });
    await events.record(actor, 'appeal.created', {
      subject: { resource: 'appeal', id: row.id },
      userId: appellantId,
      data: this.facts(row),
    });
    return { appeal: toAppealDto(row) };
  }

  private facts(row: AppealRow) {
    return { subject_type: row.subject_type, subject_id: row.subject_id, target_type: row.target_type };
  }

  /** Who took the decision appealed against: they may not decide the appeal. */
  private async deciderOf(appeal: AppealRow): Promise<string | null | undefined> {
    const { ports } = this.deps;
    switch (appeal.subject_type) {
      case 'content':
        return appeal.target_type
          ? ports.contentDecider({ type: appeal.target_type, id: appeal.subject_id })
          : undefined;
      case 'sanction':
        return (await ports.sanctions.standingOf(appeal.user_id)).find((row) => row.id === appeal.subject_id)?.actor_id;
      case 'strike':
        return ports.strikes.decider(appeal.subject_id);
    }
  }

  /** A granted appeal undoes the decision, through the area that owns it, in the decision's transaction. */
  private async undo(actor: UserActor, appeal: AppealRow, note: string): Promise<void> {
    const { ports } = this.deps;
    switch (appeal.subject_type) {
      case 'content': {
        const port = appeal.target_type ? ports.content[appeal.target_type] : undefined;
        // content its owner deleted since has nothing left to restore
        const before = port ? await port.setStatus(appeal.subject_id, 'visible', null) : undefined;
        if (before && before.moderation_status !== 'visible') {
          await ports.staffLog.record(actor, {
            action: 'content.restore',
            target_type: appeal.target_type,
            target_id: appeal.subject_id,
            reason: note,
            before: { moderation_status: before.moderation_status, moderation_reason: before.moderation_reason },
            after: { moderation_status: 'visible', moderation_reason: null },
          });
        }
        return;
      }
      case 'sanction': {
        const sanction = (await ports.sanctions.standingOf(appeal.user_id)).find((row) => row.id === appeal.subject_id);
        // a warning changes nothing to lift; a sanction lifted meanwhile stays so
        if (!sanction || sanction.lifted_at !== null || sanction.kind === 'warn') return;
        if (sanction.kind === 'suspend') await ports.sanctions.lift.unsuspend(actor, appeal.user_id);
        else await ports.sanctions.lift.unban(actor, appeal.user_id);
        return;
      }
      case 'strike':
        await ports.strikes.liftStrike(actor, appeal.subject_id);
    }
  }

  /** Purges one item unless an appeal was opened since the batch was read (both under the subject's lock). */
  private purgeUnlessAppealed(
    port: NonNullable<AppealPorts['purgeable'][ModeratedContentType]>,
    id: string,
    cutoff: Date,
  ): Promise<boolean> {
    return this.deps.scope.transaction(async () => {
      await this.deps.appeals.lockSubject({ type: 'content', id });
      if (await this.deps.appeals.openOf({ type: 'content', id })) return false;
      return port.purge(id, cutoff);
    });
  }
}
