import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type Selectable,
  type SqlBool,
  type Updateable,
} from 'kysely';
import type { PlaylistPermission } from '@riff/contract';
import type { Database } from '../../platform/db/database.schema.js';
import type { TrackRow } from '../tracks/tracks.tables.js';
import type { PlaylistsTable } from './playlists.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { pageWithTotal, totalCount } from '../../platform/db/page-total.js';

export const FAVORITES_TITLE = 'Favorites';

export type PlaylistRow = Selectable<PlaylistsTable>;

/**
 * A playlist as one caller sees it: the caller's collaborator permission (null when none), whether
 * they follow it, and its tracks they may see (count, and the cover of the first).
 */
export type PlaylistView = PlaylistRow & {
  permission: PlaylistPermission | null;
  is_following: boolean;
  track_count: number;
  cover: string | null;
};

/** One entry of a playlist with the track row the Track mapper needs. */
export type PlaylistEntryRow = TrackRow & {
  entry_id: string;
  entry_position: number;
  entry_added_by: string | null;
  entry_added_at: Date;
};

/**
 * The tracks the caller may see: the tracks area's derived table of them (visibleTracksSql), joined
 * as `t`, so counts and pages are computed in the database.
 */
export type VisibleTracks = RawBuilder<TrackRow>;

type PlaylistsEb = ExpressionBuilder<Database & { p: PlaylistsTable }, 'p'>;

/**
 * Whose playlists a list shows: the viewer's own and those they collaborate on (`mine`), those and
 * the public ones they follow besides (`library`: what a player app lists), or one owner's (`of`).
 */
export type PlaylistListFilter =
  | { kind: 'mine'; viewerId: string }
  | { kind: 'library'; viewerId: string }
  | { kind: 'of'; ownerId: string; viewerId: string };

/**
 * All SQL of playlists and their tracks. Writes of one playlist's tracks run under lock():
 * positions stay 0…n-1 without gaps after every change (playlist_tracks_position is checked at the
 * end of each statement, so one statement may shift a whole range).
 */
