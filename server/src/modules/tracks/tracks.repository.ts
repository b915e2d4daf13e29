import type { SortOrder, TrackSortField } from '@riff/contract';
import { sql, type Expression, type ExpressionBuilder, type Insertable, type SqlBool, type Updateable } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import type { TrackRow, TracksTable } from './tracks.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { pageWithTotal, totalCount } from '../../platform/db/page-total.js';
import { QueryTemplates } from '../../platform/db/query-templates.js';
import { olderVersionsBytesSql } from '../media/track-versions-sql.js';
import { trackModerationSql } from './tracks.policy.js';

export interface TrackListFilter {
  viewerId: string | null;
  /** A moderator or admin: sees tracks hidden by moderation too. */
  viewerIsStaff?: boolean;
  q?: string | undefined;
  genre?: string | undefined;
  creatorId?: string | undefined;
}

const templates = new QueryTemplates();

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** All SQL for tracks, lyrics and storage intents. */
export class TracksRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  findLive(id: string): Promise<TrackRow | undefined> {
    return templates.first(this.db, 'tracks.findLive', [id], (trackId) =>
      this.db.selectFrom('tracks').selectAll().where('id', '=', trackId).where('deleted_at', 'is', null),
    );
  }

  /** Live tracks moderation removed before `cutoff`, in id order after `afterId` (the purge of removed content). */
  async removedBefore(cutoff: Date, afterId: string | null, limit: number): Promise<string[]> {
    let query = this.db
      .selectFrom('tracks')
      .select('id')
      .where('deleted_at', 'is', null)
      .where('moderation_status', '=', 'removed')
      .where('moderated_at', '<', cutoff);
    if (afterId) query = query.where('id', '>', afterId);
    return (await query.orderBy('id').limit(limit).execute()).map((row) => row.id);
  }

  /** The live track, locked for its purge. */
  lockLive(id: string): Promise<TrackRow | undefined> {
    return this.db
      .selectFrom('tracks')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
  }

  /** Holds the track's row (FOR SHARE) until the transaction ends, so it cannot be deleted meanwhile; true when it is live. */
  async holdLive(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('tracks')
      .select('deleted_at')
      .where('id', '=', id)
      .forShare()
      .executeTakeFirst();
    return row !== undefined && row.deleted_at === null;
  }

  findLiveMany(ids: string[]): Promise<TrackRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('tracks').selectAll().where('id', 'in', ids).where('deleted_at', 'is', null).execute();
  }

  insert(track: Insertable<TracksTable>): Promise<TrackRow> {
    return this.db.insertInto('tracks').values(track).returningAll().executeTakeFirstOrThrow();
  }

  update(id: string, changes: Updateable<TracksTable>): Promise<TrackRow | undefined> {
    return this.db
      .updateTable('tracks')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }

  /** Soft delete: answers the file key to remove, once. */
  async softDelete(id: string, now: Date): Promise<string | null | undefined> {
    const row = await this.db
      .updateTable('tracks')
      .set({ deleted_at: now, updated_at: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returning('file_key')
      .executeTakeFirst();
    return row ? row.file_key : undefined;
  }

  private listWhere(eb: ExpressionBuilder<Database, 'tracks'>, filter: TrackListFilter): Expression<SqlBool> {
    const conditions: Expression<SqlBool>[] = [eb('deleted_at', 'is', null)];
    conditions.push(
      filter.viewerId
        ? eb.or([eb('is_public', '=', true), eb('creator_id', '=', filter.viewerId)])
        : eb('is_public', '=', true),
    );
    conditions.push(trackModerationSql({ id: filter.viewerId, isStaff: filter.viewerIsStaff === true }, 'tracks'));
    if (filter.q) {
      const pattern = `%${escapeLike(filter.q)}%`;
      conditions.push(
        eb.or([eb('title', 'ilike', pattern), eb('artist', 'ilike', pattern), eb('album', 'ilike', pattern)]),
      );
    }
    if (filter.genre)
      conditions.push(
        eb.or([
          eb('genre', 'ilike', escapeLike(filter.genre)),
          sql<SqlBool>`genres @> ${JSON.stringify([filter.genre.toLowerCase()])}::jsonb`,
        ]),
      );
    if (filter.creatorId) conditions.push(eb('creator_id', '=', filter.creatorId));
    return eb.and(conditions);
  }

  async list(
    filter: TrackListFilter,
    sort: { by: TrackSortField; order: SortOrder },
    page: { limit: number; offset: number },
  ): Promise<{ rows: TrackRow[]; total: number }> {
    const query = (where: TrackListFilter, limit: number, offset: number) =>
      this.db
        .selectFrom('tracks')
        .selectAll()
        .select(totalCount())
        .where((eb) => this.listWhere(eb, where))
        .orderBy(sort.by, sort.order)
        .orderBy('id')
        .limit(limit)
        .offset(offset);
    // the plain listing (no search, genre or creator) is the hot one: compiled once per sort and per kind of viewer
    const plain = filter.q === undefined && filter.genre === undefined && filter.creatorId === undefined;
    const key = `tracks.list:${sort.by}:${sort.order}${filter.viewerIsStaff ? ':staff' : ''}`;
    const rows = !plain
      ? await query(filter, page.limit, page.offset).execute()
      : filter.viewerId === null
        ? await templates.rows(this.db, `${key}:anonymous`, [page.limit, page.offset], (limit, offset) =>
            query({ viewerId: null }, limit, offset),
          )
        : await templates.rows(
            this.db,
            `${key}:viewer`,
            [filter.viewerId, page.limit, page.offset],
            (viewerId, limit, offset) => query({ viewerId, viewerIsStaff: filter.viewerIsStaff }, limit, offset),
          );
    return pageWithTotal(rows, async () => {
      const counted = await this.db
        .selectFrom('tracks')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where((eb) => this.listWhere(eb, filter))
        .executeTakeFirstOrThrow();
      return Number(counted.total);
    });
  }

  /** Bytes and number of a user's live (not deleted) originals; their older versions' bytes count too (the quota). */
  async liveOriginals(userId: string): Promise<{ bytes: number; count: number }> {
    const row = await this.db
      .selectFrom('tracks')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>('file_size'), eb.lit(0)).as('bytes'),
        eb.fn.countAll<number>().as('count'),
        // the media area keeps the versions: it says how much a track's older ones hold
        sql<number>`coalesce(sum(${olderVersionsBytesSql('tracks.id')}), 0)`.as('version_bytes'),
      ])
      .where('creator_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return { bytes: Number(row.bytes) + Number(row.version_bytes), count: Number(row.count) };
  }

  /** The platform's figures: live tracks, those uploaded since, and the bytes their audio holds (older versions too). */
  async figures(since: Date): Promise<{ tracks: number; tracks_new: number; storage_bytes: number }> {
    const row = await this.db
      .selectFrom('tracks')
      .select((eb) => [
        eb.fn.countAll<string>().as('tracks'),
        eb.fn.count<string>(sql`1`).filterWhere('created_at', '>=', since).as('tracks_new'),
        eb.fn.coalesce(eb.fn.sum<string>('file_size'), eb.lit(0)).as('bytes'),
        sql<string>`coalesce(sum(${olderVersionsBytesSql('tracks.id')}), 0)`.as('version_bytes'),
      ])
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return {
      tracks: Number(row.tracks),
      tracks_new: Number(row.tracks_new),
      storage_bytes: Number(row.bytes) + Number(row.version_bytes),
    };
  }

  /** Whether a live track still stores its file under this key. */
  async fileInUse(key: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('tracks')
      .select('id')
      .where('file_key', '=', key)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  tracksOf(userId: string): Promise<TrackRow[]> {
    return this.db
      .selectFrom('tracks')
      .selectAll()
      .where('creator_id', '=', userId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .execute();
  }

  /** Lyrics of a user's live tracks, in the order of the tracks. */
  lyricsOf(userId: string) {
    return this.db
      .selectFrom('track_lyrics as l')
      .innerJoin('tracks as t', 't.id', 'l.track_id')
      .selectAll('l')
      .where('t.creator_id', '=', userId)
      .where('t.deleted_at', 'is', null)
      .orderBy('t.created_at')
      .orderBy('t.id')
      .execute();
  }

  findLyrics(trackId: string) {
    return this.db.selectFrom('track_lyrics').selectAll().where('track_id', '=', trackId).executeTakeFirst();
  }

  async saveLyrics(trackId: string, content: string, isSynced: boolean) {
    return this.db
      .insertInto('track_lyrics')
      .values({ track_id: trackId, content, is_synced: isSynced })
      .onConflict((oc) => oc.column('track_id').doUpdateSet({ content, is_synced: isSynced, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async deleteLyrics(trackId: string): Promise<void> {
    await this.db.deleteFrom('track_lyrics').where('track_id', '=', trackId).execute();
  }

  /** like_count follows the likers' favorites playlists (the playlists area's track.liked and track.unliked). */
  async addToLikeCount(trackIds: readonly string[], delta: 1 | -1): Promise<void> {
    if (trackIds.length === 0) return;
    await this.db
      .updateTable('tracks')
      .set((eb) => ({ like_count: sql<number>`greatest(0, ${eb.ref('like_count')} + ${delta})` }))
      .where('id', 'in', trackIds)
      .execute();
  }

  /** The nonce of the track's live secret link, made now if it has none (concurrent shares agree on one). */
  async secretNonce(trackId: string, fresh: { nonce: string; hash: (nonce: string) => string }): Promise<string> {
    const made = await this.db
      .updateTable('tracks')
      .set({ share_secret_nonce: fresh.nonce, share_secret_hash: fresh.hash(fresh.nonce) })
      .where('id', '=', trackId)
      .where('share_secret_nonce', 'is', null)
      .returning('share_secret_nonce')
      .executeTakeFirst();
    if (made?.share_secret_nonce) return made.share_secret_nonce;
    const row = await this.db
      .selectFrom('tracks')
      .select('share_secret_nonce')
      .where('id', '=', trackId)
      .executeTakeFirstOrThrow();
    return row.share_secret_nonce ?? fresh.nonce;
  }

  /** The user's live private tracks that have a secret link, with its nonce, newest first. */
  liveSecretsOf(userId: string): Promise<{ id: string; share_secret_nonce: string; updated_at: Date }[]> {
    return this.db
      .selectFrom('tracks')
      .select(['id', 'share_secret_nonce', 'updated_at'])
      .where('creator_id', '=', userId)
      .where('deleted_at', 'is', null)
      .where('is_public', '=', false)
      .where('share_secret_hash', 'is not', null)
      .where('share_secret_nonce', 'is not', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute() as Promise<{ id: string; share_secret_nonce: string; updated_at: Date }[]>;
  }

  /** Clears the track's secret link; answers whether it had one. */
  async revokeSecret(trackId: string): Promise<boolean> {
    const row = await this.db
      .updateTable('tracks')
      .set({ share_secret_nonce: null, share_secret_hash: null })
      .where('id', '=', trackId)
      .where('share_secret_hash', 'is not', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A download of the original, counted in the owner's stats (track social). */
  async recordDownload(trackId: string): Promise<void> {
    await this.db.insertInto('track_downloads').values({ track_id: trackId }).execute();
  }

  // storage intents: an object being written is recorded first, so a crash leaves a trace to clean

  async addIntent(key: string): Promise<void> {
    await this.db
      .insertInto('storage_intents')
      .values({ key })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }

  async removeIntent(key: string): Promise<void> {
    await this.db.deleteFrom('storage_intents').where('key', '=', key).execute();
  }

  async staleIntents(before: Date): Promise<string[]> {
    const rows = await this.db
      .selectFrom('storage_intents')
      .select('key')
      .where('created_at', '<', before)
      .limit(500)
      .execute();
    return rows.map((row) => row.key);
  }
}
