import { sql, type Insertable, type SqlBool, type Updateable } from 'kysely';
import type { GroupRole } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import { moderationAllowsSql } from '../../platform/access/moderation.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { totalCount, pageWithTotal } from '../../platform/db/page-total.js';
import { searchDoc, textQuery } from '../../platform/search/text-search.js';
import type { GroupRow, GroupsTable } from './groups.tables.js';

/** A group as one caller stands in it: their role, a pending request or invite, a ban. */
export type GroupView = GroupRow & {
  my_role: GroupRole | null;
  my_pending: boolean;
  my_invite_id: string | null;
  my_banned: boolean;
};

/** A page of rows and how many match. */
export interface Paged<T> {
  rows: T[];
  total: number;
}

/**
 * All SQL of groups themselves (the membership tables are membership.repository.ts's). Every read
 * leaves deleted groups out; which groups a caller may see is the policy's (one group) or the list's
 * SQL below (many), the same rule.
 */
export class GroupsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The caller's place in the group `g`, as columns of a view. */
  private viewSelect(userId: string | null) {
    return this.db
      .selectFrom('groups as g')
      .selectAll('g')
      .select([
        sql<GroupRole | null>`(select m.role from group_members m where m.group_id = g.id and m.user_id = ${userId})`.as(
          'my_role',
        ),
        sql<boolean>`exists (select 1 from group_join_requests r where r.group_id = g.id and r.user_id = ${userId})`.as(
          'my_pending',
        ),
        sql<
          string | null
        >`(select i.id from group_invites i where i.group_id = g.id and i.user_id = ${userId} and i.status = 'pending')`.as(
          'my_invite_id',
        ),
        sql<boolean>`exists (select 1 from group_bans b where b.group_id = g.id and b.user_id = ${userId})`.as(
          'my_banned',
        ),
      ])
      .where('g.deleted_at', 'is', null);
  }

  async view(id: string, userId: string | null): Promise<GroupView | undefined> {
    return this.viewSelect(userId).where('g.id', '=', id).executeTakeFirst();
  }

  async viewBySlug(slug: string, userId: string | null): Promise<GroupView | undefined> {
    return this.viewSelect(userId).where('g.slug', '=', slug).executeTakeFirst();
  }

  async views(ids: readonly string[], userId: string | null): Promise<GroupView[]> {
    if (ids.length === 0) return [];
    return this.viewSelect(userId)
      .where('g.id', 'in', [...ids])
      .execute();
  }

  /** The live group row, locked until the transaction ends (membership changes of one group run one at a time). */
  async lock(id: string): Promise<GroupRow | undefined> {
    return this.db
      .selectFrom('groups')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
  }

  async insert(row: Insertable<GroupsTable>): Promise<GroupRow> {
    return this.db.insertInto('groups').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: string, changes: Updateable<GroupsTable>): Promise<void> {
    await this.db
      .updateTable('groups')
      .set({ ...changes, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** Serialises slug choices of one base until the transaction ends (two groups named alike at once). */
  async lockSlug(base: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtext(${`group-slug:${base}`}))`.execute(this.db);
  }

  /** Slugs taken (deleted groups keep theirs) equal to `base` or `base-N`. */
  async slugsLike(base: string, exceptId?: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('groups')
      .select('slug')
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base.replace(/[\\%_]/g, '\\$&')}-%`)]))
      .$if(exceptId !== undefined, (query) => query.where('id', '!=', exceptId!))
      .execute();
    return rows.map((row) => row.slug);
  }

  /** Groups a user owns (deleted ones do not count). */
  async countOwned(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('groups')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('owner_id', '=', ownerId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * A page of the groups the caller may list: public ones and private ones they are a member of
   * (member=me: only theirs), as moderation lets them see, best name matches first with q, else newest.
   */
  async list(
    actor: Actor,
    filter: { q?: string; mineOnly: boolean },
    window: { limit: number; offset: number },
  ): Promise<Paged<GroupView>> {
    const me = actor.id;
    const isMember = sql<SqlBool>`exists (select 1 from group_members lm where lm.group_id = g.id and lm.user_id = ${me})`;
    const text = filter.q ? textQuery(filter.q) : undefined;
    const doc = searchDoc(sql.ref('g.name'));
    let query = this.viewSelect(me)
      .where(moderationAllowsSql(actor, 'g', 'owner_id'))
      .where(filter.mineOnly ? isMember : sql<SqlBool>`(g.visibility = 'public' or ${isMember})`);
    if (text) query = query.where(text.matches(doc));
    const ordered = text
      ? query.orderBy(text.tier([sql.ref('g.name')], doc)).orderBy(text.closeness(doc), 'desc')
      : query;
    const rows = await ordered
      .select(totalCount())
      .orderBy('g.created_at', 'desc')
      .orderBy('g.id')
      .limit(window.limit)
      .offset(window.offset)
      .execute();
    return pageWithTotal(rows, async () => {
      const count = await query
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(count.count);
    });
  }

  /** post_count moves by `by`, in the unit of work of the posts' change (GroupCounters). */
  async addToPostCount(groupId: string, by: number): Promise<void> {
    await this.db
      .updateTable('groups')
      .set({ post_count: sql`greatest(post_count + ${by}, 0)` })
      .where('id', '=', groupId)
      .execute();
  }

  /** The groups a user owns (live), oldest first: for the export and erasure. */
  async owned(ownerId: string): Promise<GroupRow[]> {
    return this.db
      .selectFrom('groups')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .execute();
  }

  /** The member who takes over a group whose owner goes: its oldest admin by joined date. */
  async oldestAdmin(groupId: string, exceptUserId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('group_members')
      .select('user_id')
      .where('group_id', '=', groupId)
      .where('role', '=', 'admin')
      .where('user_id', '!=', exceptUserId)
      .orderBy('joined_at')
      .orderBy('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }
}