export class PlaylistsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The platform's figures: playlists made since (not the favorites playlists that likes make). */
  async createdSince(since: Date): Promise<number> {
    const row = await this.db
      .selectFrom('playlists')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('created_at', '>=', since)
      .where('is_default_favorites', '=', false)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** playlists as p, with what one viewer sees of it. */
  private views(viewerId: string | null, visible: VisibleTracks) {
    return this.db
      .selectFrom('playlists as p')
      .selectAll('p')
      .select((eb) => [
        eb
          .selectFrom('playlist_collaborators as c')
          .select('c.permission')
          .whereRef('c.playlist_id', '=', 'p.id')
          .where('c.user_id', '=', viewerId ?? '00000000-0000-0000-0000-000000000000')
          .as('permission'),
        eb
          .exists(
            eb
              .selectFrom('playlist_followers as f')
              .select('f.user_id')
              .whereRef('f.playlist_id', '=', 'p.id')
              .where('f.user_id', '=', viewerId ?? '00000000-0000-0000-0000-000000000000'),
          )
          .as('is_following'),
        sql<number>`(select count(*) from playlist_tracks pt join ${visible} t on t.id = pt.track_id where pt.playlist_id = p.id)`.as(
          'track_count',
        ),
        sql<string | null>`(select t.cover_art_path from playlist_tracks pt join ${visible} t on t.id = pt.track_id
                           where pt.playlist_id = p.id order by pt.position limit 1)`.as('cover'),
      ]);
  }

  private static view<Row extends { track_count: number | string; is_following: unknown; permission: unknown }>(
    row: Row,
  ) {
    return {
      ...row,
      track_count: Number(row.track_count),
      is_following: Boolean(row.is_following),
    } as unknown as PlaylistView;
  }

  async findView(id: string, viewerId: string | null, visible: VisibleTracks): Promise<PlaylistView | undefined> {
    const row = await this.views(viewerId, visible).where('p.id', '=', id).executeTakeFirst();
    return row ? PlaylistsRepository.view(row) : undefined;
  }

  /** Several playlists as one viewer sees them, in the order of `ids` (those that exist): library lists. */
  async findViews(ids: readonly string[], viewerId: string | null, visible: VisibleTracks): Promise<PlaylistView[]> {
    if (ids.length === 0) return [];
    const rows = await this.views(viewerId, visible)
      .where('p.id', 'in', [...ids])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, PlaylistsRepository.view(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** The playlist whose share link hashes to this, unless it expired. */
  async findViewByShare(
    tokenHash: string,
    now: Date,
    visible: VisibleTracks,
    seen: RawBuilder<SqlBool>,
  ): Promise<PlaylistView | undefined> {
    const row = await this.views(null, visible)
      .where('p.share_token_hash', '=', tokenHash)
      .where(seen)
      .where((eb) => eb.or([eb('p.share_expires_at', 'is', null), eb('p.share_expires_at', '>', now)]))
      .executeTakeFirst();
    return row ? PlaylistsRepository.view(row) : undefined;
  }

  /** `seen`: the playlists policy's moderation rule for the viewer (playlistModerationSql over p). */
  async list(
    filter: PlaylistListFilter,
    visible: VisibleTracks,
    seen: RawBuilder<SqlBool>,
    page: { limit: number; offset: number },
  ): Promise<{ rows: PlaylistView[]; total: number }> {
    const whose = (eb: PlaylistsEb): Expression<SqlBool> => {
      const collaborating = eb.exists(
        eb
          .selectFrom('playlist_collaborators as c2')
          .select('c2.id')
          .whereRef('c2.playlist_id', '=', 'p.id')
          .where('c2.user_id', '=', filter.viewerId),
      );
      if (filter.kind === 'mine') return eb.or([eb('p.user_id', '=', filter.viewerId), collaborating]);
      if (filter.kind === 'library') {
        // a followed playlist made private since is no longer the follower's to see
        const following = eb.exists(
          eb
            .selectFrom('playlist_followers as f2')
            .select('f2.user_id')
            .whereRef('f2.playlist_id', '=', 'p.id')
            .where('f2.user_id', '=', filter.viewerId),
        );
        return eb.or([
          eb('p.user_id', '=', filter.viewerId),
          collaborating,
          eb.and([following, eb('p.is_public', '=', true)]),
        ]);
      }
      if (filter.ownerId === filter.viewerId) return eb('p.user_id', '=', filter.ownerId);
      return eb.and([eb('p.user_id', '=', filter.ownerId), eb.or([eb('p.is_public', '=', true), collaborating])]);
    };
    const where = (eb: PlaylistsEb): Expression<SqlBool> => eb.and([whose(eb), seen]);
    const rows = await this.views(filter.viewerId, visible)
      .select(totalCount())
      .where(where)
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const paged = await pageWithTotal(rows, async () => {
      const counted = await this.db
        .selectFrom('playlists as p')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(where)
        .executeTakeFirstOrThrow();
      return Number(counted.n);
    });
    return { rows: paged.rows.map((row) => PlaylistsRepository.view(row)), total: paged.total };
  }

  /** The visible entries of a playlist, by position, with their track rows: one statement. */
  trackPage(
    playlistId: string,
    visible: VisibleTracks,
    page: { offset: number; limit: number },
  ): Promise<PlaylistEntryRow[]> {
    return this.db
      .selectFrom('playlist_tracks as pt')
      .innerJoin(visible.as('t'), 't.id', 'pt.track_id')
      .selectAll('t')
      .select([
        'pt.id as entry_id',
        'pt.position as entry_position',
        'pt.added_by as entry_added_by',
        'pt.added_at as entry_added_at',
      ])
      .where('pt.playlist_id', '=', playlistId)
      .orderBy('pt.position')
      .offset(page.offset)
      .limit(page.limit)
      .execute() as Promise<PlaylistEntryRow[]>;
  }

  /** The visible entries' track ids of several playlists, each playlist's by position (one statement). */
  visibleTrackIdsOf(
    playlistIds: readonly string[],
    visible: VisibleTracks,
  ): Promise<{ playlist_id: string; track_id: string }[]> {
    if (playlistIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('playlist_tracks as pt')
      .innerJoin(visible.as('t'), 't.id', 'pt.track_id')
      .select(['pt.playlist_id', 'pt.track_id'])
      .where('pt.playlist_id', 'in', [...playlistIds])
      .orderBy('pt.playlist_id')
      .orderBy('pt.position')
      .execute();
  }

  /** Every track id of the playlist in order, visible or not (reorder, export). */
  async trackIds(playlistId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('playlist_tracks')
      .select('track_id')
      .where('playlist_id', '=', playlistId)
      .orderBy('position')
      .execute();
    return rows.map((row) => row.track_id);
  }

  async trackCount(playlistId: string): Promise<number> {
    const row = await this.db
      .selectFrom('playlist_tracks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('playlist_id', '=', playlistId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** How many playlists the user has (counted under PeopleReader.lockAccount for the per-user limit). */
  async countOf(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('playlists')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Locks the playlist row until the unit of work ends; undefined when it does not exist. */
  lockRow(playlistId: string): Promise<PlaylistRow | undefined> {
    return this.db.selectFrom('playlists').selectAll().where('id', '=', playlistId).forUpdate().executeTakeFirst();
  }

  insert(values: {
    user_id: string;
    title: string;
    description: string | null;
    is_public: boolean;
  }): Promise<PlaylistRow> {
    return this.db.insertInto('playlists').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /** Saves details and bumps the version (the snapshot_id) in the same statement. */
  update(
    playlistId: string,
    changes: Omit<Updateable<PlaylistsTable>, 'id' | 'version'>,
    now: Date,
  ): Promise<PlaylistRow> {
    return this.db
      .updateTable('playlists')
      .set({ ...changes, version: sql`version + 1`, updated_at: now })
      .where('id', '=', playlistId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(playlistId: string): Promise<void> {
    await this.db.deleteFrom('playlists').where('id', '=', playlistId).execute();
  }

  /** Inserts at `position` (clamped to the end), moving the entries from there one place down. */
  async insertAt(playlistId: string, trackId: string, position: number, addedBy: string): Promise<void> {
    await this.db
      .updateTable('playlist_tracks')
      .set({ position: sql`position + 1` })
      .where('playlist_id', '=', playlistId)
      .where('position', '>=', position)
      .execute();
    await this.db
      .insertInto('playlist_tracks')
      .values({ playlist_id: playlistId, track_id: trackId, position, added_by: addedBy })
      .execute();
  }

  /** Moves the last entry (just appended) to `position`, the entries from there one place down. */
  async moveLastTo(playlistId: string, trackId: string, position: number): Promise<void> {
    await sql`update playlist_tracks set position = case when track_id = ${trackId} then ${position} else position + 1 end
              where playlist_id = ${playlistId} and position >= ${position}`.execute(this.db);
  }

  /** Sets every position from the order of `trackIds` (a permutation of the playlist's): one statement. */
  async reorder(playlistId: string, trackIds: readonly string[]): Promise<void> {
    await sql`update playlist_tracks pt set position = o.ord - 1
              from jsonb_array_elements_text(${JSON.stringify(trackIds)}::jsonb) with ordinality as o(track_id, ord)
              where pt.playlist_id = ${playlistId} and pt.track_id = o.track_id::uuid`.execute(this.db);
  }

  /** Copies the tracks of `from` the caller may see into the empty `to`, in order, as added by `addedBy`. */
  async copyTracks(from: string, to: string, addedBy: string, visible: VisibleTracks): Promise<number> {
    const result = await sql`insert into playlist_tracks (playlist_id, track_id, added_by, position)
              select ${to}, pt.track_id, ${addedBy}, row_number() over (order by pt.position) - 1
              from playlist_tracks pt join ${visible} t on t.id = pt.track_id
              where pt.playlist_id = ${from}`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  // The favorites playlist (likes): FavoritesService's part.

  /** The user's favorites playlist, made on first need (one per user: a unique partial index). */
  async favoritesOf(userId: string): Promise<{ id: string }> {
    await sql`insert into playlists (user_id, title, is_public, is_default_favorites)
              values (${userId}, ${FAVORITES_TITLE}, false, true)
              on conflict (user_id) where is_default_favorites do nothing`.execute(this.db);
    return this.db
      .selectFrom('playlists')
      .select('id')
      .where('user_id', '=', userId)
      .where('is_default_favorites', '=', true)
      .executeTakeFirstOrThrow();
  }

  findFavorites(userId: string): Promise<{ id: string } | undefined> {
    return this.db
      .selectFrom('playlists')
      .select('id')
      .where('user_id', '=', userId)
      .where('is_default_favorites', '=', true)
      .executeTakeFirst();
  }

  /** Serializes changes to one playlist's tracks (positions are computed from the rest). */
  async lock(playlistId: string): Promise<void> {
    await this.db.selectFrom('playlists').select('id').where('id', '=', playlistId).forUpdate().executeTakeFirst();
  }

  /** Appends the track; false when it was already there. Call under lock(). */
  async append(playlistId: string, trackId: string, addedBy: string): Promise<boolean> {
    const row = await this.db
      .insertInto('playlist_tracks')
      .values((eb) => ({
        playlist_id: playlistId,
        track_id: trackId,
        added_by: addedBy,
        position: eb
          .selectFrom('playlist_tracks')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .where('playlist_id', '=', playlistId),
      }))
      .onConflict((oc) => oc.columns(['playlist_id', 'track_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) await this.touch(playlistId);
    return row !== undefined;
  }

  /** Removes the track and closes the gap; false when it was not there. Call under lock(). */
  async remove(playlistId: string, trackId: string): Promise<boolean> {
    const removed = await this.db
      .deleteFrom('playlist_tracks')
      .where('playlist_id', '=', playlistId)
      .where('track_id', '=', trackId)
      .returning('position')
      .executeTakeFirst();
    if (!removed) return false;
    await this.db
      .updateTable('playlist_tracks')
      .set((eb) => ({ position: eb('position', '-', 1) }))
      .where('playlist_id', '=', playlistId)
      .where('position', '>', removed.position)
      .execute();
    await this.touch(playlistId);
    return true;
  }

  /** A change of tracks is a new snapshot. */
  private async touch(playlistId: string): Promise<void> {
    await this.db
      .updateTable('playlists')
      .set({ updated_at: new Date(), version: sql`version + 1` })
      .where('id', '=', playlistId)
      .execute();
  }

  async contains(playlistId: string, trackId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('playlist_tracks')
      .select('id')
      .where('playlist_id', '=', playlistId)
      .where('track_id', '=', trackId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Track ids of the favorites playlist, for erasure. */
  async favoriteTrackIds(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('playlist_tracks as pt')
      .innerJoin('playlists as p', 'p.id', 'pt.playlist_id')
      .select('pt.track_id')
      .where('p.user_id', '=', userId)
      .where('p.is_default_favorites', '=', true)
      .execute();
    return rows.map((row) => row.track_id);
  }

  async removeAllOf(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('playlists').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
