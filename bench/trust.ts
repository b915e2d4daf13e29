/**
 * Trust and safety and notifications at scale (issue 30): `DATABASE_URL=… npm run bench:trust`
 * (`-- --quick` for a short run, `-- --only=queue|inbox|delivery` for one part, `-- --keep` to leave
 * the seeded rows). On PostgreSQL only (the goals are set there).
 *
 * - The moderation queue (GET /moderation/reports, a moderator): 1,000 open reports over 250 targets,
 *   then 100,000 over 25,000 (a few targets reported hundreds of times, most once or twice), seeded
 *   in SQL with the real migrations' indexes. p95 at each size and the ratio (goal ≤ 2×).
 * - The notification inbox (GET /notifications, ?unread=true, a later page, /unread-count) of one
 *   user whose inbox is the same 3,000 notifications (150 unread) at both sizes: first beside 1,000
 *   notifications of others, then spread through 10,000,000 over 100,000 users (the measured user's
 *   rows scattered through the table as they would arrive over 80 days). Same goal.
 * - Live delivery to 1,000 sockets: 1,000 creators, one stream-token socket each, and an admin's
 *   announcement to the creators: each socket's time from the request, and from the notification's
 *   creation (its created_at), to receipt. Then 1,000 follows, one of each creator, one after the
 *   other: each from its request, and from its notification's creation, to its socket. Goal: p95 ≤ 100 ms.
 *
 * The small sizes are measured before and after the large ones and their latencies pooled (the
 * machine's load moves during a run). Prints the figures and the plans PostgreSQL chose at the large
 * sizes (EXPLAIN ANALYZE).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type RawBuilder } from 'kysely';
import WebSocket from 'ws';
import { migrateToLatest, openDatabase } from '../server/src/platform/db/database.js';
import { createPasswordHasher } from '../server/src/platform/auth/password-hasher.js';
import {
  latenciesOf,
  loadAverages,
  logIn,
  secondsSince,
  signInUser,
  startRiff,
  type BenchUser,
  type Child,
} from './bench-support.js';
import { percentile } from './live-scenario.js';

const quick = process.argv.includes('--quick');
const keep = process.argv.includes('--keep');
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const parts = new Set(only ? only.split(',') : ['queue', 'inbox', 'delivery']);
const seconds = quick ? 4 : 10;
const connections = 4;
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('bench:trust runs on PostgreSQL: set DATABASE_URL');

const QUEUE_SIZES = [1_000, 100_000] as const;
/** Reports per target on average (a few targets get hundreds, most one or two). */
const REPORTS_PER_CASE = 4;
const INBOX_USERS = 100_000;
const LARGE_NOTIFICATIONS = 10_000_000;
const SMALL_OTHERS = 1_000;
/** Every 3,333rd notification is the measured user's: 3,000 of 10M, the newest 150 unread. */
const MEASURED_EVERY = 3_333;
const UNREAD_AFTER = 9_500_000;
/** 80 days over 10M notifications (retention is 90). */
const SECONDS_APART = (80 * 86_400) / LARGE_NOTIFICATIONS;
const SOCKETS = 1_000;
/** The creators' account numbers (the inbox users are 1 to 100,000). */
const CREATOR_FROM = 200_001;
const ANNOUNCEMENTS = quick ? 2 : 5;

const run = randomUUID().slice(0, 8);
const opened = await openDatabase({ databaseUrl, dataDir: await mkdtemp(path.join(tmpdir(), 'riff-bench-trust-')) });
const db = opened.db;
await migrateToLatest(db);

const load = loadAverages;
const elapsed = secondsSince;
/** The bench's accounts have fixed ids, so a later run (or one stopped half-way) finds the same ones. */
const benchUser = (n: RawBuilder<unknown>) => sql`md5('bench-trust-user-' || ${n})::uuid`;

/** Accounts 1 to `count` (plain users): owners, reporters, inbox recipients and actors. */
async function seedUsers(count: number) {
  const started = performance.now();
  await sql`
    insert into users (id, email, username, slug, is_verified, email_verified_at)
    select ${benchUser(sql`n`)}, 'bench-trust-' || n || '@example.test', 'bench_trust_' || n, 'bench-trust-' || n, true, now()
    from generate_series(1, ${count}::int) n
    on conflict do nothing`.execute(db);
  await sql`analyze users`.execute(db);
  console.log(`${count} bench accounts in ${elapsed(started)}`);
}

