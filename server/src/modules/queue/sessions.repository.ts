import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { QueueSessionItemsTable, QueueSessionMessagesTable, QueueSessionsTable } from './queue.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';

export type SessionRow = Selectable<QueueSessionsTable>;
export type SessionItemRow = Selectable<QueueSessionItemsTable>;
export type ChatMessageRow = Selectable<QueueSessionMessagesTable>;

/** All SQL of shared sessions: the session, its items, participants and chat. */
export class SessionsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** A live session by the sha256 of its token; `lock` holds its row until the unit of work ends. */
  findLive(tokenHash: string, now: Date, lock = false): Promise<SessionRow | undefined> {
    let query = this.db
      .selectFrom('queue_sessions')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now);
    if (lock) query = query.forUpdate();
    return query.executeTakeFirst();
  }

  findLiveById(id: string, now: Date): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('queue_sessions')
      .selectAll()
      .where('id', '=', id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  countLiveOf(hostId: string, now: Date): Promise<number> {
    return this.db
      .selectFrom('queue_sessions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('host_id', '=', hostId)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }

  insert(session: Insertable<QueueSessionsTable>): Promise<SessionRow> {
    return this.db.insertInto('queue_sessions').values(session).returningAll().executeTakeFirstOrThrow();
  }

  /** A change: the playback fields given, and the session lives another TTL from now. */
  touch(
    id: string,
    changes: Omit<Updateable<QueueSessionsTable>, 'id' | 'token_hash' | 'host_id'>,
  ): Promise<SessionRow> {
    return this.db
      .updateTable('queue_sessions')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('queue_sessions').where('id', '=', id).execute();
  }

  items(sessionId: string): Promise<SessionItemRow[]> {
    return this.db
      .selectFrom('queue_session_items')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('position')
      .execute();
  }

  countItems(sessionId: string): Promise<number> {
    return this.db
      .selectFrom('queue_session_items')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }

  async insertItems(
    sessionId: string,
    trackIds: readonly string[],
    addedBy: string,
    now: Date,
    from = 0,
  ): Promise<string[]> {
    if (trackIds.length === 0) return [];
    const rows = trackIds.map((trackId, index) => ({
      id: randomUUID(),
      session_id: sessionId,
      track_id: trackId,
      added_by: addedBy,
      position: from + index,
      added_at: now,
    }));
    await this.db.insertInto('queue_session_items').values(rows).execute();
    return rows.map((row) => row.id);
  }

  findItem(sessionId: string, itemId: string): Promise<SessionItemRow | undefined> {
    return this.db
      .selectFrom('queue_session_items')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('id', '=', itemId)
      .executeTakeFirst();
  }

  async removeItem(sessionId: string, item: { id: string; position: number }): Promise<void> {
    await this.db.deleteFrom('queue_session_items').where('id', '=', item.id).execute();
    await this.db
      .updateTable('queue_session_items')
      .set({ position: sql`position - 1` })
      .where('session_id', '=', sessionId)
      .where('position', '>', item.position)
      .execute();
  }

  async join(sessionId: string, userId: string, now: Date): Promise<void> {
    await this.db
      .insertInto('queue_session_participants')
      .values({ session_id: sessionId, user_id: userId, joined_at: now })
      .onConflict((oc) => oc.columns(['session_id', 'user_id']).doNothing())
      .execute();
  }

  /** Each user leaves the sessions the other hosts (both ways). */
  async leaveBetween(a: string, b: string): Promise<void> {
    await this.db
      .deleteFrom('queue_session_participants')
      .where((eb) =>
        eb.or([
          eb.and([
            eb('user_id', '=', b),
            eb('session_id', 'in', eb.selectFrom('queue_sessions').select('id').where('host_id', '=', a)),
          ]),
          eb.and([
            eb('user_id', '=', a),
            eb('session_id', 'in', eb.selectFrom('queue_sessions').select('id').where('host_id', '=', b)),
          ]),
        ]),
      )
      .execute();
  }

  /** The host and every other user who joined. */
  async participantsCount(sessionId: string, hostId: string): Promise<number> {
    const row = await this.db
      .selectFrom('queue_session_participants')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('session_id', '=', sessionId)
      .where('user_id', '!=', hostId)
      .executeTakeFirstOrThrow();
    return Number(row.n) + 1;
  }

  insertMessage(message: Insertable<QueueSessionMessagesTable>): Promise<Selectable<QueueSessionMessagesTable>> {
    return this.db.insertInto('queue_session_messages').values(message).returningAll().executeTakeFirstOrThrow();
  }

  /** The last `limit` chat messages, oldest first. */
  async lastMessages(sessionId: string, limit: number): Promise<ChatMessageRow[]> {
    const rows = await this.db
      .selectFrom('queue_session_messages')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  }

  /** Sessions past their time, for the prune job (their ids, for the `ended` message). */
  async removeExpired(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .deleteFrom('queue_sessions')
      .where('id', 'in', (eb) =>
        eb.selectFrom('queue_sessions').select('id').where('expires_at', '<=', now).limit(limit),
      )
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  hostedBy(hostId: string, now: Date): Promise<SessionRow[]> {
    return this.db
      .selectFrom('queue_sessions')
      .selectAll()
      .where('host_id', '=', hostId)
      .where('expires_at', '>', now)
      .orderBy('created_at')
      .execute();
  }

  async trackIdsOf(sessionIds: string[]): Promise<Map<string, string[]>> {
    const byId = new Map<string, string[]>(sessionIds.map((id) => [id, []]));
    if (sessionIds.length === 0) return byId;
    const rows = await this.db
      .selectFrom('queue_session_items')
      .select(['session_id', 'track_id'])
      .where('session_id', 'in', sessionIds)
      .orderBy('position')
      .execute();
    for (const row of rows) byId.get(row.session_id)?.push(row.track_id);
    return byId;
  }

  messagesBy(userId: string): Promise<Selectable<QueueSessionMessagesTable>[]> {
    return this.db
      .selectFrom('queue_session_messages')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
  }

  /** Account erasure: the sessions they host go (with their items and chat), and their words and traces in others'. */
  async eraseFor(userId: string): Promise<{ sessions: string[]; messages: number }> {
    const sessions = await this.db.deleteFrom('queue_sessions').where('host_id', '=', userId).returning('id').execute();
    const messages = await this.db
      .deleteFrom('queue_session_messages')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    await this.db.deleteFrom('queue_session_participants').where('user_id', '=', userId).execute();
    await this.db.updateTable('queue_session_items').set({ added_by: null }).where('added_by', '=', userId).execute();
    return { sessions: sessions.map((row) => row.id), messages: Number(messages.numDeletedRows) };
  }
}
