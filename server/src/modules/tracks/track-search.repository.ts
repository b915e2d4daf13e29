import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Actor } from '../../platform/access/actor.js';
import type { TrackRow } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { normalForm, notBlockedEitherWay, searchDoc, startsWith, textQuery } from '../../platform/search/text-search.js';
import { trackVisibleSql } from './tracks.policy.js';

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

/** The SQL of track search and suggestions (the engine of platform/search/text-search.ts). */
export class TrackSearchRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  private where(actor: Actor, filter: TrackSearchFilter): RawBuilder<SqlBool> {
    const conditions: RawBuilder<SqlBool>[] = [trackVisibleSql(actor, 't')];
    conditions.push(this.unblocked(actor));
    if (filter.q) conditions.push(textQuery(filter.q).matches(TRACK_DOC));
    if (filter.genre) {
      conditions.push(sql<SqlBool>`(lower(t.genre) = lower(${filter.genre}) or t.genres @> ${JSON.stringify([filter.genre.toLowerCase()])}::jsonb)`);
    }
    if (filter.bpmMin !== undefined) conditions.push(sql<SqlBool>`t.bpm >= ${filter.bpmMin}`);
    if (filter.bpmMax !== undefined) conditions.push(sql<SqlBool>`t.bpm <= ${filter.bpmMax}`);
    if (filter.musicalKey) conditions.push(sql<SqlBool>`lower(t.musical_key) = lower(${filter.musicalKey})`);
    if (filter.durationMin !== undefined) conditions.push(sql<SqlBool>`t.duration >= ${filter.durationMin}::float8`);
    if (filter.durationMax !== undefined) conditions.push(sql<SqlBool>`t.duration <= ${filter.durationMax}::float8`);
    return sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
  }

  private order(filter: TrackSearchFilter): RawBuilder<unknown> {
    if (filter.sort === 'popular') return sql`t.play_count desc, t.created_at desc, t.id`;
    if (filter.sort === 'newest' || !filter.q) return sql`t.created_at desc, t.id`;
    const text = textQuery(filter.q);
    const names = [normalForm(sql`t.title`), normalForm(sql`t.artist`)];
    return sql`${text.tier(names, TRACK_DOC)}, ${text.closeness(TRACK_DOC)} desc, t.play_count desc, t.created_at desc, t.id`;
  }

  async search(actor: Actor, filter: TrackSearchFilter, page: { limit: number; offset: number }): Promise<{ rows: TrackRow[]; total: number }> {
    const where = this.where(actor, filter);
    const [{ rows }, { rows: counted }] = await Promise.all([
      sql<TrackRow>`select t.* from tracks t where ${where} order by ${this.order(filter)} limit ${page.limit} offset ${page.offset}`.execute(this.db),
      sql<{ n: number }>`select count(*) as n from tracks t where ${where}`.execute(this.db),
    ]);
    return { rows, total: Number(counted[0]?.n ?? 0) };
  }

  /** Public track titles starting with the prefix, through tracks_suggest_title. */
  async titlesStartingWith(actor: Actor, prefix: string, limit: number): Promise<{ id: string; text: string }[]> {
    const range = startsWith(sql`t.title`, prefix);
    const { rows } = await sql<{ id: string; text: string }>`select t.id, t.title as text from tracks t
      where t.is_public and t.deleted_at is null and ${range.where} and ${this.unblocked(actor)}
      order by ${range.order} limit ${limit}`.execute(this.db);
    return rows;
  }

  /** Artists of public tracks starting with the prefix, each once with one of their tracks, through tracks_suggest_artist. */
  async artistsStartingWith(actor: Actor, prefix: string, limit: number): Promise<{ id: string; text: string }[]> {
    const range = startsWith(sql`t.artist`, prefix);
    const { rows } = await sql<{ id: string; text: string }>`select distinct on (${range.order}) t.id, t.artist as text from tracks t
      where t.is_public and t.deleted_at is null and t.artist is not null and ${range.where} and ${this.unblocked(actor)}
      order by ${range.order} limit ${limit}`.execute(this.db);
    return rows;
  }

  private unblocked(actor: Actor): RawBuilder<SqlBool> {
    return actor.kind === 'user' ? notBlockedEitherWay(sql`t.creator_id`, actor.id) : sql<SqlBool>`true`;
  }
}
