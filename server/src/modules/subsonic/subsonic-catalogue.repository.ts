import { sql } from 'kysely';
import type { UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { likesSql } from '../playlists/likes-sql.js';
import type { TrackRow } from '../tracks/tracks.tables.js';
import { libraryTracksSql } from './subsonic-library-sql.js';

/** A track as the catalogue reads it: the row, its album's key, the caller's like and rating (subsonic_ratings). */
export type CatalogueTrackRow = TrackRow & {
  album_key: string | null;
  liked_at: Date | null;
  user_rating: number | null;
};

export interface CatalogueGenreRow {
  genre: string;
  song_count: number;
  album_count: number;
}

/** Which tracks a read is about: a creator's, one album, one track. */
export interface TrackFilter {
  creatorId?: string;
  albumId?: string;
  trackId?: string;
  /** Any of these tracks (in no particular order). */
  trackIds?: readonly string[];
  /** Of this genre: the track's genre tag, trimmed, in any case (as getGenres lists them). */
  genre?: string;
  /** Of a year within these, both included (either may be absent; a track without a year is left out). */
  years?: { from?: number | undefined; to?: number | undefined };
  /**
   * `published` (the default): in the order published. `random`: a random sample of `page.limit`
   * (PostgreSQL's top-N heapsort on random(): one pass over the matching tracks keeping `limit` of
   * them, never a sort of the whole library). `plays`: the most played first.
   */
  order?: 'published' | 'random' | 'plays';
  /** Only the tracks the caller liked, the latest like first (getStarred2). */
  liked?: boolean;
  /** A page of the result. */
  page?: { limit: number; offset: number };
}

/** The key an album tag groups by (null: a single): the tracks area's, as its albums are made. */
const albumKey = sql<string | null>`riff_album_key(t.album)`;

/**
 * The Subsonic catalogue's SQL over songs, over the tracks, likes and users areas' fragments (no table
 * of theirs is named here): the songs of a player's library (subsonic-library-sql.ts), its genres and
 * its last change. Albums and artists: subsonic-albums.repository.ts.
 */
export class SubsonicCatalogueRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The tracks of the caller's library, aliased t. */
  private library(actor: UserActor) {
    return this.db.selectFrom(libraryTracksSql(actor).as('t'));
  }

  /**
   * A page of the library's songs in the order they were published: ids. The public songs (an index
   * range of the tracks published in order) and the caller's own private ones are each read up to the
   * page's end and merged, so a page costs its offset, not the library.
   */
  async publishedOrder(actor: UserActor, window: { limit: number; offset: number }): Promise<string[]> {
    const end = window.offset + window.limit;
    const { rows } = await sql<{ id: string }>`select t.id from (
        (select t.id, t.created_at from ${libraryTracksSql(actor)} t where t.is_public
          order by t.created_at, t.id limit ${end})
        union all
        (select t.id, t.created_at from ${libraryTracksSql(actor)} t where t.creator_id = ${actor.id} and not t.is_public
          order by t.created_at, t.id limit ${end})
      ) t order by t.created_at, t.id limit ${window.limit} offset ${window.offset}`.execute(this.db);
    return rows.map((row) => row.id);
  }

  /**
   * `size` songs of the library drawn at random, ids: each the first song at or after a random point
   * of the songs' fixed shuffle numbers (riff_track_shuffle, indexed over the public tracks: a probe
   * each, whatever the library's size), among the public songs and the caller's own private ones;
   * twice as many points as wanted, duplicates dropped, so a small library may give fewer.
   */
  private async shuffledIds(actor: UserActor, size: number): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`with own as materialized (
        select t.id, riff_track_shuffle(t.id) as k from ${libraryTracksSql(actor)} t
        where t.creator_id = ${actor.id} and not t.is_public)
      select distinct pick.id from (select random() as r from generate_series(1, ${size * 2})) point
      cross join lateral (
        select * from (
          (select t.id, riff_track_shuffle(t.id) as k from ${libraryTracksSql(actor)} t
            where t.is_public and riff_track_shuffle(t.id) >= point.r order by riff_track_shuffle(t.id) limit 1)
          union all
          (select own.id, own.k from own where own.k >= point.r order by own.k limit 1)
        ) nearest order by nearest.k limit 1
      ) pick`.execute(this.db);
    // the distinct ids come back in no random order: shuffled (Fisher–Yates) before `size` are kept
    const ids = rows.map((row) => row.id);
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    return ids.slice(0, size);
  }

  /** Tracks of the library, in the order they were published, with their album's key and the caller's like and rating. */
  async tracks(actor: UserActor, filter: TrackFilter): Promise<CatalogueTrackRow[]> {
    const { order, page } = filter;
    const wholeLibrary =
      filter.creatorId === undefined &&
      filter.albumId === undefined &&
      filter.trackId === undefined &&
      filter.trackIds === undefined &&
      filter.genre === undefined &&
      filter.years?.from === undefined &&
      filter.years?.to === undefined &&
      !filter.liked;
    // random songs of the whole library: index probes (a library too small to give them so is read whole)
    if (order === 'random' && page && wholeLibrary) {
      const ids = await this.shuffledIds(actor, page.limit);
      if (ids.length === page.limit) {
        const rows = new Map((await this.tracks(actor, { trackIds: ids })).map((row) => [row.id, row]));
        return ids.flatMap((id) => rows.get(id) ?? []);
      }
    }
    let query = this.library(actor)
      .leftJoin(likesSql().as('l'), (join) => join.onRef('l.track_id', '=', 't.id').on('l.user_id', '=', actor.id))
      .leftJoin('subsonic_ratings as r', (join) => join.onRef('r.item_id', '=', 't.id').on('r.user_id', '=', actor.id))
      .selectAll('t')
      .select([albumKey.as('album_key'), 'l.liked_at', 'r.rating as user_rating']);
    if (filter.liked) query = query.where('l.liked_at', 'is not', null).orderBy('l.liked_at', 'desc');
    if (filter.order === 'random') query = query.orderBy(sql`random()`);
    else {
      if (filter.order === 'plays') query = query.orderBy('t.play_count', 'desc');
      query = query.orderBy('t.created_at').orderBy('t.id');
    }
    if (filter.genre !== undefined)
      query = query.where(sql`lower(btrim(t.genre))`, '=', filter.genre.trim().toLowerCase());
    if (filter.years?.from !== undefined) query = query.where('t.year', '>=', filter.years.from);
    if (filter.years?.to !== undefined) query = query.where('t.year', '<=', filter.years.to);
    if (filter.creatorId !== undefined) query = query.where('t.creator_id', '=', filter.creatorId);
    if (filter.albumId !== undefined) query = query.where('t.album_id', '=', filter.albumId);
    if (filter.trackId !== undefined) query = query.where('t.id', '=', filter.trackId);
    if (filter.trackIds !== undefined) {
      if (filter.trackIds.length === 0) return [];
      query = query.where('t.id', 'in', filter.trackIds);
    }
    if (filter.page) query = query.limit(filter.page.limit).offset(filter.page.offset);
    return (await query.execute()) as CatalogueTrackRow[];
  }

  /** The genres of the library's tracks, by name, with their songs and albums. */
  async genres(actor: UserActor): Promise<CatalogueGenreRow[]> {
    return this.library(actor)
      .where('t.genre', 'is not', null)
      .where(sql`btrim(t.genre)`, '<>', '')
      .select([
        sql<string>`btrim(t.genre)`.as('genre'),
        sql<number>`count(*)::int`.as('song_count'),
        sql<number>`count(distinct t.album_id)::int`.as('album_count'),
      ])
      .groupBy(sql`btrim(t.genre)`)
      .orderBy(sql`btrim(t.genre)`)
      .execute();
  }

  /** When the library last changed for the caller (getIndexes' lastModified); null when it is empty. */
  async lastModified(actor: UserActor): Promise<Date | null> {
    const row = await this.library(actor).select(sql<Date | null>`max(t.updated_at)`.as('at')).executeTakeFirst();
    return row?.at ?? null;
  }
}
