/**
 * bench:analytics's rows (bench/analytics.ts): counted plays as the stream holds them, for the real
 * roll-up, and a year of roll-up rows generated in SQL to the shapes and cardinalities the roll-up
 * writes for such plays (10M plays through the roll-up would take hours).
 *
 * One model of plays serves both: a creator of TRACKS tracks, track k drawn with probability
 * √((k+1)/T) − √(k/T) (the first track gets 3 % of the plays, the last 0.05 %); 60 % of plays by a
 * user drawn uniformly from a pool of POOL accounts, 40 % anonymous (keys new each day, ANON_PLAYS
 * plays per key on average); sources by SOURCE_SHARES (5 % from one of PLAYLISTS playlists of the
 * creator's); 200 countries, country j with probability ((j+1)/200)^⅓ − (j/200)^⅓; 55 % of plays
 * complete. The generator derives each row's count from the same model: a day's distinct listeners
 * of a scope are P·(1 − e^(−n/P)) for n signed-in plays from a pool of P, its windows the listeners
 * of the last N days, a sparse item is present on a day with probability 1 − e^(−λ) for λ expected plays.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';

export const TRACKS = 1_000;
export const POOL = 100_000;
export const PLAYLISTS = 500;
export const COUNTRIES = 200;
const SIGNED_IN = 0.6;
const ANON_PLAYS = 3;
const COMPLETE = 0.55;
export const SOURCE_SHARES: Record<string, number> = {
  track: 0.35,
  playlist: 0.05,
  queue: 0.25,
  session: 0.15,
  search: 0.1,
  embed: 0.05,
  subsonic: 0.05,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export const userId = (n: RawBuilder<unknown> | number) => sql`md5('bench-analytics-user-' || ${n})::uuid`;
export const trackId = (role: string, k: RawBuilder<unknown> | number) =>
  sql`md5('bench-analytics-track-' || ${role}::text || '-' || ${k})::uuid`;
export const playlistId = (role: string, i: RawBuilder<unknown> | number) =>
  sql`md5('bench-analytics-playlist-' || ${role}::text || '-' || ${i})::uuid`;
/** Track k's share of the creator's plays. */
const trackShare = (k: RawBuilder<unknown>) =>
  sql`(sqrt((${k} + 1) / ${TRACKS}::float8) - sqrt(${k} / ${TRACKS}::float8))`;
const trackDuration = (k: RawBuilder<unknown>) => sql`(120 + ${k} % 180)`;
const countryCode = (j: RawBuilder<unknown>) => sql`chr(65 + ${j} / 26) || chr(65 + ${j} % 26)`;
/** Mean share of a track listened to: complete plays 0.9–1, the others 0–0.9. */
const MEAN_LISTENED = COMPLETE * 0.95 + (1 - COMPLETE) * 0.45;

/** Accounts 1 to POOL, tracks and playlists of a role's creator. */
export async function seedCatalogue(db: Db, role: string, creatorId: string, playlists: boolean) {
  await sql`
    insert into tracks (id, creator_id, title, duration, file_size, format, md5, status, is_public, created_at)
    select ${trackId(role, sql`k`)}, ${creatorId}::uuid, 'Bench ' || ${role}::text || ' ' || k, ${trackDuration(sql`k`)},
           1000, 'mp3', md5(${role}::text || k), 'completed', true, now() - k * interval '1 second'
    from generate_series(0, ${TRACKS - 1}::int) k`.execute(db);
  if (!playlists) return;
  await sql`
    insert into playlists (id, user_id, title, is_public)
    select ${playlistId(role, sql`i`)}, ${userId(sql`1 + i * 97 % ${POOL}::int`)}, 'Bench mix ' || i, true
    from generate_series(0, ${PLAYLISTS - 1}::int) i`.execute(db);
}

