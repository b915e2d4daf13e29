import type { DbScope } from '../../platform/db/transactions.js';

export interface Relation {
  user_id: string;
  username: string;
  since: Date;
}

/** Follows and blocks. */
export class SocialRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  async follow(followerId: string, followeeId: string): Promise<boolean> {
    const result = await this.db
      .insertInto('follows')
      .values({ follower_id: followerId, followee_id: followeeId })
      .onConflict((oc) => oc.columns(['follower_id', 'followee_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async unfollow(followerId: string, followeeId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('follows')
      .where('follower_id', '=', followerId)
      .where('followee_id', '=', followeeId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async followerCount(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('follows')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('followee_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** True when either user blocks the other. */
  async blockedEitherWay(a: string, b: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('blocks')
      .select('blocker_id')
      .where((eb) =>
        eb.or([
          eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
          eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
        ]),
      )
      .executeTakeFirst();
    return row !== undefined;
  }

  /** True when `blockerId` blocks `blockedId` (one way). */
  async blocks(blockerId: string, blockedId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('blocks')
      .select('blocker_id')
      .where('blocker_id', '=', blockerId)
      .where('blocked_id', '=', blockedId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The users this one blocked and those who blocked them. */
  async blockedEitherWayWith(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('blocks')
      .select('blocked_id as id')
      .where('blocker_id', '=', userId)
      .union(this.db.selectFrom('blocks').select('blocker_id as id').where('blocked_id', '=', userId))
      .execute();
    return rows.map((row) => row.id);
  }

  /** Blocking also removes follows both ways, in one transaction. */
  async block(blockerId: string, blockedId: string): Promise<void> {
    await this.scope.transaction(async () => {
      await this.db
        .insertInto('blocks')
        .values({ blocker_id: blockerId, blocked_id: blockedId })
        .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
        .execute();
      await this.db
        .deleteFrom('follows')
        .where((eb) =>
          eb.or([
            eb.and([eb('follower_id', '=', blockerId), eb('followee_id', '=', blockedId)]),
            eb.and([eb('follower_id', '=', blockedId), eb('followee_id', '=', blockerId)]),
          ]),
        )
        .execute();
    });
  }

  async unblock(blockerId: string, blockedId: string): Promise<void> {
    await this.db
      .deleteFrom('blocks')
      .where('blocker_id', '=', blockerId)
      .where('blocked_id', '=', blockedId)
      .execute();
  }

  /** Every follow and block involving the user, for the data export. */
  async relationsOf(userId: string): Promise<{ following: Relation[]; followers: Relation[]; blocks: Relation[] }> {
    const following = await this.db
      .selectFrom('follows')
      .innerJoin('users', 'users.id', 'follows.followee_id')
      .select(['users.id as user_id', 'users.username', 'follows.created_at as since'])
      .where('follows.follower_id', '=', userId)
      .orderBy('follows.created_at')
      .execute();
    const followers = await this.db
      .selectFrom('follows')
      .innerJoin('users', 'users.id', 'follows.follower_id')
      .select(['users.id as user_id', 'users.username', 'follows.created_at as since'])
      .where('follows.followee_id', '=', userId)
      .orderBy('follows.created_at')
      .execute();
    const blocks = await this.db
      .selectFrom('blocks')
      .innerJoin('users', 'users.id', 'blocks.blocked_id')
      .select(['users.id as user_id', 'users.username', 'blocks.created_at as since'])
      .where('blocks.blocker_id', '=', userId)
      .orderBy('blocks.created_at')
      .execute();
    return { following, followers, blocks };
  }

  /** An erased account keeps no social graph. */
  async removeAllFor(userId: string): Promise<void> {
    await this.db
      .deleteFrom('follows')
      .where((eb) => eb.or([eb('follower_id', '=', userId), eb('followee_id', '=', userId)]))
      .execute();
    await this.db
      .deleteFrom('blocks')
      .where((eb) => eb.or([eb('blocker_id', '=', userId), eb('blocked_id', '=', userId)]))
      .execute();
  }
}