/** Latencies of GET `url` with the token, `connections` at once for `seconds` (after 1 s not counted). */
const measure = (url: string, token: string) =>
  latenciesOf(url, { connections, seconds, headers: { authorization: `Bearer ${token}` } });

/** A checkpoint (superuser only; skipped otherwise): a bulk load's dirty pages written before the requests. */
async function settle() {
  await sql`checkpoint`.execute(db).catch(() => undefined);
}

/** Waits (up to a minute) until no job is waiting or running: a bench's requests should not share the CPU with a backlog. */
async function jobsSettled() {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from riff_jobs.job where state in ('created', 'retry', 'active') and start_after <= now()`.execute(
      db,
    );
    if (rows[0]!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Each request's latencies at each size. The small size is measured before and after the large one
 * and its latencies pooled, so that a change of the machine's load during the run (other sessions
 * share it) weighs on both sizes alike.
 */
type Sized = { small: number[]; large: number[] };
const sizedOf = (figures: Map<string, Sized>, name: string) => {
  const sized = figures.get(name) ?? { small: [], large: [] };
  figures.set(name, sized);
  return sized;
};
const tables: { title: string; small: string; large: string; figures: Map<string, Sized> }[] = [];
const plans: string[] = [];

async function explain(label: string, statement: RawBuilder<unknown>) {
  const plan = await sql<{ 'QUERY PLAN': string }>`explain analyze ${statement}`.execute(db);
  plans.push(`plan, ${label}:\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}`);
}

// ---------------------------------------------------------------------------------------------
// the moderation queue

const REASONS = sql.raw(
  `array['spam', 'harassment', 'hate', 'sexual', 'violence', 'self_harm', 'copyright', 'impersonation', 'illegal', 'other']`,
);
const TARGET_TYPES = sql.raw(
  `array['track', 'track', 'track', 'comment', 'comment', 'user', 'playlist', 'product', 'track', 'comment']`,
);

async function clearQueue() {
  // a case's reports and history go with it
  await sql`delete from moderation_cases where target_snapshot ->> 'bench' = 'trust'`.execute(db);
}

/**
 * `reports` open reports over reports / REPORTS_PER_CASE targets: report g goes to case
 * 1 + floor(cases × (g / reports)²), so the first cases are reported hundreds of times and the last
 * ones once or twice. 10 % of the cases are taken: 20 by the measured moderator (at both sizes,
 * as a moderator holds a handful at a time), the rest by five others.
 */
async function seedQueue(reports: number, moderatorId: string) {
  const started = performance.now();
  await clearQueue();
  const cases = reports / REPORTS_PER_CASE;
  const targetId = (c: RawBuilder<unknown>) => sql`md5('bench-trust-case-' || ${c})::uuid`;
  await sql`
    insert into moderation_cases (target_type, target_id, owner_id, target_snapshot, assigned_to)
    select (${TARGET_TYPES})[1 + c % 10], ${targetId(sql`c`)}, ${benchUser(sql`1 + c % 1000`)},
           jsonb_build_object('bench', 'trust', 'title', 'Bench track ' || c, 'artist', 'Artist ' || c % 1000,
             'tags', jsonb_build_array('bench'), 'is_public', true, 'duration', 120 + c % 200,
             'stream_path', '/api/v1/tracks/' || ${targetId(sql`c`)} || '/stream', 'cover_art_path', null),
           case when c % 10 = 0 and c <= 200 then ${moderatorId}::uuid
                when c % 10 = 0 then ${benchUser(sql`90001 + c % 5`)} end
    from generate_series(1, ${cases}::int) c`.execute(db);
  await sql`
    insert into reports (case_id, reporter_id, target_type, target_id, reason, details, created_at)
    select mc.id, ${benchUser(sql`1 + r.g % 20000`)}, mc.target_type, mc.target_id, (${REASONS})[1 + (r.g * 7) % 10],
           case when r.g % 3 = 0 then 'bench report ' || r.g end,
           now() - ((r.g::bigint * 7919) % (30 * 86400) || ' seconds')::interval
    from (select g, 1 + floor(${cases}::int * ((g - 1)::float8 / ${reports}::int) ^ 2)::int as c
          from generate_series(1, ${reports}::int) g) r
    join moderation_cases mc on mc.target_id = ${targetId(sql`r.c`)} and mc.status = 'open'`.execute(db);
  await sql`
    update moderation_cases mc set report_count = a.n, first_reported_at = a.first, last_reported_at = a.last
    from (select case_id, count(*)::int as n, min(created_at) as first, max(created_at) as last from reports group by case_id) a
    where a.case_id = mc.id and mc.target_snapshot ->> 'bench' = 'trust'`.execute(db);
  // as autovacuum leaves tables after a bulk load: statistics and the visibility map current
  await sql`vacuum analyze moderation_cases`.execute(db);
  await sql`vacuum analyze reports`.execute(db);
  await settle();
  const { rows } = await sql<{ cases: number; reports: number; top: number }>`
    select count(*)::int as cases, sum(report_count)::int as reports, max(report_count) as top
    from moderation_cases where status = 'open'`.execute(db);
  console.log(
    `queue: ${rows[0]!.reports} open reports over ${rows[0]!.cases} cases (the most reported: ${rows[0]!.top}) in ${elapsed(started)}; load average ${load()}`,
  );
}

const QUEUE_REQUESTS = [
  { name: 'open cases (default page of 20)', query: '' },
  { name: 'target_type=comment', query: '?target_type=comment' },
  { name: 'reason=hate', query: '?reason=hate' },
  { name: 'assigned=none', query: '?assigned=none' },
  { name: 'assigned=me', query: '?assigned=me' },
];

async function benchQueue(riff: Child) {
  const moderator = await signInUser(riff);
  await sql`update users set role = 'moderator' where id = ${moderator.id}`.execute(db);
  const figures = new Map<string, Sized>();
  try {
    for (const [size, reports] of [
      ['small', QUEUE_SIZES[0]],
      ['large', QUEUE_SIZES[1]],
      ['small', QUEUE_SIZES[0]],
    ] as const) {
      await seedQueue(reports, moderator.id);
      await jobsSettled();
      const { accessToken } = await logIn(riff, moderator.email, moderator.password);
      for (const request of QUEUE_REQUESTS) {
        const measured = await measure(`${riff.baseUrl}/api/v1/moderation/reports${request.query}`, accessToken);
        sizedOf(figures, request.name)[size].push(...measured.latencies);
        console.log(
          `queue at ${reports / 1000}k reports: ${request.name}: p95 ${percentile(measured.latencies, 0.95).toFixed(1)} ms, ${measured.rps.toFixed(0)} req/s`,
        );
      }
      if (size === 'large') await explainQueue(moderator.id);
    }
  } finally {
    if (!keep) await clearQueue();
  }
  tables.push({
    title: 'GET /moderation/reports (PostgreSQL)',
    small: 'p95 at 1k reports',
    large: 'p95 at 100k',
    figures,
  });
}

/** The plans of what the queue runs, at 100k. */
async function explainQueue(moderatorId: string) {
  const open = sql`status = 'open'`;
  const order = sql`order by report_count desc, first_reported_at, id`;
  // what the queue read before migration 0028: the page and its total in one statement
  await explain(
    'queue, the page with count(*) over () (before 0028)',
    sql`select *, count(*) over () as total_count from moderation_cases where ${open} ${order} limit 20`,
  );
  await explain('queue, the page', sql`select * from moderation_cases where ${open} ${order} limit 20`);
  await explain(
    'queue, its total (the count deltas)',
    sql`select coalesce(sum(delta), 0) from moderation_case_count_deltas where ${open}`,
  );
  await explain(
    'queue, reason=hate: the page',
    sql`select * from moderation_cases c where ${open} and exists (select 1 from reports r where r.case_id = c.id and r.reason = 'hate') ${order} limit 20`,
  );
  await explain(
    'queue, reason=hate: its total (from the reports)',
    sql`select count(*) from (select case_id from reports where reason = 'hate' and ${open} group by case_id) cases`,
  );
  const mine = sql`${open} and assigned_to = ${moderatorId}::uuid`;
  await explain('queue, assigned=me: the page', sql`select * from moderation_cases where ${mine} ${order} limit 20`);
  await explain('queue, assigned=me: its total', sql`select count(*) from moderation_cases where ${mine}`);
}

// ---------------------------------------------------------------------------------------------
// the notification inbox

/**
 * Notifications g in `numbers` (a set of g): every MEASURED_EVERY-th the measured user's, the others
 * over INBOX_USERS accounts; g orders them in time (g = 10M is the newest); the newest 5 % unread;
 * 1 in 20 of others' kept by mail only. Likes (a fold of 1 to 3), follows, comments, announcements.
 */
async function seedNotifications(numbers: RawBuilder<unknown>, measuredId: string, trackIds: string[]) {
  const recipient = sql`case when g % ${MEASURED_EVERY}::int = 0 then ${measuredId}::uuid else ${benchUser(sql`1 + (g::bigint * 7919) % ${INBOX_USERS}::int`)} end`;
  const actor = (k: number) => benchUser(sql`1 + ((g::bigint + ${k}::int) * 104729) % ${INBOX_USERS}::int`);
  const track = sql`case when g % ${MEASURED_EVERY}::int = 0 then (${trackIds}::uuid[])[1 + (g / ${MEASURED_EVERY}::int) % ${trackIds.length}::int]
    else md5('bench-trust-track-' || g % 100000)::uuid end`;
  const at = sql`now() - ((${LARGE_NOTIFICATIONS}::int - g) * ${SECONDS_APART}::float8 || ' seconds')::interval`;
  await sql`
    insert into notifications (user_id, type, actor_ids, count, subject_type, subject_id, subject_title, message, fold_key, in_app, email_due, first_at, created_at, read_at)
    select ${recipient},
           (array['like', 'like', 'like', 'like', 'follow', 'follow', 'follow', 'comment', 'comment', 'announcement'])[1 + g % 10],
           case when g % 10 < 4 then (array[${actor(0)}, ${actor(1)}, ${actor(2)}])[1 : 1 + g % 3]
                when g % 10 < 9 then array[${actor(0)}] else '{}'::uuid[] end,
           case when g % 10 < 4 then 1 + g % 3 else 1 end,
           case when g % 10 < 4 then 'track' when g % 10 < 7 then 'user' when g % 10 < 9 then 'comment' end,
           case when g % 10 < 4 then ${track} when g % 10 < 7 then ${actor(0)}
                when g % 10 < 9 then md5('bench-trust-comment-' || g)::uuid end,
           case when g % 10 < 4 then 'Night Drive ' || g % 20 when g % 10 in (7, 8) then 'Night Drive ' || g % 20 end,
           case when g % 10 < 4 then 'liked your track Night Drive ' || g % 20
                when g % 10 < 7 then 'started following you'
                when g % 10 < 9 then 'commented on your track: what a drop at 2:10'
                else 'Riff will be down for maintenance on Sunday from 02:00 to 03:00 UTC' end,
           case when g % 10 < 4 then 'like:' || ${track} end,
           g % ${MEASURED_EVERY}::int = 0 or g % 20 <> 7,
           false, ${at}, ${at},
           case when g <= ${UNREAD_AFTER}::int then ${at} + interval '1 hour' end
    from ${numbers} as numbers(g)`.execute(db);
}

/**
 * Removes the bench's notifications. Deleting 10M rows one by one takes minutes and leaves a table to
 * vacuum: the table is truncated instead, and the few rows of other accounts (a bench database's
 * test runs) are kept aside and put back, in one transaction.
 */
async function clearNotifications(measuredId: string) {
  await db.transaction().execute(async (trx) => {
    await sql`create temporary table bench_kept_notifications on commit drop as
      select * from notifications n where n.user_id <> ${measuredId}::uuid
        and not exists (select 1 from users u where u.id = n.user_id and u.username like 'bench\\_trust\\_%')`.execute(
      trx,
    );
    await sql`truncate notifications`.execute(trx);
    await sql`insert into notifications select * from bench_kept_notifications`.execute(trx);
  });
}

const INBOX_REQUESTS = [
  { name: 'inbox, page 1 of 20', path: '/notifications' },
  { name: 'unread=true, page 1 of 20', path: '/notifications?unread=true&page=1&limit=20' },
  { name: 'inbox, page 5 of 20', path: '/notifications?page=5&limit=20' },
  { name: 'unread-count', path: '/notifications/unread-count' },
];

interface Inbox {
  user: BenchUser;
  trackIds: string[];
  figures: Map<string, Sized>;
}

/** The measured user, and the tracks their likes are about. */
async function inboxUser(riff: Child): Promise<Inbox> {
  const user = await signInUser(riff);
  const tracks = await sql<{ id: string }>`
    insert into tracks (id, creator_id, title, duration, file_size, format, md5, status, is_public)
    select gen_random_uuid(), ${user.id}::uuid, 'Night Drive ' || n, 180, 1000, 'mp3', 'bench', 'completed', true
    from generate_series(0, 19) n returning id`.execute(db);
  const figures = new Map<string, Sized>();
  tables.push({ title: 'GET /notifications (PostgreSQL)', small: 'p95 at 4k', large: 'p95 at 10M', figures });
  return { user, trackIds: tracks.rows.map((row) => row.id), figures };
}

/** Seeds the inbox table at one size and measures the measured user's requests. */
async function benchInbox(riff: Child, inbox: Inbox, size: 'small' | 'large') {
  const { user, trackIds, figures } = inbox;
  const started = performance.now();
  await clearNotifications(user.id);
  if (size === 'small') {
    await seedNotifications(
      sql`(select generate_series(1, ${SMALL_OTHERS}::int) union all select generate_series(${MEASURED_EVERY}::int, ${LARGE_NOTIFICATIONS}::int, ${MEASURED_EVERY}::int))`,
      user.id,
      trackIds,
    );
  } else {
    // in time order, so that the measured user's rows lie scattered through the table as they would
    const batch = 1_000_000;
    for (let from = 1; from <= LARGE_NOTIFICATIONS; from += batch) {
      await seedNotifications(
        sql`generate_series(${from}::int, ${Math.min(from + batch - 1, LARGE_NOTIFICATIONS)}::int)`,
        user.id,
        trackIds,
      );
      console.log(`  ${from + batch - 1} notifications, ${elapsed(started)}; load average ${load()}`);
    }
  }
  // as autovacuum leaves a table after a bulk load: statistics and the visibility map current; and
  // the load's dirty pages written out, so that the requests do not share the disk with a checkpoint
  await sql`vacuum analyze notifications`.execute(db);
  await settle();
  const { rows } = await sql<{ all: number; mine: number; unread: number }>`
    select (select count(*)::int from notifications) as all,
           (select count(*)::int from notifications where user_id = ${user.id}::uuid and in_app) as mine,
           (select count(*)::int from notifications where user_id = ${user.id}::uuid and in_app and read_at is null) as unread`.execute(
    db,
  );
  console.log(
    `inbox: ${rows[0]!.all} notifications, the measured user's ${rows[0]!.mine} (${rows[0]!.unread} unread), in ${elapsed(started)}; load average ${load()}`,
  );
  await jobsSettled();
  const { accessToken } = await logIn(riff, user.email, user.password);
  for (const request of INBOX_REQUESTS) {
    const measured = await measure(`${riff.baseUrl}/api/v1${request.path}`, accessToken);
    sizedOf(figures, request.name)[size].push(...measured.latencies);
    console.log(
      `inbox at ${size === 'small' ? '4k' : '10M'}: ${request.name}: p95 ${percentile(measured.latencies, 0.95).toFixed(1)} ms, ${measured.rps.toFixed(0)} req/s`,
    );
  }
  if (size === 'small') return;
  const mine = sql`user_id = ${user.id}::uuid and in_app`;
  const newest = sql`order by created_at desc, id desc limit 20`;
  await explain(
    'inbox, page 1 with count(*) over () (before)',
    sql`select *, count(*) over () as total_count from notifications where ${mine} ${newest}`,
  );
  await explain('inbox, page 1', sql`select * from notifications where ${mine} ${newest}`);
  await explain('inbox, its total', sql`select count(*) from notifications where ${mine}`);
  await explain('inbox, unread page 1', sql`select * from notifications where ${mine} and read_at is null ${newest}`);
  await explain('inbox, unread count', sql`select count(*) from notifications where ${mine} and read_at is null`);
}

