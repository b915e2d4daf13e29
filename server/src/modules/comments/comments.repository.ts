import type { CommentSort } from '@riff/contract';
import type { ModerationStatus } from '@riff/contract';
import { sql, type Insertable, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { PageWindow } from '../../platform/http/pagination.js';
import { liveTrackSql } from '../tracks/live-track-sql.js';

/** A comment; what a reader sees of its author comes from the users area (PeopleReader.names). */
export interface CommentRow {
  id: string;
  track_id: string;
  user_id: string | null;
  parent_id: string | null;
  content: string | null;
  position_seconds: number;
  reply_count: number;
  is_edited: boolean;
  moderation_status: ModerationStatus;
  moderation_reason: string | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewComment = Pick<
  Insertable<Database['comments']>,
  'track_id' | 'user_id' | 'parent_id' | 'content' | 'position_seconds'
>;

type CommentsQuery = SelectQueryBuilder<Database, 'comments', object>;

const COLUMNS = [
  'c.id',
  'c.track_id',
  'c.user_id',
  'c.parent_id',
  'c.content',
  'c.position_seconds',
  'c.reply_count',
  'c.is_edited',
  'c.moderation_status',
  'c.moderation_reason',
  'c.deleted_at',
  'c.created_at',
  'c.updated_at',
] as const;

/**
 * The comments a reader does not see, as a condition over the comments table (unaliased): built by
 * the policy (commentsUnseenSql) from the reader's blocks and the moderation rule; null when the
 * reader sees every comment.
 */
export type UnseenComments = RawBuilder<SqlBool> | null;

function ordered<Q extends CommentsQuery>(query: Q, sort: CommentSort, reverse: boolean): Q {
  const forward = (sort !== 'newest') !== reverse;
  const direction = forward ? 'asc' : 'desc';
  const byTime = sort === 'timestamp' ? (query.orderBy('comments.position_seconds', direction) as Q) : query;
  return byTime.orderBy('comments.created_at', direction).orderBy('comments.id', direction) as Q;
}

/** Every query of comments. Pages read the partial indexes of migration 0008 and never count rows. */
export class CommentsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The platform's figures: comments written since (deleted ones too: they were written). */
  async createdSince(since: Date): Promise<number> {
    const row = await this.db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private selected() {
    return this.db.selectFrom('comments as c').select(COLUMNS);
  }

  async find(id: string): Promise<CommentRow | undefined> {
    return this.selected().where('c.id', '=', id).executeTakeFirst();
  }

  /** Locks the comment's row for the rest of the unit of work (reply counts, deletion). */
  async lock(id: string): Promise<CommentRow | undefined> {
    const locked = await this.db
      .selectFrom('comments')
      .select('id')
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    return locked ? this.find(id) : undefined;
  }

  async insert(comment: NewComment): Promise<string> {
    const row = await this.db.insertInto('comments').values(comment).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async addReplies(parentId: string, delta: number): Promise<number> {
    const row = await this.db
      .updateTable('comments')
      .set((eb) => ({ reply_count: eb('reply_count', '+', delta) }))
      .where('id', '=', parentId)
      .returning('reply_count')
      .executeTakeFirstOrThrow();
    return row.reply_count;
  }

  async addTopLevel(trackId: string, delta: number): Promise<void> {
    await this.db
      .insertInto('track_comment_counts')
      .values({ track_id: trackId, top_level: Math.max(0, delta) })
      .onConflict((oc) =>
        oc.column('track_id').doUpdateSet((eb) => ({ top_level: eb('track_comment_counts.top_level', '+', delta) })),
      )
      .execute();
  }

  async updateContent(id: string, content: string, at: Date): Promise<void> {
    await this.db
      .updateTable('comments')
      .set({ content, is_edited: true, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** A deleted comment that still has replies: neither content nor author stays. */
  async tombstone(id: string, at: Date): Promise<void> {
    await this.db
      .updateTable('comments')
      .set({ content: null, user_id: null, deleted_at: at, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('comments').where('id', '=', id).execute();
  }

  /** Every comment of a track and its count (the track is deleted). */
  async removeAllOfTrack(trackId: string): Promise<number> {
    const result = await this.db.deleteFrom('comments').where('track_id', '=', trackId).executeTakeFirst();
    await this.db.deleteFrom('track_comment_counts').where('track_id', '=', trackId).execute();
    return Number(result.numDeletedRows);
  }

  /** Comments and replies on a track that are not deleted, made since `since` (all when null): the track's stats. */
  async liveCountSince(trackId: string, since: Date | null): Promise<number> {
    let query = this.db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('track_id', '=', trackId)
      .where('deleted_at', 'is', null);
    if (since) query = query.where('created_at', '>=', since);
    return Number((await query.executeTakeFirstOrThrow()).count);
  }

  /** The track's top-level comments the reader sees: the stored count less those they do not. */
  async topLevelCount(trackId: string, unseen: UnseenComments): Promise<number> {
    const stored = await this.db
      .selectFrom('track_comment_counts')
      .select('top_level')
      .where('track_id', '=', trackId)
      .executeTakeFirst();
    if (!unseen) return stored?.top_level ?? 0;
    const left = await this.db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('track_id', '=', trackId)
      .where('parent_id', 'is', null)
      .where(unseen)
      .executeTakeFirstOrThrow();
    return Math.max(0, (stored?.top_level ?? 0) - Number(left.n));
  }

  /** A comment's replies the reader sees: `stored` (its reply_count) less those they do not. */
  async replyCount(parentId: string, stored: number, unseen: UnseenComments): Promise<number> {
    if (!unseen) return stored;
    const left = await this.db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('parent_id', '=', parentId)
      .where(unseen)
      .executeTakeFirstOrThrow();
    return Math.max(0, stored - Number(left.n));
  }

  /**
   * One page of `total` rows: the ids come from the index alone, then only those rows are read. A
   * page in the second half is read from the other end of the index, so the last page costs what
   * the first does and the deepest is the middle one.
   */
  private async page(
    ids: CommentsQuery,
    sort: CommentSort,
    window: PageWindow,
    unseen: UnseenComments,
    total: number,
  ): Promise<CommentRow[]> {
    const filtered = unseen ? ids.where(sql<SqlBool>`not (${unseen})`) : ids;
    const reverse = window.offset > total - window.offset;
    const limit = reverse ? Math.min(window.limit, total - window.offset) : window.limit;
    const offset = reverse ? Math.max(0, total - window.offset - window.limit) : window.offset;
    const slice = ordered(filtered.select('comments.id'), sort, reverse).limit(limit).offset(offset);
    let rows = this.selected().where('c.id', 'in', slice);
    if (sort === 'timestamp') rows = rows.orderBy('c.position_seconds');
    const direction = sort === 'newest' ? 'desc' : 'asc';
    return rows.orderBy('c.created_at', direction).orderBy('c.id', direction).execute();
  }

  /** `total`: as topLevelCount gave it for the same `unseen`. */
  async topLevelPage(
    trackId: string,
    sort: CommentSort,
    window: PageWindow,
    unseen: UnseenComments,
    total: number,
  ): Promise<CommentRow[]> {
    const ids = this.db
      .selectFrom('comments')
      .where('comments.track_id', '=', trackId)
      .where('comments.parent_id', 'is', null);
    return this.page(ids, sort, window, unseen, total);
  }

  async repliesPage(
    parentId: string,
    window: PageWindow,
    unseen: UnseenComments,
    total: number,
  ): Promise<CommentRow[]> {
    return this.page(
      this.db.selectFrom('comments').where('comments.parent_id', '=', parentId),
      'oldest',
      window,
      unseen,
      total,
    );
  }

  /** The user's own comments that a reader can still see (not deleted, on a live track), for the export. */
  async liveOf(userId: string): Promise<CommentRow[]> {
    return this.selected()
      .where('c.user_id', '=', userId)
      .where('c.deleted_at', 'is', null)
      .where(liveTrackSql('c.track_id'))
      .orderBy('c.created_at')
      .orderBy('c.id')
      .execute();
  }

  /** Ids of the user's comments, replies first (so that their parents' counts are right when those go). */
  async idsOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('comments')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy((eb) => eb.case().when('parent_id', 'is', null).then(1).else(0).end())
      .execute();
    return rows.map((row) => row.id);
  }
}