export async function seedUsers(db: Db) {
  await sql`
    insert into users (id, email, username, slug, is_verified, email_verified_at)
    select ${userId(sql`n`)}, 'bench-analytics-' || n || '@example.test', 'bench_analytics_' || n, 'bench-analytics-' || n, true, now()
    from generate_series(1, ${POOL}::int) n
    on conflict do nothing`.execute(db);
}

/**
 * `count` track.played events of a role's creator, evenly spread over [from, to), drawn by the model
 * with md5 of (role, n) (so the same select names the same events twice), as a select of the stream's
 * columns (consumer analytics.rollup) with their time as `at`.
 */
export function playEvents(role: string, count: number, from: Date, to: Date): RawBuilder<unknown> {
  const rnd = (salt: string) =>
    sql`(('x' || lpad(substr(md5(${role}::text || ':' || g || ':' || ${salt}::text), 1, 8), 16, '0'))::bit(64)::bigint / 4294967296.0)`;
  const span = (to.getTime() - from.getTime()) / 1000;
  const perDay = (count * 86_400) / span;
  const anonKeys = Math.max(1, Math.round((perDay * (1 - SIGNED_IN)) / ANON_PLAYS));
  let cumulative = 0;
  const sourceCase = sql.join(
    Object.entries(SOURCE_SHARES).map(([source, share]) => {
      cumulative += share;
      return sql`when r.rs < ${cumulative}::float8 then ${source}::text`;
    }),
    sql` `,
  );
  return sql`
    select 'analytics.rollup' as consumer, 'track.played' as type,
           jsonb_build_object(
             'listener', case when e.signed then 'u:' || ${userId(sql`e.u`)} else 'd:' || md5(e.day::text || ':' || e.anon) end,
             'source', e.source,
             'playlist_id', case when e.source = 'playlist' then ${playlistId(role, sql`e.pl`)} end,
             'duration_listened', round((case when e.complete then 0.9 + 0.1 * e.rl else 0.9 * e.rl end * ${trackDuration(sql`e.k`)})::numeric, 1),
             'country', ${countryCode(sql`e.j`)}) as payload,
           'track' as subject_type, ${trackId(role, sql`e.k`)}::text as subject_id,
           case when e.signed then ${userId(sql`e.u`)} end as user_id,
           case when e.signed then ${userId(sql`e.u`)} end as actor_id,
           e.at as occurred_at, e.at
    from (select r.*, (r.at at time zone 'UTC')::date as day, case ${sourceCase} else 'track' end as source
          from (select g, ${from.toISOString()}::timestamptz + ((g + 0.5) * ${span / count}::float8) * interval '1 second' as at,
                       least(${TRACKS - 1}::int, floor(${TRACKS}::int * ${rnd('k')} ^ 2))::int as k,
                       ${rnd('s')} < ${SIGNED_IN}::float8 as signed,
                       1 + floor(${POOL}::int * ${rnd('u')})::int as u,
                       floor(${anonKeys}::int * ${rnd('a')})::int as anon,
                       ${rnd('src')} as rs,
                       floor(${PLAYLISTS}::int * ${rnd('p')})::int as pl,
                       least(${COUNTRIES - 1}::int, floor(${COUNTRIES}::int * ${rnd('c')} ^ 3))::int as j,
                       ${rnd('d')} < ${COMPLETE}::float8 as complete,
                       ${rnd('l')} as rl
                from generate_series(0, ${count - 1}::int) g) r) e`;
}

/** Puts the selected events (playEvents) into the stream in time order, so the stream's order is theirs. */
export async function appendEvents(db: Db, events: RawBuilder<unknown>) {
  await sql`insert into event_stream (consumer, type, payload, subject_type, subject_id, user_id, actor_id, occurred_at)
    select consumer, type, payload, subject_type, subject_id, user_id, actor_id, occurred_at
    from (${events}) ev order by ev.at`.execute(db);
}

export interface Generated {
  role: string;
  creatorId: string;
  /** First and last day with plays, and the open day (today). */
  from: string;
  to: string;
  openDay: string;
  playsPerDay: number;
}

