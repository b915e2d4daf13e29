import type { ModerationStatus } from '@riff/contract';
import { sql, type Insertable, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { PageWindow } from '../../platform/http/pagination.js';

/** A post; what a reader sees of its author comes from the users area (PeopleReader.names). */
export interface GroupPostRow {
  id: string;
  group_id: string;
  author_id: string;
  parent_id: string | null;
  content: string;
  track_id: string | null;
  playlist_id: string | null;
  is_pinned: boolean;
  pinned_at: Date | null;
  reply_count: number;
  is_edited: boolean;
  moderation_status: ModerationStatus;
  moderation_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export type NewGroupPost = Pick<
  Insertable<Database['group_posts']>,
  'group_id' | 'author_id' | 'parent_id' | 'content' | 'track_id' | 'playlist_id'
>;

/**
 * The posts a reader does not see, as a condition over the group_posts table (unaliased): built by
 * the policy (postsUnseenSql) from the reader's blocks and the moderation rule; null when the reader
 * sees every post.
 */
export type UnseenPosts = RawBuilder<SqlBool> | null;

type PostsQuery = SelectQueryBuilder<Database, 'group_posts', object>;

const COLUMNS = [
  'p.id',
  'p.group_id',
  'p.author_id',
  'p.parent_id',
  'p.content',
  'p.track_id',
  'p.playlist_id',
  'p.is_pinned',
  'p.pinned_at',
  'p.reply_count',
  'p.is_edited',
  'p.moderation_status',
  'p.moderation_reason',
  'p.created_at',
  'p.updated_at',
] as const;

/** Every query of group posts. Pages read the partial indexes of migration 0041 and never count the rows a reader sees. */
export class GroupPostsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  private selected() {
    return this.db.selectFrom('group_posts as p').select(COLUMNS);
  }

  async find(id: string): Promise<GroupPostRow | undefined> {
    return this.selected().where('p.id', '=', id).executeTakeFirst();
  }

  /** Locks the post's row for the rest of the unit of work (reply counts, pins, deletion). */
  async lock(id: string): Promise<GroupPostRow | undefined> {
    const locked = await this.db
      .selectFrom('group_posts')
      .select('id')
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    return locked ? this.find(id) : undefined;
  }

  async insert(post: NewGroupPost): Promise<string> {
    const row = await this.db.insertInto('group_posts').values(post).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async addReplies(parentId: string, delta: number): Promise<void> {
    await this.db
      .updateTable('group_posts')
      .set((eb) => ({ reply_count: eb('reply_count', '+', delta) }))
      .where('id', '=', parentId)
      .execute();
  }

  async updateContent(id: string, content: string, at: Date): Promise<void> {
    await this.db
      .updateTable('group_posts')
      .set({ content, is_edited: true, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async setPinned(id: string, pinnedAt: Date | null): Promise<void> {
    await this.db
      .updateTable('group_posts')
      .set({ is_pinned: pinnedAt !== null, pinned_at: pinnedAt })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes a post (a top-level post's replies go with it): the number of replies that went. */
  async remove(id: string): Promise<number> {
    const replies = await this.db.deleteFrom('group_posts').where('parent_id', '=', id).executeTakeFirst();
    await this.db.deleteFrom('group_posts').where('id', '=', id).execute();
    return Number(replies.numDeletedRows);
  }

  /** The group's top-level posts the reader sees: `stored` (its post_count) less those they do not. */
  async topLevelCount(groupId: string, stored: number, unseen: UnseenPosts): Promise<number> {
    if (!unseen) return stored;
    const left = await this.db
      .selectFrom('group_posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('group_id', '=', groupId)
      .where('parent_id', 'is', null)
      .where(unseen)
      .executeTakeFirstOrThrow();
    return Math.max(0, stored - Number(left.n));
  }

  /** A post's replies the reader sees: `stored` (its reply_count) less those they do not. */
  async replyCount(parentId: string, stored: number, unseen: UnseenPosts): Promise<number> {
    if (!unseen) return stored;
    const left = await this.db
      .selectFrom('group_posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('parent_id', '=', parentId)
      .where(unseen)
      .executeTakeFirstOrThrow();
    return Math.max(0, stored - Number(left.n));
  }

  /** One page: the ids come from the index in its order, then only those rows are read. */
  private async page(ids: PostsQuery, order: 'list' | 'oldest', window: PageWindow, unseen: UnseenPosts) {
    const filtered = unseen ? ids.where(sql<SqlBool>`not (${unseen})`) : ids;
    const slice = (
      order === 'list'
        ? filtered
            .select('group_posts.id')
            .orderBy('group_posts.is_pinned', 'desc')
            .orderBy('group_posts.pinned_at', 'desc')
            .orderBy('group_posts.created_at', 'desc')
            .orderBy('group_posts.id', 'desc')
        : filtered.select('group_posts.id').orderBy('group_posts.created_at').orderBy('group_posts.id')
    )
      .limit(window.limit)
      .offset(window.offset);
    const rows = this.selected().where('p.id', 'in', slice);
    return order === 'list'
      ? rows
          .orderBy('p.is_pinned', 'desc')
          .orderBy('p.pinned_at', 'desc')
          .orderBy('p.created_at', 'desc')
          .orderBy('p.id', 'desc')
          .execute()
      : rows.orderBy('p.created_at').orderBy('p.id').execute();
  }

  /** Pinned first (latest pinned first), then newest. */
  async topLevelPage(groupId: string, window: PageWindow, unseen: UnseenPosts): Promise<GroupPostRow[]> {
    const ids = this.db
      .selectFrom('group_posts')
      .where('group_posts.group_id', '=', groupId)
      .where('group_posts.parent_id', 'is', null);
    return this.page(ids, 'list', window, unseen);
  }

  async repliesPage(parentId: string, window: PageWindow, unseen: UnseenPosts): Promise<GroupPostRow[]> {
    return this.page(
      this.db.selectFrom('group_posts').where('group_posts.parent_id', '=', parentId),
      'oldest',
      window,
      unseen,
    );
  }

  /** The user's posts and replies, oldest first, for their data export. */
  async allOf(userId: string): Promise<GroupPostRow[]> {
    return this.selected().where('p.author_id', '=', userId).orderBy('p.created_at').orderBy('p.id').execute();
  }

  /** Ids of the user's posts, replies first (so that their parents' counts are right when those go). */
  async idsOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('group_posts')
      .select('id')
      .where('author_id', '=', userId)
      .orderBy((eb) => eb.case().when('parent_id', 'is', null).then(1).else(0).end())
      .execute();
    return rows.map((row) => row.id);
  }
}
