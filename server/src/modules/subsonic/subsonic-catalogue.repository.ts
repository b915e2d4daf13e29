import { type SqlBool, sql } from 'kysely';
import type { UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { likesSql } from '../playlists/likes-sql.js';
import { visibleTracksSql } from '../tracks/track-sql.js';
import type { TrackRow } from '../tracks/tracks.tables.js';
import { activeUserSql, followeesSql, notBlockedSql } from '../users/people-sql.js';

/** A track as the catalogue reads it: the row, its album's key, the caller's like and rating (subsonic_ratings). */
export type CatalogueTrackRow = TrackRow & {
  album_key: string | null;
  liked_at: Date | null;
  user_rating: number | null;
};

/** One album of a creator (or a single: album_key null, single_id its track). */
export interface CatalogueAlbumRow {
  creator_id: string;
  album_key: string | null;
  single_id: string | null;
  name: string;
  song_count: number;
  duration: number;
  created: Date;
  year: number | null;
  genre: string | null;
  /** When the caller last liked one of its songs (null: none). */
  liked_at: Date | null;
}

export interface CatalogueArtistRow {
  creator_id: string;
  album_count: number;
}

export interface CatalogueGenreRow {
  genre: string;
  song_count: number;
  album_count: number;
}

/** Which tracks a read is about: a creator's, one album of theirs, one track. */
export interface TrackFilter {
  creatorId?: string;
  /** With creatorId: the album of this key; null: the singles. */
  albumKey?: string | null;
  trackId?: string;
  /** Any of these tracks (in no particular order). */
  trackIds?: readonly string[];
  /** Only the tracks the caller liked, the latest like first (getStarred2). */
  liked?: boolean;
  /** A page of the result. */
  page?: { limit: number; offset: number };
}

/**
 * The key an album tag groups by: trimmed, each run of white space one space, lower case; null (a
 * single) for no tag or an empty one. Computed here only, so that grouping and album ids agree.
 */
const albumKey = sql<string | null>`case when btrim(coalesce(t.album, '')) = '' then null
  else lower(regexp_replace(btrim(t.album), '[[:space:]]+', ' ', 'g')) end`;

/**
 * All SQL of the Subsonic catalogue, over the tracks, likes and users areas' fragments (no table of
 * theirs is named here). A player's library is what the caller may listen to as a listener: public
 * tracks and their own, ready to play, of creators others may deal with, neither blocking the other,
 * moderation's hidden and removed tracks left out but the caller's own. Staff browse it as anyone:
 * their power to see others' private or hidden tracks is for moderation, not for a music app.
 */
export class SubsonicCatalogueRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The tracks of the caller's library, aliased t. */
  private library(actor: UserActor) {
    const listener: UserActor = { ...actor, isAdmin: false, isStaff: false };
    return this.db
      .selectFrom(visibleTracksSql(listener).as('t'))
      .where('t.status', '=', 'completed')
      .where(notBlockedSql(actor.id, 't.creator_id'))
      .where(activeUserSql('t.creator_id'));
  }

  /** Creators with at least one track in the library, with how many albums (singles included) they have. */
  async artists(actor: UserActor, creatorId?: string): Promise<CatalogueArtistRow[]> {
    let query = this.library(actor)
      .select(['t.creator_id', sql<number>`count(distinct coalesce(${albumKey}, t.id::text))::int`.as('album_count')])
      .groupBy('t.creator_id');
    if (creatorId !== undefined) query = query.where('t.creator_id', '=', creatorId);
    return query.execute();
  }

  /** The albums of the library (of one creator when given), oldest first. */
  async albums(actor: UserActor, creatorId?: string): Promise<CatalogueAlbumRow[]> {
    const single = sql<string | null>`case when ${albumKey} is null then t.id end`;
    let query = this.library(actor)
      .leftJoin(likesSql().as('l'), (join) => join.onRef('l.track_id', '=', 't.id').on('l.user_id', '=', actor.id))
      .select([
        't.creator_id',
        albumKey.as('album_key'),
        single.as('single_id'),
        // the name as the album's first track tags it (its key is the same for all)
        sql<string>`(array_agg(case when ${albumKey} is null then t.title else btrim(t.album) end
          order by t.created_at, t.id))[1]`.as('name'),
        sql<number>`count(*)::int`.as('song_count'),
        sql<number>`coalesce(sum(t.duration), 0)::int`.as('duration'),
        sql<Date>`min(t.created_at)`.as('created'),
        sql<number | null>`max(t.year)`.as('year'),
        sql<string | null>`min(btrim(t.genre))`.as('genre'),
        sql<Date | null>`max(l.liked_at)`.as('liked_at'),
      ])
      .groupBy(['t.creator_id', albumKey, single])
      .orderBy(sql`min(t.created_at)`)
      .orderBy(sql`min(t.id::text)`);
    if (creatorId !== undefined) query = query.where('t.creator_id', '=', creatorId);
    return query.execute();
  }

  /** Tracks of the library, in the order they were published, with their album's key and the caller's like and rating. */
  async tracks(actor: UserActor, filter: TrackFilter): Promise<CatalogueTrackRow[]> {
    let query = this.library(actor)
      .leftJoin(likesSql().as('l'), (join) => join.onRef('l.track_id', '=', 't.id').on('l.user_id', '=', actor.id))
      .leftJoin('subsonic_ratings as r', (join) => join.onRef('r.item_id', '=', 't.id').on('r.user_id', '=', actor.id))
      .selectAll('t')
      .select([albumKey.as('album_key'), 'l.liked_at', 'r.rating as user_rating']);
    if (filter.liked) query = query.where('l.liked_at', 'is not', null).orderBy('l.liked_at', 'desc');
    query = query.orderBy('t.created_at').orderBy('t.id');
    if (filter.creatorId !== undefined) query = query.where('t.creator_id', '=', filter.creatorId);
    if (filter.albumKey === null) query = query.where(albumKey, 'is', null);
    else if (filter.albumKey !== undefined) query = query.where(albumKey, '=', filter.albumKey);
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
        sql<number>`count(distinct t.creator_id::text || ':' || coalesce(${albumKey}, t.id::text))::int`.as(
          'album_count',
        ),
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

  /** The creators the caller follows with tracks in their library (getStarred2's artists), as artists() counts them. */
  async followedArtists(actor: UserActor): Promise<CatalogueArtistRow[]> {
    return this.library(actor)
      .where(sql<SqlBool>`t.creator_id in ${followeesSql(actor.id)}`)
      .select(['t.creator_id', sql<number>`count(distinct coalesce(${albumKey}, t.id::text))::int`.as('album_count')])
      .groupBy('t.creator_id')
      .execute();
  }
}