/**
 * The roll-up rows of `playsPerDay` plays a day from `from` to `to` (the model's expected counts
 * per scope and day; sparse items present at random with their expected frequency), as the roll-up
 * would have left them with `openDay` open. Writes analytics_days, _rank_days, _ranks, _listeners,
 * _last_seen and _gaps; not analytics_state (the bench's real roll-up owns it).
 */
export async function generateState(db: Db, g: Generated): Promise<void> {
  const { role, creatorId } = g;
  const n = g.playsPerDay;
  const anonKeys = (n * (1 - SIGNED_IN)) / ANON_PLAYS;
  // every scope of the creator with its share of the plays: the creator (k = -1) and each track
  const scopes = sql`(select 'creator'::text as kind, ${creatorId}::uuid as id, null::uuid as creator, 1.0::float8 as share, -1 as k,
        ${n * MEAN_LISTENED}::float8 * (120 + 179 / 2.0) as secs_per_day
      union all
      select 'track', ${trackId(role, sql`k`)}, ${creatorId}::uuid, ${trackShare(sql`k`)}, k,
        ${n}::float8 * ${trackShare(sql`k`)} * ${MEAN_LISTENED}::float8 * ${trackDuration(sql`k`)}
      from generate_series(0, ${TRACKS - 1}::int) k) s`;
  const days = sql`(select d::date as day, (d::date - ${g.from}::date) + 1 as t, (d::date - ${g.from}::date) as dn
      from generate_series(${g.from}::date, ${g.to}::date, interval '1 day') d) d`;
  // per scope and day: plays, the chance a pool user plays in it that day, the anonymous listeners
  const metrics = sql`(select s.*, d.*, ${n}::float8 * s.share as plays,
        1 - exp(-${SIGNED_IN * n}::float8 * s.share / ${POOL}::int) as q,
        ${anonKeys}::float8 * (1 - exp(-${(1 - SIGNED_IN) * n}::float8 * s.share / ${anonKeys}::float8)) as anon
      from ${scopes} cross join ${days}) m`;
  const windowed = (w: number | null) => {
    const span = w === null ? sql`m.t` : sql`least(${w}::int, m.t)`;
    return sql`round(${POOL}::int * (1 - (1 - m.q) ^ ${span}) + m.anon * ${span})::int`;
  };
  await sql`insert into analytics_days (scope_kind, scope_id, day, creator_id, plays, listeners, listening_seconds, completed,
      retention, listeners_7d, listeners_30d, listeners_90d, listeners_365d, listeners_all)
    select m.kind, m.id, m.day, m.creator, round(m.plays)::int, round(${POOL}::int * m.q + m.anon)::int, m.secs_per_day,
      round(m.plays * ${COMPLETE}::float8)::int,
      case when m.kind = 'track' then array(select round(m.plays * case when b < 18 then ${(1 - COMPLETE) / 18}::float8
        else ${COMPLETE / 2}::float8 end)::int from generate_series(0, 19) b) end,
      ${windowed(7)}, ${windowed(30)}, ${windowed(90)}, ${windowed(365)}, ${windowed(null)}
    from ${metrics}`.execute(db);

  // the day's column in the draw keeps PostgreSQL from drawing once per scope below the join with the days
  const present = (lambda: RawBuilder<unknown>, day: RawBuilder<unknown> = sql`m.dn`) =>
    sql`random() + 0 * ${day} < 1 - exp(-least(${lambda}, 50))`;
  const rankDay = (lambda: RawBuilder<unknown>) =>
    sql`greatest(1, floor(${lambda})::int + (random() < ${lambda} - floor(${lambda}))::int),
      greatest(1, ${lambda}) * ${MEAN_LISTENED * 210}::float8, round(${lambda} * ${COMPLETE}::float8)::int`;
  const insertRankDays = (select: RawBuilder<unknown>) =>
    sql`insert into analytics_rank_days (scope_kind, scope_id, dimension, item, day, plays, seconds, completed) ${select}`.execute(
      db,
    );
  const sources = sql`(select key as source, value::float8 as share from jsonb_each_text(${JSON.stringify(SOURCE_SHARES)}::jsonb)) src`;
  // creator × track, creator × source, track × source, creator × country
  await insertRankDays(sql`select 'creator', ${creatorId}::uuid, 'track', m.id::text, m.day, ${rankDay(sql`m.plays`)}
    from ${metrics} where m.kind = 'track' and ${present(sql`m.plays`)}`);
  await insertRankDays(sql`select m.kind, m.id, 'source', src.source, m.day, ${rankDay(sql`m.plays * src.share`)}
    from ${metrics} cross join ${sources} where ${present(sql`m.plays * src.share`)}`);
  await insertRankDays(sql`select 'creator', ${creatorId}::uuid, 'country', ${countryCode(sql`j`)}, d.day,
      ${rankDay(sql`${n}::float8 * (((j + 1) / ${COUNTRIES}::float8) ^ (1 / 3.0) - (j / ${COUNTRIES}::float8) ^ (1 / 3.0))`)}
    from ${days} cross join generate_series(0, ${COUNTRIES - 1}::int) j
    where ${present(sql`${n}::float8 * (((j + 1) / ${COUNTRIES}::float8) ^ (1 / 3.0) - (j / ${COUNTRIES}::float8) ^ (1 / 3.0))`, sql`d.dn`)}`);
  // creator × listener: the day's distinct signed-in listeners, a stride through the pool (a stride of each day's own, so days overlap as random draws do)
  await insertRankDays(sql`select 'creator', ${creatorId}::uuid, 'listener', ${userId(sql`1 + (m.dn * 7727 + (7919 + 20 * m.dn) * i) % ${POOL}::int`)}::text,
      m.day, ${rankDay(sql`${SIGNED_IN * n}::float8 / (${POOL}::int * m.q)`)}
    from ${metrics} cross join lateral generate_series(0, round(${POOL}::int * m.q)::int - 1) i where m.kind = 'creator'`);
  // track × playlist and playlist × track: the track's playlist plays over its distinct playlists that day
  const fromPlaylists = sql`(select m.id as track, m.day, x.pl, (m.plays * ${SOURCE_SHARES.playlist!}::float8) / x.rows as plays
      from ${metrics}
      cross join lateral (select ${PLAYLISTS}::int * (1 - exp(-m.plays * ${SOURCE_SHARES.playlist!}::float8 / ${PLAYLISTS}::int)) as x) e
      cross join lateral (select greatest(1, floor(e.x)::int + (random() < e.x - floor(e.x))::int) as rows) r
      cross join lateral (select ${playlistId(role, sql`(m.k * 31 + m.dn * 17 + i * 7) % ${PLAYLISTS}::int`)} as pl, r.rows
                          from generate_series(1, r.rows) i) x
      where m.kind = 'track') fp`;
  await sql`drop table if exists bench_from_playlists`.execute(db);
  await sql`create unlogged table bench_from_playlists as select * from ${fromPlaylists}`.execute(db);
  await insertRankDays(
    sql`select 'track', fp.track, 'playlist', fp.pl::text, fp.day, ${rankDay(sql`fp.plays`)} from bench_from_playlists fp`,
  );
  await insertRankDays(
    sql`select 'playlist', fp.pl, 'track', fp.track::text, fp.day, ${rankDay(sql`fp.plays`)} from bench_from_playlists fp`,
  );
  await sql`insert into analytics_days (scope_kind, scope_id, day, plays, listening_seconds, completed)
    select 'playlist', fp.pl, fp.day, sum(greatest(1, round(fp.plays)))::int, sum(greatest(1, round(fp.plays))) * ${MEAN_LISTENED * 210}::float8,
      round(sum(fp.plays) * ${COMPLETE}::float8)::int
    from bench_from_playlists fp group by fp.pl, fp.day`.execute(db);
  await sql`drop table bench_from_playlists`.execute(db);

  // the ranks: each item's sums over the windows ending on the open day
  const within = (w: number) => sql`filter (where rd.day > ${g.openDay}::date - ${w}::int)`;
  const sums = (w: number | null) => {
    const f = w === null ? sql`` : within(w);
    return sql`coalesce(sum(rd.plays) ${f}, 0), coalesce(sum(rd.seconds) ${f}, 0), coalesce(sum(rd.completed) ${f}, 0)`;
  };
  const columns = ['7d', '30d', '90d', '365d', 'all'].flatMap((w) => [`plays_${w}`, `seconds_${w}`, `completed_${w}`]);
  await sql`insert into analytics_ranks (scope_kind, scope_id, dimension, item, ${sql.raw(columns.join(', '))})
    select rd.scope_kind, rd.scope_id, rd.dimension, rd.item, ${sums(7)}, ${sums(30)}, ${sums(90)}, ${sums(365)}, ${sums(null)}
    from analytics_rank_days rd
    where (rd.scope_kind = 'creator' and rd.scope_id = ${creatorId}::uuid)
       or (rd.scope_kind = 'track' and rd.scope_id in (select ${trackId(role, sql`k`)} from generate_series(0, ${TRACKS - 1}::int) k))
       or (rd.scope_kind = 'playlist' and rd.scope_id in (select ${playlistId(role, sql`i`)} from generate_series(0, ${PLAYLISTS - 1}::int) i))
    group by rd.scope_kind, rd.scope_id, rd.dimension, rd.item`.execute(db);

  // the listeners' state: every pool user who played in the scope, with a last day drawn from the
  // model (geometric back from the last day), and the open day's anonymous listeners
  await sql`insert into analytics_listeners (scope_kind, scope_id, listener, last_day)
    select m.kind, m.id, 'u:' || ${userId(sql`1 + (greatest(m.k, 0) * 997 + i * 7919) % ${POOL}::int`)},
      ${g.to}::date - floor(ln(1 - random() * (1 - (1 - m.q) ^ m.t)) / ln(1 - m.q))::int
    from ${metrics} cross join lateral generate_series(0, round(${POOL}::int * (1 - (1 - m.q) ^ m.t))::int - 1) i
    where m.day = ${g.to}::date and m.q > 0
    union all
    select m.kind, m.id, 'd:' || md5(m.id::text || ':' || i), m.day
    from ${metrics} cross join lateral generate_series(1, round(m.anon)::int) i where m.day = ${g.openDay}::date`.execute(
    db,
  );
  await sql`insert into analytics_last_seen (scope_kind, scope_id, day, listeners)
    select kind, id, day, sum(listeners)::int from (
      select l.scope_kind as kind, l.scope_id as id, l.last_day as day, count(*) as listeners
        from analytics_listeners l
       where l.listener like 'u:%' and ((l.scope_kind = 'creator' and l.scope_id = ${creatorId}::uuid)
          or (l.scope_kind = 'track' and l.scope_id in (select ${trackId(role, sql`k`)} from generate_series(0, ${TRACKS - 1}::int) k)))
       group by 1, 2, 3
      union all
      select m.kind, m.id, m.day, round(m.anon) from ${metrics}) x
    group by kind, id, day having sum(listeners) > 0`.execute(db);
  // returning listeners: those of a day whose previous day in the scope was `gap` days before
  await sql`insert into analytics_gaps (scope_kind, scope_id, day, gap, listeners)
    select m.kind, m.id, m.day, gap, greatest(1, round(${POOL}::int * m.q * m.q * (1 - m.q) ^ (gap - 1)))::int
    from ${metrics} cross join generate_series(1, 30) gap
    where gap < m.t and ${present(sql`${POOL}::int * m.q * m.q * (1 - m.q) ^ (gap - 1)`)}`.execute(db);
}
