import { sql, type RawBuilder } from 'kysely';
import { anonymousActor, type Actor, type UserActor } from '../../platform/access/actor.js';
import {
  normalForm,
  searchDoc,
  startsWith,
  withTypoFallback,
  type TextQuery,
} from '../../platform/search/text-search.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { countedPlaysSql } from '../social/plays-sql.js';
import { liveTracksSql } from '../tracks/track-sql.js';
import { notBlockedSql } from '../users/people-sql.js';
import type { VisibleTracks } from './playlists.repository.js';
import { playlistModerationSql } from './playlists.policy.js';

/** Combining marks stripped after NFD, in JavaScript and in SQL alike: "Björk" and "BJORK" fold the same. */
// eslint-disable-next-line no-misleading-character-class -- a class made only of combining marks, on purpose
const MARKS_RE = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/gu;
/** The same class for PostgreSQL's regular expressions, which read \uXXXX alike. */
const MARKS = MARKS_RE.source;

/**
 * The folded form of a name for matching imported entries: decomposed, marks removed, lower case,
 * spaces collapsed. The database folds with normalize() and a regular expression over the same
 * class of marks, so fold() and foldSql() give the same strings (unaccent has no JavaScript twin).
 */
export const fold = (text: string) =>
  text.normalize('NFD').replace(MARKS_RE, '').toLowerCase().replace(/\s+/g, ' ').trim();
const foldSql = (expression: RawBuilder<unknown>) =>
  sql<string>`btrim(regexp_replace(lower(regexp_replace(normalize(${expression}, NFD), ${MARKS}, '', 'g')), '\\s+', ' ', 'g'))`;

/** Rows per statement when matching or inserting thousands of entries. */
const BATCH = 1000;

export interface TitleMatch {
  id: string;
  title_key: string;
  artist_key: string;
  creator_id: string;
  play_count: number;
}

export interface FollowerDay {
  date: string;
  count: number;
}

