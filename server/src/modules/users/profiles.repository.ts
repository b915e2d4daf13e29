import type { SortOrder, UserSortField } from '@riff/contract';
import { sql, type AliasableExpression, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import type { UserRow } from './users.tables.js';
import { pageWithTotal, totalCount } from '../../platform/db/page-total.js';
import { QueryTemplates } from '../../platform/db/query-templates.js';
import {
  normalForm,
  searchDoc,
  startsWith,
  textQuery,
  withTypoFallback,
  type TextQuery,
} from '../../platform/search/text-search.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { notBlockedSql } from './people-sql.js';

type ProfileDb = Database & { u: Database['users'] };
type ProfileEb = ExpressionBuilder<ProfileDb, 'u'>;

export type ProfileRow = UserRow & {
  follower_count: number;
  following_count: number;
  is_following: boolean | null;
};

export interface ProfileFilter {
  role?: UserRow['role'] | undefined;
  isActive?: boolean | undefined;
  isVerified?: boolean | undefined;
  /** Matches username; first and last name where the viewer may see them; email too when searchEmail. */
  search?: string | undefined;
  searchEmail?: boolean;
  /** The search engine's query (GET /users/search): username, and names where the viewer may see them; users the viewer blocked are left out too. */
  text?: string | undefined;
  /** The engine's query for `text` (set by list: without typos first, then with them). */
  engine?: TextQuery;
  /** The viewer (an admin) sees every field, so search may match private names. */
  privileged?: boolean;
  /** Admins also see deactivated and banned accounts. */
  includeInactive?: boolean;
}

export interface Page {
  limit: number;
  offset: number;
}

export type ProfileSort = { by: UserSortField; order: SortOrder } | { by: 'relevance'; query: string };

const templates = new QueryTemplates();

/** The engine's documents of a user (migration 0015): the username alone, and with the names. */
const USERNAME_DOC = normalForm(sql`u.username::text`);
const PERSON_DOC = searchDoc(sql`u.username::text`, sql`u.first_name`, sql`u.last_name`);

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Reads of users as profiles, with follow counts and the viewer's relation, in one query. */
export class ProfilesRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  private base(viewerId: string | null) {
    return this.db
      .selectFrom('users as u')
      .selectAll('u')
      .select((eb) => {
        const isFollowing: AliasableExpression<boolean | null> = viewerId
          ? eb
              .exists(
                eb
                  .selectFrom('follows as f')
                  .select('f.follower_id')
                  .whereRef('f.followee_id', '=', 'u.id')
                  .where('f.follower_id', '=', viewerId),
              )
              .$castTo<boolean | null>()
          : sql<boolean | null>`null`;
        return [
          eb
            .selectFrom('follows as f')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('f.followee_id', '=', 'u.id')
            .$asScalar()
            .$notNull()
            .as('follower_count'),
          eb
            .selectFrom('follows as f')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('f.follower_id', '=', 'u.id')
            .$asScalar()
            .$notNull()
            .as('following_count'),
          isFollowing.as('is_following'),
        ];
      });
  }

  /** Visible to the viewer: not deleted, email verified (unless it is the viewer) and not blocking the viewer. */
  private visible(eb: ProfileEb, viewerId: string | null, includeInactive: boolean): Expression<SqlBool> {
    const conditions: Expression<SqlBool>[] = [eb('u.deleted_at', 'is', null)];
    if (!includeInactive) {
      conditions.push(eb('u.is_active', '=', true), eb('u.is_banned', '=', false));
      conditions.push(
        viewerId ? eb.or([eb('u.is_verified', '=', true), eb('u.id', '=', viewerId)]) : eb('u.is_verified', '=', true),
      );
    }
    if (viewerId) {
      conditions.push(
        eb.not(
          eb.exists(
            eb
              .selectFrom('blocks as b')
              .select('b.blocker_id')
              .whereRef('b.blocker_id', '=', 'u.id')
              .where('b.blocked_id', '=', viewerId),
          ),
        ),
      );
    }
    return eb.and(conditions);
  }

  private matches(eb: ProfileEb, filter: ProfileFilter, viewerId: string | null): Expression<SqlBool> {
    const conditions: Expression<SqlBool>[] = [this.visible(eb, viewerId, filter.includeInactive ?? false)];
    if (filter.role) conditions.push(eb('u.role', '=', filter.role));
    if (filter.isActive !== undefined) conditions.push(eb('u.is_active', '=', filter.isActive));
    if (filter.isVerified !== undefined) conditions.push(eb('u.is_verified', '=', filter.isVerified));
    if (filter.search) {
      const pattern = `%${escapeLike(filter.search)}%`;
      const names = eb.or([eb('u.first_name', 'ilike', pattern), eb('u.last_name', 'ilike', pattern)]);
      // never match a field the viewer may not see (private profiles hide their names)
      const namesSeen = filter.privileged
        ? names
        : eb.and([eb.or([eb('u.is_public', '=', true), ...(viewerId ? [eb('u.id', '=', viewerId)] : [])]), names]);
      const fields = [eb('u.username', 'ilike', pattern), namesSeen];
      if (filter.searchEmail) fields.push(eb('u.email', 'ilike', pattern));
      conditions.push(eb.or(fields));
    }
    if (filter.engine) conditions.push(this.textMatches(eb, filter.engine, filter.privileged ?? false, viewerId));
    return eb.and(conditions);
  }

  private textMatches(
    eb: ProfileEb,
    text: TextQuery,
    privileged: boolean,
    viewerId: string | null,
  ): Expression<SqlBool> {
    const namesSeen = privileged
      ? sql<SqlBool>`true`
      : viewerId
        ? sql<SqlBool>`(u.is_public or u.id = ${viewerId})`
        : sql<SqlBool>`u.is_public`;
    const matched = sql<SqlBool>`((${namesSeen} and ${text.matches(PERSON_DOC)}) or ${text.matches(USERNAME_DOC, { tokens: false })})`;
    if (!viewerId) return matched;
    const blocked = eb.exists(
      eb
        .selectFrom('blocks as nb')
        .select('nb.blocked_id')
        .where('nb.blocker_id', '=', viewerId)
        .whereRef('nb.blocked_id', '=', 'u.id'),
    );
    return eb.and([matched, eb.not(blocked)]);
  }

  /** Usernames starting with the prefix (normal form), of accounts the viewer may see, through users_suggest_username. */
  async usernamesStartingWith(
    prefix: string,
    limit: number,
    viewerId: string | null,
  ): Promise<{ id: string; username: string }[]> {
    const range = startsWith(sql`u.username::text`, prefix);
    const unblocked = viewerId ? notBlockedSql(viewerId, 'u.id') : sql<SqlBool>`true`;
    const { rows } = await sql<{ id: string; username: string }>`select u.id, u.username from users u
      where u.deleted_at is null and u.is_active and not u.is_banned and u.is_verified and ${range.where} and ${unblocked}
      order by ${range.order} limit ${limit}`.execute(this.db);
    return rows;
  }

  /** GET /users/{id} and the like: the hottest read of the area, so its SQL is compiled once per shape. */
  async findOne(
    where: { id: string } | { username: string },
    viewerId: string | null,
    includeInactive = false,
  ): Promise<ProfileRow | undefined> {
    const by = 'id' in where ? 'id' : 'username';
    const value = 'id' in where ? where.id : where.username;
    const key = `profiles.findOne:${by}:${viewerId === null ? 'anonymous' : 'viewer'}:${includeInactive}`;
    const build = (match: string, viewer: string | null) =>
      this.base(viewer)
        .where((eb) => this.visible(eb, viewer, includeInactive))
        .where((eb) => (by === 'id' ? eb('u.id', '=', match) : eb('u.username', '=', match)));
    return viewerId === null
      ? templates.first(this.db, key, [value], (match) => build(match, null))
      : templates.first(this.db, key, [value, viewerId], build);
  }

  async list(
    filter: ProfileFilter,
    sort: ProfileSort,
    page: Page,
    viewerId: string | null,
  ): Promise<{ rows: ProfileRow[]; total: number }> {
    if (filter.text && !filter.engine)
      return withTypoFallback(filter.text, (engine) => this.list({ ...filter, engine }, sort, page, viewerId));
    let query = this.base(viewerId).where((eb) => this.matches(eb, filter, viewerId));
    if (sort.by === 'relevance') {
      const text = filter.engine ?? textQuery(sort.query);
      query = query
        .orderBy(text.tier([USERNAME_DOC], USERNAME_DOC))
        .orderBy(text.closeness(PERSON_DOC), 'desc')
        .orderBy('follower_count', 'desc');
    } else {
      query = query.orderBy(`u.${sort.by}`, (ob) =>
        sort.order === 'asc' ? ob.asc().nullsLast() : ob.desc().nullsLast(),
      );
    }
    const rows = await query.select(totalCount()).orderBy('u.id').limit(page.limit).offset(page.offset).execute();
    return pageWithTotal(rows, async () => {
      const counted = await this.db
        .selectFrom('users as u')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where((eb) => this.matches(eb, filter, viewerId))
        .executeTakeFirstOrThrow();
      return Number(counted.total);
    });
  }

  /** Users who follow `userId` (direction followers) or whom `userId` follows (following). */
  async relations(
    userId: string,
    direction: 'followers' | 'following',
    page: Page,
    viewerId: string | null,
  ): Promise<{ rows: ProfileRow[]; total: number }> {
    const [mine, theirs] =
      direction === 'followers' ? (['followee_id', 'follower_id'] as const) : (['follower_id', 'followee_id'] as const);
    const rows = await this.base(viewerId)
      .innerJoin('follows as rel', `rel.${theirs}`, 'u.id')
      .where(`rel.${mine}`, '=', userId)
      .where((eb) => this.visible(eb, viewerId, false))
      .select(totalCount())
      .orderBy('rel.created_at', 'desc')
      .orderBy('u.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return pageWithTotal(rows, async () => {
      const counted = await this.db
        .selectFrom('users as u')
        .innerJoin('follows as rel', `rel.${theirs}`, 'u.id')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where(`rel.${mine}`, '=', userId)
        .where((eb) => this.visible(eb, viewerId, false))
        .executeTakeFirstOrThrow();
      return Number(counted.total);
    });
  }

  /** Public, active, verified users the viewer does not follow and has no block with; most followed first. */
  async suggestions(viewerId: string, limit: number): Promise<ProfileRow[]> {
    return this.base(viewerId)
      .where((eb) => this.visible(eb, viewerId, false))
      .where('u.id', '!=', viewerId)
      .where('u.is_public', '=', true)
      .where('u.is_verified', '=', true)
      .where((eb) =>
        eb.and([
          eb.not(
            eb.exists(
              eb
                .selectFrom('follows as f')
                .select('f.follower_id')
                .where('f.follower_id', '=', viewerId)
                .whereRef('f.followee_id', '=', 'u.id'),
            ),
          ),
          eb.not(
            eb.exists(
              eb
                .selectFrom('blocks as b')
                .select('b.blocker_id')
                .where('b.blocker_id', '=', viewerId)
                .whereRef('b.blocked_id', '=', 'u.id'),
            ),
          ),
        ]),
      )
      .orderBy('follower_count', 'desc')
      .orderBy('u.created_at', 'desc')
      .orderBy('u.id')
      .limit(limit)
      .execute();
  }
}
