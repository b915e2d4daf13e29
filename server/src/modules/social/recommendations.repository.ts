import { sql, type RawBuilder } from 'kysely';
import type { TrackRow } from '../tracks/tracks.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { notBlockedSql } from '../users/people-sql.js';
import { publicTracksSql } from '../tracks/track-sql.js';

/** How many candidates the statement ranks before the tempo and key bonuses are added (in the service). */
export const CANDIDATES = 500;

export type Scored = TrackRow & { score: number };
/** A similar track: its score from shared genres, tags and co-likes, and whether its tempo is close. */
export type Similar = Scored & { bpm_close: boolean };

const json = (values: readonly string[]) => JSON.stringify(values);
/** The lower-cased genres of the track aliased t: genres and the legacy genre. */
const GENRES_OF_T = sql`(select distinct lower(item) from jsonb_array_elements_text(t.genres) genre_items(item) union select lower(t.genre) where t.genre is not null)`;
const TAGS_OF_T = sql`(select distinct lower(item) from jsonb_array_elements_text(t.tags) tag_items(item))`;
const overlap = (of: RawBuilder<unknown>, values: readonly string[]) =>
  sql<number>`(select count(*) from ${of} picked(value) where picked.value in (select jsonb_array_elements_text(${json(values)}::jsonb)))`;

/**
 * The tracks recommendations and trending draw from: those anyone may see (the tracks area's rule:
 * live, public, not hidden by moderation), under the alias t.
 */
const PUBLIC_TRACKS = publicTracksSql();

/** Of those, the tracks not of users blocked either way with the viewer. */
const candidate = (viewerId: string | null) =>
  sql`(${viewerId}::uuid is null or not exists (select 1 from blocks b where (b.blocker_id = ${viewerId}::uuid and b.blocked_id = t.creator_id)
                                                            or (b.blocker_id = t.creator_id and b.blocked_id = ${viewerId}::uuid)))`;