// ---------------------------------------------------------------------------------------------
// live delivery

interface Socket {
  ws: WebSocket;
  userId: string;
}

/** SOCKETS creators, signed in, each with one socket opened with a stream token. */
async function openSockets(riff: Child): Promise<Socket[]> {
  const started = performance.now();
  const password = 'benchmark password 1';
  // the hash carries its own cost: a cheap one makes 1,000 logins quick, and verifying it is the same code
  const hash = await createPasswordHasher({ memoryCost: 1024, timeCost: 1 }).hash(password);
  await sql`
    insert into users (id, email, username, slug, password_hash, role, is_verified, email_verified_at)
    select ${benchUser(sql`n`)}, 'bench-trust-' || n || '@example.test', 'bench_trust_' || n, 'bench-trust-' || n,
           ${hash}, 'creator', true, now()
    from generate_series(${CREATOR_FROM}::int, ${CREATOR_FROM + SOCKETS - 1}::int) n
    on conflict (id) do update set password_hash = excluded.password_hash, role = 'creator'`.execute(db);
  const sockets: Socket[] = [];
  const wsBase = `${riff.baseUrl.replace('http', 'ws')}/api/v1/ws?token=`;
  const next = { n: CREATOR_FROM };
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next.n < CREATOR_FROM + SOCKETS) {
        const n = next.n++;
        const { accessToken } = await logIn(riff, `bench-trust-${n}@example.test`, password);
        const reply = await fetch(`${riff.baseUrl}/api/v1/auth/stream-token`, {
          method: 'POST',
          headers: { authorization: `Bearer ${accessToken}` },
        });
        if (reply.status !== 200) throw new Error(`stream token: ${reply.status} ${await reply.text()}`);
        const { token } = (await reply.json()) as { token: string };
        const ws = new WebSocket(wsBase + encodeURIComponent(token));
        await new Promise((resolve, reject) => {
          ws.once('open', resolve);
          ws.once('error', reject);
        });
        const userId = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sub as string;
        sockets.push({ ws, userId });
      }
    }),
  );
  console.log(`${sockets.length} creators signed in, a socket each, in ${elapsed(started)}; load average ${load()}`);
  return sockets;
}

