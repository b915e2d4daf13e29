import type { EmailTokenPurpose } from './auth.tables.js';
import type { Database } from '../../platform/db/database.schema.js';
import type { Selectable } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';

export type RefreshTokenRow = Selectable<Database['refresh_tokens']>;
export type ChallengeRow = Selectable<Database['two_factor_challenges']>;

/** All SQL for email tokens, refresh tokens, 2FA challenges and recovery codes. */
export class AuthRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** A new token invalidates every older unused one of the same purpose. */
  async replaceEmailToken(
    userId: string,
    purpose: EmailTokenPurpose,
    tokenHash: string,
    expiresAt: Date,
  ): Promise<void> {
    await this.db
      .deleteFrom('email_tokens')
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
    await this.db
      .insertInto('email_tokens')
      .values({ user_id: userId, purpose, token_hash: tokenHash, expires_at: expiresAt })
      .execute();
  }

  /** Marks a live token used, once; answers its user id, or undefined when unknown, used or expired. */
  async consumeEmailToken(purpose: EmailTokenPurpose, tokenHash: string, now: Date): Promise<string | undefined> {
    const row = await this.db
      .updateTable('email_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  async insertRefreshToken(token: {
    id: string;
    familyId: string;
    userId: string;
    secretHash: string;
    rememberMe: boolean;
    expiresAt: Date;
    ip: string | null;
    userAgent: string | null;
  }): Promise<void> {
    await this.db
      .insertInto('refresh_tokens')
      .values({
        id: token.id,
        family_id: token.familyId,
        user_id: token.userId,
        secret_hash: token.secretHash,
        remember_me: token.rememberMe,
        expires_at: token.expiresAt,
        ip_address: token.ip,
        user_agent: token.userAgent,
      })
      .execute();
  }

  findRefreshToken(id: string): Promise<RefreshTokenRow | undefined> {
    return this.db.selectFrom('refresh_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Rotation happens once: false when another request rotated or revoked it first. The sealed
   * successor is kept with it for the reuse grace; seals of the family older than `sealsBefore`
   * are dropped, their grace being over.
   */
  async markRotated(id: string, now: Date, successorSealed: string | null, sealsBefore: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('refresh_tokens')
      .set({ rotated_at: now, successor_sealed: successorSealed })
      .where('id', '=', id)
      .where('rotated_at', 'is', null)
      .where('revoked_at', 'is', null)
      .returning('family_id')
      .executeTakeFirst();
    if (!result) return false;
    await this.db
      .updateTable('refresh_tokens')
      .set({ successor_sealed: null })
      .where('family_id', '=', result.family_id)
      .where('rotated_at', '<', sealsBefore)
      .where('successor_sealed', 'is not', null)
      .execute();
    return true;
  }

  async revokeFamily(familyId: string, now: Date): Promise<void> {
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now, successor_sealed: null })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Ends every login of the user, except the family `keepFamilyId` when given. */
  async revokeAllForUser(userId: string, now: Date, keepFamilyId?: string): Promise<void> {
    let query = this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now, successor_sealed: null })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (keepFamilyId) query = query.where('family_id', '!=', keepFamilyId);
    await query.execute();
  }

  async insertChallenge(userId: string, tokenHash: string, rememberMe: boolean, expiresAt: Date): Promise<void> {
    await this.db
      .insertInto('two_factor_challenges')
      .values({ user_id: userId, token_hash: tokenHash, remember_me: rememberMe, expires_at: expiresAt })
      .execute();
  }

  findLiveChallenge(tokenHash: string, now: Date): Promise<ChallengeRow | undefined> {
    return this.db
      .selectFrom('two_factor_challenges')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async consumeChallenge(id: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('two_factor_challenges')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Replaces the codes of an unfinished setup. */
  async replacePendingRecoveryCodes(userId: string, codeHashes: string[]): Promise<void> {
    await this.scope.transaction(async () => {
      await this.db
        .deleteFrom('two_factor_recovery_codes')
        .where('user_id', '=', userId)
        .where('pending', '=', true)
        .execute();
      await this.db
        .insertInto('two_factor_recovery_codes')
        .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, pending: true })))
        .execute();
    });
  }

  /** On enabling 2FA the pending codes become the live ones. */
  async activatePendingRecoveryCodes(userId: string): Promise<void> {
    await this.db
      .deleteFrom('two_factor_recovery_codes')
      .where('user_id', '=', userId)
      .where('pending', '=', false)
      .execute();
    await this.db
      .updateTable('two_factor_recovery_codes')
      .set({ pending: false })
      .where('user_id', '=', userId)
      .execute();
  }

  /** Every pending token, challenge and recovery code of an erased account. */
  async removeSecretsFor(userId: string): Promise<void> {
    await this.db.deleteFrom('email_tokens').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('two_factor_challenges').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  }

  async deleteRecoveryCodes(userId: string): Promise<void> {
    await this.db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  }

  /** Uses a live recovery code once. */
  async consumeRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('two_factor_recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('pending', '=', false)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