/** The SQL of import, search, recommendations and analytics. */
export class PlaylistLibraryRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /**
   * Tracks the caller may see (`visible`: the tracks area's derived table) whose folded title and
   * artist equal one of the pairs (already folded), a batch of pairs per statement.
   */
  async matchByName(
    visible: VisibleTracks,
    pairs: readonly { title: string; artist: string }[],
  ): Promise<TitleMatch[]> {
    const found: TitleMatch[] = [];
    for (let start = 0; start < pairs.length; start += BATCH) {
      const batch = pairs.slice(start, start + BATCH);
      const { rows } = await sql<TitleMatch>`
        select t.id, w.title_key, w.artist_key, t.creator_id, t.play_count
        from ${visible} t
        join unnest(${batch.map((pair) => pair.title)}::text[], ${batch.map((pair) => pair.artist)}::text[]) as w(title_key, artist_key)
          on ${foldSql(sql`t.title`)} = w.title_key and ${foldSql(sql`coalesce(t.artist, '')`)} = w.artist_key`.execute(
        this.db,
      );
      found.push(...rows);
    }
    return found;
  }

  /** Which of these track ids the caller may see (among `visible`), a batch per statement. */
  async visibleIds(visible: VisibleTracks, ids: readonly string[]): Promise<Set<string>> {
    const seen = new Set<string>();
    for (let start = 0; start < ids.length; start += BATCH) {
      const { rows } = await sql<{
        id: string;
      }>`select t.id from ${visible} t where t.id = any(${ids.slice(start, start + BATCH)}::uuid[])`.execute(this.db);
      for (const row of rows) seen.add(row.id);
    }
    return seen;
  }

  /** The tracks at positions 0…n-1, in the order given. */
  async insertTracks(playlistId: string, trackIds: readonly string[], addedBy: string): Promise<void> {
    for (let start = 0; start < trackIds.length; start += BATCH) {
      const rows = trackIds.slice(start, start + BATCH).map((trackId, index) => ({
        playlist_id: playlistId,
        track_id: trackId,
        added_by: addedBy,
        position: start + index,
      }));
      await this.db.insertInto('playlist_tracks').values(rows).execute();
    }
  }

  /**
   * Public playlists and the actor's own that match q in their title or description (the search
   * engine, platform/db/text-search.ts). Best first by the engine's tier (the title equal to q,
   * starting with it, holding it, holding every word, then the description, then typos), then
   * closeness, followers, editorial, newest. Favorites playlists are not searched.
   */
  search(actor: Actor, q: string, page: { limit: number; offset: number }): Promise<{ ids: string[]; total: number }> {
    return withTypoFallback(q, (text) => this.searchWith(actor, text, page));
  }

  private async searchWith(
    actor: Actor,
    text: TextQuery,
    page: { limit: number; offset: number },
  ): Promise<{ ids: string[]; total: number }> {
    const doc = searchDoc(sql`p.title`, sql`p.description`);
    const seen =
      actor.kind === 'user'
        ? sql`(p.is_public or p.user_id = ${actor.id}) and ${notBlockedSql(actor.id, 'p.user_id')}`
        : sql`p.is_public`;
    const where = sql`not p.is_default_favorites and ${seen} and ${playlistModerationSql(actor, 'p')} and ${text.matches(doc)}`;
    const [{ rows }, { rows: counted }] = await Promise.all([
      sql<{ id: string }>`select p.id from playlists p where ${where}
        order by ${text.tier([normalForm(sql`p.title`)], doc)}, ${text.closeness(doc)} desc, p.follower_count desc, p.is_editorial desc, p.created_at desc, p.id
        limit ${page.limit} offset ${page.offset}`.execute(this.db),
      sql<{ n: string }>`select count(*) as n from playlists p where ${where}`.execute(this.db),
    ]);
    return { ids: rows.map((row) => row.id), total: Number(counted[0]?.n ?? 0) };
  }

  /** Public playlist titles starting with the prefix, through playlists_suggest_title; owners blocked either way left out. */
  async titlesStartingWith(actor: Actor, prefix: string, limit: number): Promise<{ id: string; text: string }[]> {
    const range = startsWith(sql`p.title`, prefix);
    const unblocked = actor.kind === 'user' ? notBlockedSql(actor.id, 'p.user_id') : sql`true`;
    const { rows } = await sql<{ id: string; text: string }>`select p.id, p.title as text from playlists p
      where p.is_public and not p.is_default_favorites and ${playlistModerationSql(anonymousActor(), 'p')} and ${range.where} and ${unblocked}
      order by ${range.order} limit ${limit}`.execute(this.db);
    return rows;
  }

  /**
   * Public playlists of others with at least one track, by how many of their tracks the actor
   * liked (their favorites playlist) or played (counted plays), then followers, editorial first
   * among equals. Left out: the ones the actor follows, and those of users blocked either way.
   */
  async recommendations(
    actor: UserActor,
    page: { limit: number; offset: number },
  ): Promise<{ ids: string[]; total: number }> {
    const me = actor.id;
    const where = sql`p.is_public and not p.is_default_favorites and p.user_id <> ${me}
      and exists (select 1 from playlist_tracks any_track where any_track.playlist_id = p.id)
      and not exists (select 1 from playlist_followers f where f.playlist_id = p.id and f.user_id = ${me})
      and ${notBlockedSql(me, 'p.user_id')} and ${playlistModerationSql(actor, 'p')}`;
    const [{ rows }, { rows: counted }] = await Promise.all([
      sql<{ id: string }>`
        with known as (
          select pt.track_id from playlist_tracks pt join playlists fav on fav.id = pt.playlist_id
          where fav.user_id = ${me} and fav.is_default_favorites
          union
          select play.track_id from ${countedPlaysSql()} play where play.user_id = ${me}
        )
        select p.id, (select count(*) from playlist_tracks pt where pt.playlist_id = p.id and pt.track_id in (select track_id from known)) as overlap
        from playlists p where ${where}
        order by overlap desc, p.follower_count desc, p.is_editorial desc, p.created_at desc, p.id
        limit ${page.limit} offset ${page.offset}`.execute(this.db),
      sql<{ n: string }>`select count(*) as n from playlists p where ${where}`.execute(this.db),
    ]);
    return { ids: rows.map((row) => row.id), total: Number(counted[0]?.n ?? 0) };
  }

  /** Every live track of the playlist: how many, and their duration in seconds. */
  async trackTotals(playlistId: string): Promise<{ count: number; duration: number }> {
    const { rows } = await sql<{ n: string; seconds: string | number | null }>`
      select count(*) as n, coalesce(sum(t.duration), 0) as seconds
      from playlist_tracks pt join ${liveTracksSql()} t on t.id = pt.track_id
      where pt.playlist_id = ${playlistId}`.execute(this.db);
    return { count: Number(rows[0]?.n ?? 0), duration: Number(rows[0]?.seconds ?? 0) };
  }

  /** Counted plays reported from this playlist: in all, and the ten most played tracks. */
  /** New followers per UTC day since `from` (a UTC midnight); days without any are absent. */
  async followersPerDay(playlistId: string, from: Date): Promise<FollowerDay[]> {
    const { rows } = await sql<{ date: string; count: string }>`
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as date, count(*) as count
      from playlist_followers where playlist_id = ${playlistId} and created_at >= ${from}
      group by 1`.execute(this.db);
    return rows.map((row) => ({ date: row.date, count: Number(row.count) }));
  }
}
