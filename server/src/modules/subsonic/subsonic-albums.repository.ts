import { type RawBuilder, sql } from 'kysely';
import type { UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { likesSql } from '../playlists/likes-sql.js';
import { countedPlaysSql } from '../social/plays-sql.js';
import { creatorAlbumsSql, publishedAlbumsSql } from '../tracks/track-sql.js';
import type { TrackAlbumRow } from '../tracks/tracks.tables.js';
import { activeUserSql, activeUsersSql, followeesSql, notBlockedSql } from '../users/people-sql.js';
import { libraryTracksSql } from './subsonic-library-sql.js';

/** One album of the caller's library. */
export type CatalogueAlbumRow = Omit<TrackAlbumRow, 'shuffle'>;

/** A page: `limit` rows from `offset`. */
export interface Window {
  limit: number;
  offset: number;
}

/** The orders getAlbumList2 reads as index ranges. */
export type AlbumOrder =
  | { by: 'newest' }
  | { by: 'name' }
  | { by: 'artist' }
  | { by: 'genre'; genre: string }
  | { by: 'year'; from: number; to: number };

/** An album id and when the caller last liked or played one of its songs, or how often. */
export interface AlbumActivity {
  album_id: string;
}

const ALBUM_COLUMNS = sql.raw(
  'lib.album_id, lib.creator_id, lib.name, lib.song_count, lib.duration, lib.created, lib.year, lib.genre',
);
const BY_NAME = sql`riff_norm(lib.name) collate "C", lib.album_id`;

/** `%text%` for LIKE, the text's own % _ and \ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The albums of a player's library, read so that a list is an index range of the tracks area's
 * published albums at any size: the published albums of creators the caller may deal with (active,
 * neither blocking the other) and, read live from their tracks, the caller's own albums (their private
 * and moderated tracks included, as their library holds them). An album of another creator holds
 * exactly their published tracks, which is what the caller may play of theirs.
 */
export class SubsonicAlbumsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The caller's library's albums as a derived table (alias it `lib`): for lookups by id or creator. */
  private library(actor: UserActor): RawBuilder<TrackAlbumRow> {
    return sql<TrackAlbumRow>`(select a.album_id, a.creator_id, a.name, a.song_count, a.duration, a.created, a.year, a.genre, a.shuffle
        from ${publishedAlbumsSql()} a where ${this.othersAllowed(actor, 'a')}
      union all
      select * from ${creatorAlbumsSql(actor.id)} own)`;
  }

  /** Published albums (aliased `alias`) of creators the caller may deal with, their own left to the live read. */
  private othersAllowed(actor: UserActor, alias: string) {
    const creator = `${alias}.creator_id`;
    return sql`${sql.ref(creator)} <> ${actor.id} and ${activeUserSql(creator)} and ${notBlockedSql(actor.id, creator)}`;
  }

  /**
   * A page of the library's albums matching `where`, in `order` (both over the alias `lib`). Each side
   * (the published albums, the caller's own) is read in that order up to the page's end, then the two
   * merged: PostgreSQL does not carry an order through a union to the published side's index, and
   * this way each side is an index range (or a small sort of one creator's albums).
   */
  private async ordered(
    actor: UserActor,
    where: RawBuilder<unknown>,
    order: RawBuilder<unknown>,
    window: Window,
  ): Promise<CatalogueAlbumRow[]> {
    const end = window.offset + window.limit;
    const { rows } = await sql<CatalogueAlbumRow>`select ${ALBUM_COLUMNS} from (
        (select lib.* from ${publishedAlbumsSql()} lib where ${this.othersAllowed(actor, 'lib')} and ${where}
          order by ${order} limit ${end})
        union all
        (select lib.* from ${creatorAlbumsSql(actor.id)} lib where ${where} order by ${order} limit ${end})
      ) lib order by ${order} limit ${window.limit} offset ${window.offset}`.execute(this.db);
    return rows;
  }

  /** A page of the library's albums in one of getAlbumList2's orders. */
  async page(actor: UserActor, order: AlbumOrder, window: Window): Promise<CatalogueAlbumRow[]> {
    switch (order.by) {
      case 'newest':
        return this.ordered(actor, sql`true`, sql`lib.created desc, lib.album_id desc`, window);
      case 'name':
        return this.ordered(actor, sql`true`, BY_NAME, window);
      case 'artist':
        return this.byArtist(actor, window);
      case 'genre':
        return this.ordered(actor, sql`lower(lib.genre) = lower(${order.genre})`, BY_NAME, window);
      case 'year': {
        const [low, high] = order.from <= order.to ? [order.from, order.to] : [order.to, order.from];
        const direction = order.from <= order.to ? sql`asc` : sql`desc`;
        return this.ordered(
          actor,
          sql`lib.year between ${low} and ${high}`,
          sql`lib.year ${direction}, lib.album_id ${direction}`,
          window,
        );
      }
    }
  }

  /**
   * By artist (username), then album name: the accounts walked in username order (an index), each
   * creator's albums read by creator, so a page costs the accounts and albums before it, not the library.
   */
  private async byArtist(actor: UserActor, window: Window): Promise<CatalogueAlbumRow[]> {
    const end = window.offset + window.limit;
    const order = sql`riff_norm(lib.username) collate "C", lib.creator_id, ${BY_NAME}`;
    const { rows } = await sql<CatalogueAlbumRow>`select ${ALBUM_COLUMNS} from (
        (select lib.*, u.username::text as username from ${activeUsersSql()} u
          cross join lateral (select a.* from ${publishedAlbumsSql()} a
            where a.creator_id = u.id and a.creator_id <> ${actor.id} order by riff_norm(a.name) collate "C", a.album_id) lib
          where ${notBlockedSql(actor.id, 'u.id')}
          order by riff_norm(u.username::text) collate "C", u.id, ${BY_NAME} limit ${end})
        union all
        (select lib.*, (select u.username::text from ${activeUsersSql()} u where u.id = ${actor.id}) as username
          from ${creatorAlbumsSql(actor.id)} lib)
      ) lib order by ${order} limit ${window.limit} offset ${window.offset}`.execute(this.db);
    return rows;
  }

  /**
   * `size` albums drawn at random: each the first album at or after a random point of the albums'
   * fixed shuffle numbers (an index probe each, whatever the library's size); twice as many points
   * as wanted, duplicates dropped. A library too small to fill the list so is read whole, shuffled.
   */
  async random(actor: UserActor, size: number): Promise<CatalogueAlbumRow[]> {
    const { rows } =
      await sql<CatalogueAlbumRow>`with own as materialized (select * from ${creatorAlbumsSql(actor.id)} o)
      select distinct on (pick.album_id) ${sql.raw('pick.album_id, pick.creator_id, pick.name, pick.song_count, pick.duration, pick.created, pick.year, pick.genre')}
      from (select random() as r from generate_series(1, ${size * 2})) point
      cross join lateral (
        select * from (
          (select a.* from ${publishedAlbumsSql()} a
            where a.shuffle >= point.r and a.creator_id <> ${actor.id}
              and ${activeUserSql('a.creator_id')} and ${notBlockedSql(actor.id, 'a.creator_id')}
            order by a.shuffle limit 1)
          union all
          (select * from own where own.shuffle >= point.r order by own.shuffle limit 1)
        ) nearest order by nearest.shuffle limit 1
      ) pick`.execute(this.db);
    if (rows.length >= size) return rows.slice(0, size);
    const whole = await sql<CatalogueAlbumRow>`select ${ALBUM_COLUMNS} from ${this.library(actor)} lib
      order by random() limit ${size}`.execute(this.db);
    return whole.rows;
  }

  /** The library's albums among `ids` (in no particular order). */
  async byIds(actor: UserActor, ids: readonly string[]): Promise<CatalogueAlbumRow[]> {
    if (ids.length === 0) return [];
    const { rows } = await sql<CatalogueAlbumRow>`select ${ALBUM_COLUMNS} from ${this.library(actor)} lib
      where lib.album_id in (${sql.join(ids)})`.execute(this.db);
    return rows;
  }

  /** One creator's albums in the library, oldest first. */
  async ofCreator(actor: UserActor, creatorId: string): Promise<CatalogueAlbumRow[]> {
    const { rows } = await sql<CatalogueAlbumRow>`select ${ALBUM_COLUMNS} from ${this.library(actor)} lib
      where lib.creator_id = ${creatorId} order by lib.created, lib.album_id`.execute(this.db);
    return rows;
  }

  /** The creators with albums in the library (of these when given), with how many albums each. */
  async artists(
    actor: UserActor,
    creators?: string | readonly string[],
  ): Promise<{ creator_id: string; album_count: number }[]> {
    const ids = typeof creators === 'string' ? [creators] : creators;
    if (ids?.length === 0) return [];
    const only = ids === undefined ? sql`` : sql`where lib.creator_id in (${sql.join(ids)})`;
    const { rows } = await sql<{
      creator_id: string;
      album_count: number;
    }>`select lib.creator_id, count(*)::int as album_count
      from ${this.library(actor)} lib ${only} group by lib.creator_id`.execute(this.db);
    return rows;
  }

  /** The creators the caller follows with albums in the library (getStarred2's artists), with how many albums each. */
  async followedArtists(actor: UserActor): Promise<{ creator_id: string; album_count: number }[]> {
    const { rows } = await sql<{
      creator_id: string;
      album_count: number;
    }>`select lib.creator_id, count(*)::int as album_count
      from ${this.library(actor)} lib where lib.creator_id in ${followeesSql(actor.id)}
      group by lib.creator_id`.execute(this.db);
    return rows;
  }

  /** Albums whose name holds `text` (in any case and accents; every album for ''), by name. */
  async named(actor: UserActor, text: string, window: Window): Promise<CatalogueAlbumRow[]> {
    const matching = text === '' ? sql`true` : sql`riff_norm(lib.name) like riff_norm(${containing(text)})`;
    return this.ordered(actor, matching, BY_NAME, window);
  }

  /**
   * Artists (creators with albums in the library) whose username holds `text` (every one for ''),
   * by username, with their albums counted.
   */
  async artistsNamed(
    actor: UserActor,
    text: string,
    window: Window,
  ): Promise<{ creator_id: string; username: string; album_count: number }[]> {
    const matching = text === '' ? sql`true` : sql`riff_norm(u.username::text) like riff_norm(${containing(text)})`;
    // the page of accounts first (walked in username order, an index), then their albums counted
    const { rows } = await sql<{ creator_id: string; username: string; album_count: number }>`
      select page.id as creator_id, page.username,
        (select count(*)::int from ${this.library(actor)} lib where lib.creator_id = page.id) as album_count
      from (
        select u.id, u.username::text as username from ${activeUsersSql()} u
        where ${matching} and ${notBlockedSql(actor.id, 'u.id')}
          and (exists (select 1 from ${publishedAlbumsSql()} a where a.creator_id = u.id)
            or (u.id = ${actor.id} and exists (select 1 from ${creatorAlbumsSql(actor.id)} own)))
        order by riff_norm(u.username::text) collate "C", u.id
        limit ${window.limit} offset ${window.offset}
      ) page
      order by riff_norm(page.username) collate "C", page.id`.execute(this.db);
    return rows;
  }

  /** The albums holding a song the caller liked, most recently liked first: ids and when. */
  async liked(actor: UserActor, window: Window): Promise<string[]> {
    const { rows } = await sql<AlbumActivity>`select t.album_id from ${likesSql()} l
      join ${libraryTracksSql(actor)} t on t.id = l.track_id
      where l.user_id = ${actor.id}
      group by t.album_id order by max(l.liked_at) desc, t.album_id
      limit ${window.limit} offset ${window.offset}`.execute(this.db);
    return rows.map((row) => row.album_id);
  }

  /** The albums the caller played: most played first (`frequent`) or last played first (`recent`). */
  async played(actor: UserActor, order: 'frequent' | 'recent', window: Window): Promise<string[]> {
    const ranking = order === 'frequent' ? sql`count(*) desc, max(p.played_at) desc` : sql`max(p.played_at) desc`;
    const { rows } = await sql<AlbumActivity>`select t.album_id from ${countedPlaysSql()} p
      join ${libraryTracksSql(actor)} t on t.id = p.track_id
      where p.user_id = ${actor.id}
      group by t.album_id order by ${ranking}, t.album_id
      limit ${window.limit} offset ${window.offset}`.execute(this.db);
    return rows.map((row) => row.album_id);
  }
}
