import { sql, type Selectable } from 'kysely';
import type { PlaylistPermission } from '@riff/contract';
import type { PlaylistCollaboratorsTable } from './playlists.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { pageWithTotal, totalCount } from '../../platform/db/page-total.js';

export type CollaboratorRow = Selectable<PlaylistCollaboratorsTable>;

/** All SQL of a playlist's collaborators, share link and followers, and of a user's part in others' playlists. */
export class CollaboratorsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** Oldest first. */
  async page(
    playlistId: string,
    page: { limit: number; offset: number },
  ): Promise<{ rows: CollaboratorRow[]; total: number }> {
    const rows = await this.db
      .selectFrom('playlist_collaborators')
      .selectAll()
      .select(totalCount())
      .where('playlist_id', '=', playlistId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return pageWithTotal(rows, () => this.count(playlistId));
  }

  async count(playlistId: string): Promise<number> {
    const row = await this.db
      .selectFrom('playlist_collaborators')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('playlist_id', '=', playlistId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  find(playlistId: string, userId: string): Promise<CollaboratorRow | undefined> {
    return this.db
      .selectFrom('playlist_collaborators')
      .selectAll()
      .where('playlist_id', '=', playlistId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** undefined when the user is already a collaborator. */
  insert(playlistId: string, userId: string, permission: PlaylistPermission): Promise<CollaboratorRow | undefined> {
    return this.db
      .insertInto('playlist_collaborators')
      .values({ playlist_id: playlistId, user_id: userId, permission })
      .onConflict((oc) => oc.columns(['playlist_id', 'user_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  /** Makes the user a collaborator with this permission, whether they were one or not. */
  async upsert(playlistId: string, userId: string, permission: PlaylistPermission, now: Date): Promise<void> {
    await this.db
      .insertInto('playlist_collaborators')
      .values({ playlist_id: playlistId, user_id: userId, permission })
      .onConflict((oc) => oc.columns(['playlist_id', 'user_id']).doUpdateSet({ permission, updated_at: now }))
      .execute();
  }

  setPermission(
    playlistId: string,
    userId: string,
    permission: PlaylistPermission,
    now: Date,
  ): Promise<CollaboratorRow | undefined> {
    return this.db
      .updateTable('playlist_collaborators')
      .set({ permission, updated_at: now })
      .where('playlist_id', '=', playlistId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  async remove(playlistId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('playlist_collaborators')
      .where('playlist_id', '=', playlistId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Ends every collaboration between two users, both ways: each one's part in the other's
   * playlists. Returns the (playlist, user) pairs removed.
   */
  async removeBetween(a: string, b: string): Promise<{ playlist_id: string; user_id: string }[]> {
    return this.db
      .deleteFrom('playlist_collaborators')
      .where((eb) =>
        eb.or([
          eb.and([
            eb('user_id', '=', b),
            eb('playlist_id', 'in', eb.selectFrom('playlists').select('id').where('user_id', '=', a)),
          ]),
          eb.and([
            eb('user_id', '=', a),
            eb('playlist_id', 'in', eb.selectFrom('playlists').select('id').where('user_id', '=', b)),
          ]),
        ]),
      )
      .returning(['playlist_id', 'user_id'])
      .execute();
  }

  async setShare(playlistId: string, tokenHash: string | null, expiresAt: Date | null): Promise<void> {
    await this.db
      .updateTable('playlists')
      .set({ share_token_hash: tokenHash, share_expires_at: expiresAt })
      .where('id', '=', playlistId)
      .execute();
  }

  /** Follows once; follower_count moves only when the follow is new. */
  async follow(playlistId: string, userId: string): Promise<number> {
    const added = await this.db
      .insertInto('playlist_followers')
      .values({ playlist_id: playlistId, user_id: userId })
      .onConflict((oc) => oc.columns(['playlist_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    return added ? this.addToFollowerCount(playlistId, 1) : this.followerCount(playlistId);
  }

  async unfollow(playlistId: string, userId: string): Promise<number> {
    const removed = await this.db
      .deleteFrom('playlist_followers')
      .where('playlist_id', '=', playlistId)
      .where('user_id', '=', userId)
      .returning('user_id')
      .executeTakeFirst();
    return removed ? this.addToFollowerCount(playlistId, -1) : this.followerCount(playlistId);
  }

  private async addToFollowerCount(playlistId: string, delta: 1 | -1): Promise<number> {
    const row = await this.db
      .updateTable('playlists')
      .set({ follower_count: sql<number>`greatest(0, follower_count + ${delta})` })
      .where('id', '=', playlistId)
      .returning('follower_count')
      .executeTakeFirstOrThrow();
    return row.follower_count;
  }

  private async followerCount(playlistId: string): Promise<number> {
    const row = await this.db
      .selectFrom('playlists')
      .select('follower_count')
      .where('id', '=', playlistId)
      .executeTakeFirstOrThrow();
    return row.follower_count;
  }

  /** The export: the user's playlists with every track id in order. */
  async exportOwned(userId: string) {
    const rows = await this.db
      .selectFrom('playlists as p')
      .select(['p.id', 'p.title', 'p.description', 'p.is_public', 'p.is_default_favorites', 'p.created_at'])
      .select(
        sql<
          string[] | null
        >`(select json_agg(pt.track_id order by pt.position) from playlist_tracks pt where pt.playlist_id = p.id)`.as(
          'track_ids',
        ),
      )
      .where('p.user_id', '=', userId)
      .orderBy('p.created_at')
      .execute();
    return rows.map((row) => ({ ...row, track_ids: row.track_ids ?? [] }));
  }

  exportCollaborations(userId: string) {
    return this.db
      .selectFrom('playlist_collaborators')
      .select(['playlist_id', 'permission', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
  }

  exportFollows(userId: string) {
    return this.db
      .selectFrom('playlist_followers')
      .select(['playlist_id', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
  }

  /** Erasure: the user's follows leave the followed playlists' counts, then their collaborations go. */
  async eraseParticipation(
    userId: string,
  ): Promise<{ removed_playlist_follows: number; removed_collaborations: number }> {
    await sql`update playlists set follower_count = greatest(0, follower_count - 1)
              where id in (select playlist_id from playlist_followers where user_id = ${userId})`.execute(this.db);
    const follows = await this.db.deleteFrom('playlist_followers').where('user_id', '=', userId).executeTakeFirst();
    const collaborations = await this.db
      .deleteFrom('playlist_collaborators')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return {
      removed_playlist_follows: Number(follows.numDeletedRows),
      removed_collaborations: Number(collaborations.numDeletedRows),
    };
  }
}
