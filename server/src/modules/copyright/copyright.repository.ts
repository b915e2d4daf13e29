import type { CopyrightClaimStatus } from '@riff/contract';
import { sql } from 'kysely';
import { countOf, pageWithTotal, totalCount } from '../../platform/db/page-total.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { ClaimRow, NewClaim, StrikeRow } from './copyright.tables.js';

const OPEN: CopyrightClaimStatus[] = ['pending', 'countered'];

/** All SQL of the copyright area: claims and strikes. */
export class CopyrightRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** Serialises the claims of one claimant (their daily limit, one open claim per track) until the transaction ends. */
  async lockClaimant(claimantId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`copyright-claimant|${claimantId}`}, 0))`.execute(
      this.db,
    );
  }

  /** Serialises the strikes of one account (the count that suspends it) until the transaction ends. */
  async lockStrikesOf(userId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`strikes|${userId}`}, 0))`.execute(this.db);
  }

  /** Claims the claimant filed since `since`, and when the oldest of them was. */
  async claimsSince(claimantId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const row = await this.db
      .selectFrom('copyright_claims')
      .select([(eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.min('created_at').as('oldest')])
      .where('claimant_id', '=', claimantId)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), oldest: row.oldest ? new Date(row.oldest) : null };
  }

  openClaimOf(claimantId: string, trackId: string): Promise<ClaimRow | undefined> {
    return this.db
      .selectFrom('copyright_claims')
      .selectAll()
      .where('claimant_id', '=', claimantId)
      .where('track_id', '=', trackId)
      .where('status', 'in', OPEN)
      .executeTakeFirst();
  }

  /** Undecided claims on the track other than `exceptId` (what keeps it hidden). */
  async otherOpenClaims(trackId: string, exceptId: string): Promise<number> {
    const { count } = await this.db
      .selectFrom('copyright_claims')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('track_id', '=', trackId)
      .where('id', '<>', exceptId)
      .where('status', 'in', OPEN)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** The track's claim upheld last. */
  lastUpheldOf(trackId: string): Promise<ClaimRow | undefined> {
    return this.db
      .selectFrom('copyright_claims')
      .selectAll()
      .where('track_id', '=', trackId)
      .where('status', '=', 'upheld')
      .orderBy('decided_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  insert(claim: NewClaim): Promise<ClaimRow> {
    return this.db.insertInto('copyright_claims').values(claim).returningAll().executeTakeFirstOrThrow();
  }

  find(id: string): Promise<ClaimRow | undefined> {
    return this.db.selectFrom('copyright_claims').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The claim, locked until the transaction ends. */
  lock(id: string): Promise<ClaimRow | undefined> {
    return this.db.selectFrom('copyright_claims').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }

  counter(id: string, statement: string, signature: string, at: Date): Promise<ClaimRow> {
    return this.db
      .updateTable('copyright_claims')
      .set({ status: 'countered', counter_statement: statement, counter_signature: signature, countered_at: at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  decide(
    id: string,
    decision: { status: 'upheld' | 'rejected'; at: Date; by: string | null; note: string | null },
  ): Promise<ClaimRow> {
    return this.db
      .updateTable('copyright_claims')
      .set({ status: decision.status, decided_at: decision.at, decided_by: decision.by, decision_note: decision.note })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Pending claims whose counter-notice window closed, oldest first. */
  async unanswered(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('copyright_claims')
      .select('id')
      .where('status', '=', 'pending')
      .where('counter_deadline', '<', now)
      .orderBy('counter_deadline')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  made(claimantId: string, limit: number): Promise<ClaimRow[]> {
    return this.db
      .selectFrom('copyright_claims')
      .selectAll()
      .where('claimant_id', '=', claimantId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  received(ownerId: string, limit: number): Promise<ClaimRow[]> {
    return this.db
      .selectFrom('copyright_claims')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Staff's list, oldest first. */
  async list(status: CopyrightClaimStatus | undefined, limit: number, offset: number) {
    let query = this.db.selectFrom('copyright_claims');
    if (status) query = query.where('status', '=', status);
    const rows = await query
      .selectAll()
      .select(totalCount())
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
    return pageWithTotal(rows, () => countOf(query));
  }

  async pendingCount(): Promise<number> {
    const { count } = await this.db
      .selectFrom('copyright_claims')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', 'in', OPEN)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** An erased claimant's claims keep no personal data. */
  async forgetClaimant(claimantId: string): Promise<number> {
    const result = await this.db
      .updateTable('copyright_claims')
      .set({ claimant_id: null, claimant_name: null, claimant_email: null, signature: null })
      .where('claimant_id', '=', claimantId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** An erased owner's counter-notices go (their words and signature); the claims stay the claimants'. */
  async forgetOwner(ownerId: string): Promise<number> {
    const result = await this.db
      .updateTable('copyright_claims')
      .set({ counter_statement: null, counter_signature: null })
      .where('owner_id', '=', ownerId)
      .where('counter_statement', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  // -- strikes

  insertStrike(strike: { user_id: string; claim_id: string; created_at: Date; expires_at: Date }): Promise<StrikeRow> {
    return this.db.insertInto('strikes').values(strike).returningAll().executeTakeFirstOrThrow();
  }

  strikeOfClaim(claimId: string): Promise<StrikeRow | undefined> {
    return this.db.selectFrom('strikes').selectAll().where('claim_id', '=', claimId).executeTakeFirst();
  }

  findStrike(id: string): Promise<StrikeRow | undefined> {
    return this.db.selectFrom('strikes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  strikesOf(userId: string): Promise<StrikeRow[]> {
    return this.db
      .selectFrom('strikes')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Active strikes (not lifted, not expired) of each user among `userIds`; a user without any is left out. */
  async activeStrikes(userIds: readonly string[], now: Date): Promise<Map<string, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('strikes')
      .select(['user_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('user_id', 'in', [...userIds])
      .where('lifted_at', 'is', null)
      .where('expires_at', '>', now)
      .groupBy('user_id')
      .execute();
    return new Map(rows.map((row) => [row.user_id, Number(row.count)]));
  }

  async liftStrike(id: string, at: Date, by: string | null): Promise<StrikeRow | undefined> {
    return this.db
      .updateTable('strikes')
      .set({ lifted_at: at, lifted_by: by })
      .where('id', '=', id)
      .where('lifted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }

  /** An erased account's strikes go with it. */
  async deleteStrikesOf(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('strikes').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