/** All SQL of recommendations and suggested tags; the scoring is in the contract's descriptions. */
export class RecommendationsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** Tracks sharing something with `source`: genres (3 each), tags (2 each), co-likes (1 each, at most 5); and whether the bpm is within 8. */
  async similar(source: TrackRow, genres: string[], tags: string[], viewerId: string | null): Promise<Similar[]> {
    const bpm = source.bpm;
    const bpmClose = sql<boolean>`(${bpm}::int is not null and t.bpm is not null and abs(t.bpm - ${bpm}::int) <= 8)`;
    const score = sql<number>`(3 * ${overlap(GENRES_OF_T, genres)} + 2 * ${overlap(TAGS_OF_T, tags)}
      + least(5, (select count(*) from playlist_tracks a join playlist_tracks b on b.playlist_id = a.playlist_id
                    join playlists p on p.id = a.playlist_id and p.is_default_favorites
                   where a.track_id = ${source.id}::uuid and b.track_id = t.id)))`;
    const rows = await sql<Similar>`
      select * from (select t.*, ${score} as score, ${bpmClose} as bpm_close from ${PUBLIC_TRACKS} t where ${candidate(viewerId)} and t.id <> ${source.id}::uuid) s
       where score > 0
       order by score desc, play_count desc, created_at desc, id limit ${CANDIDATES}`.execute(this.db);
    return rows.rows.map((row) => ({ ...row, score: Number(row.score) }));
  }

  /** What the user's taste is made of: genres and tags of liked tracks, genres of recently played ones, who they follow. */
  async taste(userId: string) {
    const liked = await sql<{ genres: string[]; tags: string[] }>`
      select coalesce((select jsonb_agg(distinct g.v) from playlist_tracks pt join playlists p on p.id = pt.playlist_id and p.is_default_favorites
                         join tracks t on t.id = pt.track_id, lateral ${GENRES_OF_T} g(v) where p.user_id = ${userId}::uuid), '[]') as genres,
             coalesce((select jsonb_agg(distinct g.v) from playlist_tracks pt join playlists p on p.id = pt.playlist_id and p.is_default_favorites
                         join tracks t on t.id = pt.track_id, lateral ${TAGS_OF_T} g(v) where p.user_id = ${userId}::uuid), '[]') as tags`.execute(
      this.db,
    );
    const played = await sql<{ genres: string[] }>`
      select coalesce((select jsonb_agg(distinct g.v) from track_plays pl join tracks t on t.id = pl.track_id, lateral ${GENRES_OF_T} g(v)
                        where pl.user_id = ${userId}::uuid and pl.counted and pl.played_at >= now() - interval '90 days'), '[]') as genres`.execute(
      this.db,
    );
    const follows = await this.db
      .selectFrom('follows')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('follower_id', '=', userId)
      .executeTakeFirstOrThrow();
    const asList = (value: unknown): string[] =>
      Array.isArray(value) ? value : typeof value === 'string' ? (JSON.parse(value) as string[]) : [];
    return {
      likedGenres: asList(liked.rows[0]?.genres),
      likedTags: asList(liked.rows[0]?.tags),
      playedGenres: asList(played.rows[0]?.genres),
      follows: Number(follows.n),
    };
  }

  /** Tracks for the user from their taste; never liked ones, their own, private ones or blocked users'. */
  async forUser(
    userId: string,
    taste: { likedGenres: string[]; likedTags: string[]; playedGenres: string[] },
    limit: number,
  ): Promise<Scored[]> {
    const score = sql<number>`(3 * ${overlap(GENRES_OF_T, taste.likedGenres)} + ${overlap(GENRES_OF_T, taste.playedGenres)}
      + 2 * ${overlap(TAGS_OF_T, taste.likedTags)}
      + case when exists (select 1 from follows f where f.follower_id = ${userId}::uuid and f.followee_id = t.creator_id) then 4 else 0 end
      + least(5, (select count(distinct p.user_id) from playlist_tracks a join playlists p on p.id = a.playlist_id and p.is_default_favorites
                   where a.track_id = t.id and p.user_id <> ${userId}::uuid
                     and exists (select 1 from playlist_tracks b where b.playlist_id = p.id and b.track_id in (
                                   select m.track_id from playlist_tracks m join playlists mp on mp.id = m.playlist_id
                                    where mp.is_default_favorites and mp.user_id = ${userId}::uuid)))))`;
    const rows = await sql<Scored>`
      select * from (select t.*, ${score} as score from ${PUBLIC_TRACKS} t
                      where ${candidate(userId)} and t.creator_id <> ${userId}::uuid and ${notLikedBy(userId)}) s
       where score > 0 order by score desc, play_count desc, created_at desc, id limit ${limit}`.execute(this.db);
    return rows.rows.map((row) => ({ ...row, score: Number(row.score) }));
  }

  /** Trending: counted plays plus twice the likes of the last 7 days; then play count, newest. */
  async trending(viewerId: string | null, limit: number): Promise<Scored[]> {
    const score = sql<number>`((select count(*) from track_plays pl where pl.track_id = t.id and pl.counted and pl.played_at >= now() - interval '7 days')
      + 2 * (select count(*) from playlist_tracks pt join playlists p on p.id = pt.playlist_id and p.is_default_favorites
              where pt.track_id = t.id and pt.added_at >= now() - interval '7 days'))`;
    const rows = await sql<Scored>`
      select t.*, ${score} as score from ${PUBLIC_TRACKS} t
       where ${candidate(viewerId)} and (${viewerId}::uuid is null or (t.creator_id <> ${viewerId}::uuid and ${notLikedBy(viewerId ?? '00000000-0000-0000-0000-000000000000')}))
       order by score desc, t.play_count desc, t.created_at desc, t.id limit ${limit}`.execute(this.db);
    return rows.rows.map((row) => ({ ...row, score: Number(row.score) }));
  }

  /**
   * GET /social/trending: every counted play (1), like (3), repost (4) and comment (2) of the
   * period, each halved per half-life since it happened, summed per public track. Read from the
   * events of the period (time indexes of migration 0015), not from every track.
   */
  async trendingSince(
    viewerId: string | null,
    window: { now: Date; since: Date; halfLifeSeconds: number },
    genre: string | undefined,
    limit: number,
  ): Promise<Scored[]> {
    const { now, since, halfLifeSeconds } = window;
    const decayed = (weight: number, at: RawBuilder<unknown>) =>
      sql`${weight}::float8 * power(0.5, extract(epoch from (${now}::timestamptz - ${at})) / ${halfLifeSeconds}::float8)`;
    const rows = await sql<Scored>`
      with events as (
        select pl.track_id, ${decayed(1, sql`pl.played_at`)} as w from track_plays pl where pl.counted and pl.played_at >= ${since} and pl.played_at <= ${now}
        union all
        select pt.track_id, ${decayed(3, sql`pt.added_at`)} from playlist_tracks pt join playlists p on p.id = pt.playlist_id and p.is_default_favorites
         where pt.added_at >= ${since} and pt.added_at <= ${now}
        union all
        select r.track_id, ${decayed(4, sql`r.created_at`)} from track_reposts r where r.created_at >= ${since} and r.created_at <= ${now}
        union all
        select c.track_id, ${decayed(2, sql`c.created_at`)} from comments c where c.content is not null and c.created_at >= ${since} and c.created_at <= ${now}
      ), scored as (select track_id, sum(w) as score from events group by track_id)
      select t.*, s.score from scored s join ${PUBLIC_TRACKS} t on t.id = s.track_id
       where true
         ${genre ? sql`and (lower(t.genre) = lower(${genre}) or t.genres @> ${JSON.stringify([genre.toLowerCase()])}::jsonb)` : sql``}
         ${viewerId ? sql`and ${notBlockedSql(viewerId, 't.creator_id')}` : sql``}
       order by s.score desc, t.play_count desc, t.created_at desc, t.id limit ${limit}`.execute(this.db);
    return rows.rows.map((row) => ({ ...row, score: Number(row.score) }));
  }

  /** Tags of public tracks sharing a genre or a tag with the track: how many tracks carry each. */
  async tagsOfSimilar(trackId: string, genres: string[], tags: string[]): Promise<{ tag: string; n: number }[]> {
    const rows = await sql<{ tag: string; n: number }>`
      select g.v as tag, count(*) as n from ${PUBLIC_TRACKS} t, lateral ${TAGS_OF_T} g(v)
       where t.id <> ${trackId}::uuid
         and (${overlap(GENRES_OF_T, genres)} > 0 or ${overlap(TAGS_OF_T, tags)} > 0)
       group by g.v order by n desc, g.v limit 50`.execute(this.db);
    return rows.rows.map((row) => ({ tag: row.tag, n: Number(row.n) }));
  }
}

const notLikedBy = (userId: string) =>
  sql`not exists (select 1 from playlist_tracks pt join playlists p on p.id = pt.playlist_id and p.is_default_favorites
                   where p.user_id = ${userId}::uuid and pt.track_id = t.id)`;
