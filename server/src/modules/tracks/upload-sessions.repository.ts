import type { Selectable } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';

export type UploadSessionRow = Selectable<Database['upload_sessions']>;

/** Chunked-upload sessions and the chunks received so far. */
export class UploadSessionsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  async create(session: {
    id: string;
    userId: string;
    filename: string;
    totalChunks: number;
    totalSize: number;
  }): Promise<UploadSessionRow> {
    return this.db
      .insertInto('upload_sessions')
      .values({
        id: session.id,
        user_id: session.userId,
        filename: session.filename,
        total_chunks: session.totalChunks,
        total_size: session.totalSize,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Declared sizes of a user's sessions active since `activeSince`: space promised to them. */
  async reservedBytes(userId: string, activeSince: Date): Promise<number> {
    const row = await this.db
      .selectFrom('upload_sessions')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('total_size'), eb.lit(0)).as('bytes'))
      .where('user_id', '=', userId)
      .where('updated_at', '>', activeSince)
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  }

  /** How many sessions this user has open (active since `activeSince`). */
  async openCount(userId: string, activeSince: Date): Promise<number> {
    const row = await this.db
      .selectFrom('upload_sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('updated_at', '>', activeSince)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A live session of this user (not idle past `idleSince`). */
  find(id: string, userId: string, idleSince: Date): Promise<UploadSessionRow | undefined> {
    return this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('updated_at', '>', idleSince)
      .executeTakeFirst();
  }

  async chunks(uploadId: string): Promise<{ chunk_number: number; size: number }[]> {
    return this.db
      .selectFrom('upload_chunks')
      .select(['chunk_number', 'size'])
      .where('upload_id', '=', uploadId)
      .orderBy('chunk_number')
      .execute();
  }

  /** Records a chunk (again, if resent) and keeps its session alive; answers how many chunks it now has. In a unit of work. */
  async saveChunk(uploadId: string, chunkNumber: number, size: number, now: Date): Promise<number> {
    await this.db
      .insertInto('upload_chunks')
      .values({ upload_id: uploadId, chunk_number: chunkNumber, size })
      .onConflict((oc) => oc.columns(['upload_id', 'chunk_number']).doUpdateSet({ size }))
      .execute();
    await this.db.updateTable('upload_sessions').set({ updated_at: now }).where('id', '=', uploadId).execute();
    const counted = await this.db
      .selectFrom('upload_chunks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('upload_id', '=', uploadId)
      .executeTakeFirstOrThrow();
    return Number(counted.n);
  }

  /** Only one complete at a time: false when another is assembling this session. */
  async claimForAssembly(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('upload_sessions')
      .set({ state: 'assembling' })
      .where('id', '=', id)
      .where('state', '=', 'active')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async release(id: string, now: Date): Promise<void> {
    await this.db
      .updateTable('upload_sessions')
      .set({ state: 'active', updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('upload_sessions').where('id', '=', id).execute();
  }

  async idle(before: Date): Promise<string[]> {
    const rows = await this.db
      .selectFrom('upload_sessions')
      .select('id')
      .where('updated_at', '<', before)
      .limit(200)
      .execute();
    return rows.map((row) => row.id);
  }
}
