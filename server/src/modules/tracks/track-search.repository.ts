import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { anonymousActor, type Actor } from '../../platform/access/actor.js';
import type { TrackRow } from './tracks.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { pageWithTotal } from '../../platform/db/page-total.js';
import { searchDoc, startsWith, withTypoFallback, type TextQuery } from '../../platform/search/text-search.js';
import { trackVisibleSql } from './tracks.policy.js';
import { notBlockedSql } from '../users/people-sql.js';

export interface TrackSearchFilter {
  q?: string | undefined;
  genre?: string | undefined;
  bpmMin?: number | undefined;
  bpmMax?: number | undefined;
  musicalKey?: string | undefined;
  durationMin?: number | undefined;
  durationMax?: number | undefined;
  sort: 'relevance' | 'newest' | 'popular';
}

/** The document of a track, as migration 0015 indexes it. */
const TRACK_DOC = searchDoc(sql`t.title`, sql`t.artist`, sql`t.album`);

/**
 * What suggestions offer: the tracks anyone may see (live, public, not hidden by moderation), which
 * the suggestion indexes cover (their predicate is public and live).
 */
const PUBLIC_TRACK = trackVisibleSql(anonymousActor(), 't');

/** The SQL of track search and suggestions (the engine of platform/search/text-search.ts). */
export class TrackSearchRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  private where(actor: Actor, filter: TrackSearchFilter, text: TextQuery | undefined): RawBuilder<SqlBool> {
    const conditions: RawBuilder<SqlBool>[] = [trackVisibleSql(actor, 't')];
    conditions.push(this.unblocked(actor));
    if (text) conditions.push(text.matches(TRACK_DOC));
    if (filter.genre) {
      conditions.push(
        sql<SqlBool>`(lower(t.genre) = lower(${filter.genre}) or t.genres @> ${JSON.stringify([filter.genre.toLowerCase()])}::jsonb)`,
      );
    }
    if (filter.bpmMin !== undefined) conditions.push(sql<SqlBool>`t.bpm >= ${filter.bpmMin}`);
    if (filter.bpmMax !== undefined) conditions.push(sql<SqlBool>`t.bpm <= ${filter.bpmMax}`);
    if (filter.musicalKey) conditions.push(sql<SqlBool>`lower(t.musical_key) = lower(${filter.musicalKey})`);
    if (filter.durationMin !== undefined) conditions.push(sql<SqlBool>`t.duration >= ${filter.durationMin}::float8`);
    if (filter.durationMax !== undefined) conditions.push(sql<SqlBool>`t.duration <= ${filter.durationMax}::float8`);
    return sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
  }

  /** Over the rows of the inner query (`m`), whose names and document are computed once each. */
  private order(filter: TrackSearchFilter, text: TextQuery | undefined): RawBuilder<unknown> {
    if (filter.sort === 'popular') return sql`m.play_count desc, m.created_at desc, m.id`;
    if (filter.sort === 'newest' || !text) return sql`m.created_at desc, m.id`;
    return sql`${text.tier([sql`m.n_title`, sql`m.n_artist`], sql`m.n_doc`)}, ${text.closeness(sql`m.n_doc`)} desc, m.play_count desc, m.created_at desc, m.id`;
  }

  /** Matches in one statement with their total; without a match, the same with typo tolerance. */
  async search(
    actor: Actor,
    filter: TrackSearchFilter,
    page: { limit: number; offset: number },
  ): Promise<{ rows: TrackRow[]; total: number }> {
    return filter.q
      ? withTypoFallback(filter.q, (text) => this.page(actor, filter, text, page))
      : this.page(actor, filter, undefined, page);
  }

  private async page(
    actor: Actor,
    filter: TrackSearchFilter,
    text: TextQuery | undefined,
    page: { limit: number; offset: number },
  ) {
    const where = this.where(actor, filter, text);
    // offset 0 keeps the inner query apart, so each row's normal forms are computed once, not once per use in the ranking
    const { rows } = await sql<TrackRow & { n_title: string; n_artist: string; n_doc: string; total_count: number }>`
      select m.*, count(*) over () as total_count from (
        select t.*, riff_norm(t.title) as n_title, riff_norm(t.artist) as n_artist, ${TRACK_DOC} as n_doc from tracks t where ${where} offset 0
      ) m order by ${this.order(filter, text)} limit ${page.limit} offset ${page.offset}`.execute(this.db);
    const counted = await pageWithTotal(rows, async () =>
      Number(
        (await sql<{ n: number }>`select count(*) as n from tracks t where ${where}`.execute(this.db)).rows[0]?.n ?? 0,
      ),
    );
    return {
      rows: counted.rows.map(({ n_title: _title, n_artist: _artist, n_doc: _doc, ...row }) => row as TrackRow),
      total: counted.total,
    };
  }

  /** Public track titles starting with the prefix, through tracks_suggest_title. */
  async titlesStartingWith(actor: Actor, prefix: string, limit: number): Promise<{ id: string; text: string }[]> {
    const range = startsWith(sql`t.title`, prefix);
    const { rows } = await sql<{ id: string; text: string }>`select t.id, t.title as text from tracks t
      where ${PUBLIC_TRACK} and ${range.where} and ${this.unblocked(actor)}
      order by ${range.order} limit ${limit}`.execute(this.db);
    return rows;
  }

  /** Artists of public tracks starting with the prefix, each once with one of their tracks, through tracks_suggest_artist. */
  async artistsStartingWith(actor: Actor, prefix: string, limit: number): Promise<{ id: string; text: string }[]> {
    const range = startsWith(sql`t.artist`, prefix);
    const { rows } = await sql<{
      id: string;
      text: string;
    }>`select distinct on (${range.order}) t.id, t.artist as text from tracks t
      where ${PUBLIC_TRACK} and t.artist is not null and ${range.where} and ${this.unblocked(actor)}
      order by ${range.order} limit ${limit}`.execute(this.db);
    return rows;
  }

  private unblocked(actor: Actor): RawBuilder<SqlBool> {
    return actor.kind === 'user' ? notBlockedSql(actor.id, 't.creator_id') : sql<SqlBool>`true`;
  }
}
