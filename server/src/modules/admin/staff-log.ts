import type { UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';

/** One staff action, as the areas that act report it. */
export interface StaffAction {
  /** What was done, `<object>.<verb>`: `content.hide`, `user.suspend`, `settings.update`, … */
  action: string;
  target_type?: string | null;
  target_id?: string | null;
  reason?: string | null;
  /** The part of the target the action changed, before and after it. */
  before?: unknown;
  after?: unknown;
}

/**
 * The append-only log of every staff action. Written in the transaction of the action itself (a
 * rolled-back action leaves no entry, a committed one always has one); nothing updates or deletes
 * an entry but the pseudonymisation of an erased staff member.
 */
export interface StaffLog {
  record(actor: UserActor, entry: StaffAction): Promise<void>;
}

export class StaffLogRepository implements StaffLog {
  constructor(private readonly scope: DbScope) {}

  async record(actor: UserActor, entry: StaffAction): Promise<void> {
    const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
    await this.scope.db
      .insertInto('staff_log')
      .values({
        actor_id: actor.id,
        action: entry.action,
        target_type: entry.target_type ?? null,
        target_id: entry.target_id ?? null,
        reason: entry.reason ?? null,
        before: json(entry.before),
        after: json(entry.after),
        request_id: actor.origin.requestId,
      })
      .execute();
  }

  /** An erased staff member's entries stay, under a pseudonymous id that no account has. */
  async pseudonymise(actorId: string, pseudonym: string): Promise<number> {
    const result = await this.scope.db
      .updateTable('staff_log')
      .set({ actor_id: pseudonym })
      .where('actor_id', '=', actorId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