interface Heard {
  /** From sending the triggering request to the socket's receipt (ms). */
  fromRequest: number;
  /** From the notification's created_at to the socket's receipt (ms, the same machine's clock). */
  fromCreation: number;
}

/** Resolves for each socket once it hears a notification `matches` accepts. */
function listen(
  sockets: Socket[],
  matches: (data: { message: string; actor: { id: string } | null }, socket: Socket) => boolean,
  since: () => number,
): Promise<Heard>[] {
  return sockets.map(
    (socket) =>
      new Promise<Heard>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no notification within 120 s')), 120_000);
        const onMessage = (raw: WebSocket.RawData) => {
          const now = performance.now();
          const wall = Date.now();
          const text = raw.toString();
          if (!text.startsWith('{"type":"notification"')) return;
          const data = (
            JSON.parse(text) as { data: { message: string; actor: { id: string } | null; created_at: string } }
          ).data;
          if (!matches(data, socket)) return;
          socket.ws.off('message', onMessage);
          clearTimeout(timer);
          resolve({ fromRequest: now - since(), fromCreation: wall - Date.parse(data.created_at) });
        };
        socket.ws.on('message', onMessage);
      }),
  );
}

async function benchDelivery(riff: Child) {
  const admin = await signInUser(riff);
  await sql`update users set role = 'admin', is_admin = true where id = ${admin.id}`.execute(db);
  const sockets = await openSockets(riff);
  const audience = await sql<{ n: number }>`
    select count(*)::int as n from users where deleted_at is null and is_active and not is_banned and is_verified
      and (role = 'creator' or promoted_to_creator_at is not null)`.execute(db);
  console.log(`the creators' audience: ${audience.rows[0]!.n} accounts (${SOCKETS} with a socket)`);
  const announced: Heard[] = [];
  const followed: Heard[] = [];
  const replies: number[] = [];
  try {
    await jobsSettled();
    const { accessToken } = await logIn(riff, admin.email, admin.password);
    for (let round = 0; round <= ANNOUNCEMENTS; round++) {
      const message = `Bench ${run} announcement ${round}`;
      let started = 0;
      const heard = listen(
        sockets,
        (data) => data.message === message,
        () => started,
      );
      started = performance.now();
      const reply = await fetch(`${riff.baseUrl}/api/v1/admin/announcements`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message, audience: 'creators' }),
      });
      if (reply.status !== 202) throw new Error(`announce: ${reply.status} ${await reply.text()}`);
      const replied = performance.now() - started;
      const latencies = await Promise.all(heard);
      const fromRequest = latencies.map((l) => l.fromRequest);
      console.log(
        `announcement ${round}${round === 0 ? ' (warm-up, not counted)' : ''}: 202 in ${replied.toFixed(1)} ms; from the request p50 ${percentile(fromRequest, 0.5).toFixed(1)}, p95 ${percentile(fromRequest, 0.95).toFixed(1)}, max ${Math.max(...fromRequest).toFixed(1)} ms; load average ${load()}`,
      );
      if (round > 0) {
        announced.push(...latencies);
        replies.push(replied);
      }
      await jobsSettled();
    }
    // a follow of each creator, one after the other: each event's way through the outbox, the job and the push
    const follower = await signInUser(riff);
    for (const socket of sockets) {
      let started = 0;
      const [heard] = listen(
        [socket],
        (data) => data.actor?.id === follower.id,
        () => started,
      );
      started = performance.now();
      const reply = await fetch(`${riff.baseUrl}/api/v1/users/${socket.userId}/follow`, {
        method: 'POST',
        headers: { authorization: `Bearer ${follower.accessToken}` },
      });
      if (!reply.ok) throw new Error(`follow: ${reply.status} ${await reply.text()}`);
      followed.push(await heard!);
    }
  } finally {
    for (const socket of sockets) socket.ws.terminate();
  }
  const row = (name: string, values: number[]) =>
    `| ${name} | ${percentile(values, 0.5).toFixed(1)} ms | ${percentile(values, 0.95).toFixed(1)} ms | ${Math.max(...values).toFixed(1)} ms | ${percentile(values, 0.95) <= 100 ? 'met' : 'not met'} |`;
  return [
    `\n| delivery to ${SOCKETS} sockets (PostgreSQL) | p50 | p95 | max | goal p95 ≤ 100 ms |`,
    '|---|---|---|---|---|',
    row(
      `announcement to the creators (${ANNOUNCEMENTS} × ${SOCKETS}), from the notification's creation`,
      announced.map((l) => l.fromCreation),
    ),
    row(
      `announcement, from the request (202 p50 ${percentile(replies, 0.5).toFixed(1)} ms)`,
      announced.map((l) => l.fromRequest),
    ),
    row(
      `a follow of each creator, one at a time, from the notification's creation`,
      followed.map((l) => l.fromCreation),
    ),
    row(
      'a follow, from its request',
      followed.map((l) => l.fromRequest),
    ),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------

console.log(`bench:trust ${[...parts].join(', ')}; load average ${load()}`);
await seedUsers(INBOX_USERS);
const riff = await startRiff(8971, { RATE_LIMIT_PER_MINUTE: '100000000' });
let inbox: Inbox | undefined;
let delivery = '';
try {
  if (parts.has('queue')) await benchQueue(riff);
  if (parts.has('inbox')) {
    inbox = await inboxUser(riff);
    await benchInbox(riff, inbox, 'small');
    await benchInbox(riff, inbox, 'large');
  }
  // with the 10M notifications in place, when the inbox ran: a batch is inserted into the large table
  if (parts.has('delivery')) delivery = await benchDelivery(riff);
  if (inbox) await benchInbox(riff, inbox, 'small');
} finally {
  await riff.stop();
  for (const table of tables) {
    console.log(`\n| ${table.title} | ${table.small} | ${table.large} | ratio | goal ≤ 2× |`);
    console.log('|---|---|---|---|---|');
    for (const [name, sized] of table.figures) {
      if (sized.small.length === 0 || sized.large.length === 0) continue;
      const [small, large] = [percentile(sized.small, 0.95), percentile(sized.large, 0.95)];
      const ratio = large / Math.max(small, 0.1);
      console.log(
        `| ${name} | ${small.toFixed(1)} ms | ${large.toFixed(1)} ms | ${ratio.toFixed(2)} | ${ratio <= 2 ? 'met' : 'not met'} |`,
      );
    }
  }
  if (delivery) console.log(delivery);
  console.log(`\nload average at the end ${load()}`);
  for (const plan of plans) console.log(`\n${plan}`);
  if (!keep) {
    const started = performance.now();
    if (inbox) await clearNotifications(inbox.user.id);
    // the accounts go too (their notifications, reports and follows with them): 1,000 creators would
    // otherwise be in every later announcement to the creators of this database
    await sql`delete from users where username like 'bench\\_trust\\_%'`.execute(db);
    console.log(`the bench's rows removed in ${elapsed(started)}`);
  }
  await opened.close();
}
