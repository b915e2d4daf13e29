/**
 * Groups at scale (issue 33): `DATABASE_URL=… npm run bench:groups` (`-- --quick` for a short run, `-- --plans` for every request's plans,
 * `-- --scale=0.1` for a large group of a tenth of the size, `-- --keep` to leave the seeded rows).
 * On PostgreSQL only (the goal is set there).
 *
 * Two public, open groups side by side in the same tables, seeded in SQL with the real migrations'
 * indexes and the counters the app keeps (member_count = its member rows, post_count = its top-level
 * posts, each post's reply_count = its replies):
 * - small: 1,000 members, 1,000 posts;
 * - large: 100,000 members, 1,000,000 posts (× scale).
 * A group's posts: 4 in 5 top-level, 1 in 5 a reply (1 in 10 replies to the group's hot post, the
 * others spread over the top-level posts), 3 pinned, 1 in 1,000 hidden by moderation. Members: the
 * owner, 5 admins, 20 moderators, the rest members, joined over a year.
 *
 * Requests (autocannon, 4 connections, after 1 s not counted): the members' pages 1 and 50,
 * ?role=member; the posts' pages 1 (anonymous, and a signed-in member who blocked 3 posting members)
 * and 40 (the small group's last full page); the hot post's replies. The small group is measured before and after the large one and its
 * latencies pooled (the machine's load moves). Prints p95 at each size, the ratio (goal ≤ 2×), and
 * the plans (EXPLAIN ANALYZE, the large group) of the repository's queries behind any row over 2×.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type RawBuilder } from 'kysely';
import { migrateToLatest, openDatabase } from '../server/src/platform/db/database.js';
import { latenciesOf, loadAverages, secondsSince, signInUser, startRiff, type Child } from './bench-support.js';
import { percentile } from './live-scenario.js';

const quick = process.argv.includes('--quick');
const keep = process.argv.includes('--keep');
/** Print the plans of every request's queries, not only of those over 2×. */
const allPlans = process.argv.includes('--plans');
const scale = Number(process.argv.find((arg) => arg.startsWith('--scale='))?.slice('--scale='.length) ?? 1);
if (!(scale > 0 && scale <= 1)) throw new Error('--scale is a fraction in (0, 1]');
const seconds = quick ? 3 : 10;
const connections = 4;
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('bench:groups runs on PostgreSQL: set DATABASE_URL');

const SIZES = {
  small: { members: 1_000, posts: 1_000 },
  large: {
    members: Math.round(100_000 * scale),
    posts: Math.round(1_000_000 * scale),
  },
} as const;
type Size = keyof typeof SIZES;
/** The users blocked by the signed-in reader (they post in both groups). */
const BLOCKED = [40, 41, 42];
const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1_000}k`);

const opened = await openDatabase({
  databaseUrl,
  dataDir: await mkdtemp(path.join(tmpdir(), 'riff-bench-groups-')),
});
const db = opened.db;
await migrateToLatest(db);

const load = loadAverages;
const elapsed = secondsSince;
/** Fixed ids, so that a later run (or one stopped half-way) finds the same rows. */
const benchUser = (n: RawBuilder<unknown> | number) => sql`md5('bench-groups-user-' || ${n})::uuid`;
const groupId = (size: Size) => sql`md5('bench-groups-group-' || ${size})::uuid`;
const postId = (size: Size, g: RawBuilder<unknown> | number) =>
  sql`md5('bench-groups-post-' || ${size} || '-' || ${g})::uuid`;

async function idOf(query: RawBuilder<unknown>): Promise<string> {
  const { rows } = await sql<{
    id: string;
  }>`select ${query}::text as id`.execute(db);
  return rows[0]!.id;
}

/** The bench's groups go (their members and posts with them, by the foreign keys' cascade). */
async function clearGroups() {
  await sql`delete from group_posts where group_id in (${groupId('small')}, ${groupId('large')})`.execute(db);
  await sql`delete from groups where slug like 'bench-groups-%'`.execute(db);
}

async function seed() {
  const started = performance.now();
  await clearGroups();
  await sql`
    insert into users (id, email, username, slug, is_verified, email_verified_at)
    select ${benchUser(
      sql`n`,
    )}, 'bench-groups-' || n || '@example.test', 'bench_groups_' || n, 'bench-groups-' || n, true, now()
    from generate_series(1, ${SIZES.large.members}::int) n
    on conflict do nothing`.execute(db);
  console.log(`${SIZES.large.members} bench accounts, ${elapsed(started)}; load average ${load()}`);
  for (const size of ['small', 'large'] as const) {
    const { members, posts } = SIZES[size];
    const group = groupId(size);
    await sql`
      insert into groups (id, slug, name, description, visibility, join_policy, owner_id, created_at)
      values (${group}, ${'bench-groups-' + size}, ${
        'Bench group ' + size
      }, 'Night drives and synths', 'public', 'open',
              ${benchUser(1)}, now() - interval '400 days')`.execute(db);
    await sql`
      insert into group_members (group_id, user_id, role, joined_at)
      select ${group}, ${benchUser(sql`n`)},
             case when n = 1 then 'owner' when n <= 6 then 'admin' when n <= 26 then 'moderator' else 'member' end,
             now() - ((${members}::int - n) * (365.0 * 86400 / ${members}::int) || ' seconds')::interval
      from generate_series(1, ${members}::int) n`.execute(db);
    // post g: a reply when g % 5 = 0 (its parent an earlier top-level post: the hot post 1 for 1 in
    // 10 replies, else one drawn from those before it), top-level otherwise; g orders them in time
    const parent = sql`case when g % 50 = 0 then 1 else greatest(1, ((g::bigint * 7919) % (g - 1))::int) end`;
    const topLevelParent = sql`case when ${parent} % 5 = 0 then ${parent} - 1 else ${parent} end`;
    await sql`
      insert into group_posts (id, group_id, author_id, parent_id, content, is_pinned, pinned_at, moderation_status,
                               moderated_at, created_at, updated_at)
      select ${postId(size, sql`g`)}, ${group}, ${benchUser(sql`1 + (g::bigint * 104729) % ${members}::int`)},
             case when g % 5 = 0 then ${postId(size, topLevelParent)} end,
             'Anyone going to the synth meet on Saturday? Post ' || g,
             g in (2, 3, 4), case when g in (2, 3, 4) then now() - (g || ' hours')::interval end,
             case when g % 1000 = 501 then 'hidden' else 'visible' end,
             case when g % 1000 = 501 then now() end,
             now() - ((${posts}::int - g) * (365.0 * 86400 / ${posts}::int) || ' seconds')::interval,
             now() - ((${posts}::int - g) * (365.0 * 86400 / ${posts}::int) || ' seconds')::interval
      from generate_series(1, ${posts}::int) g`.execute(db);
    await sql`
      update group_posts p set reply_count = r.n
      from (select parent_id, count(*)::int as n from group_posts where group_id = ${group} and parent_id is not null
            group by parent_id) r
      where p.id = r.parent_id`.execute(db);
    // what the app keeps: member_count with each membership row, post_count with each top-level post
    await sql`
      update groups set member_count = (select count(*) from group_members where group_id = ${group}),
                        post_count = (select count(*) from group_posts where group_id = ${group} and parent_id is null)
      where id = ${group}`.execute(db);
    console.log(`${size} group: ${members} members, ${posts} posts, ${elapsed(started)}; load average ${load()}`);
  }
  // as autovacuum leaves tables after a bulk load: statistics and the visibility map current
  for (const table of ['users', 'groups', 'group_members', 'group_posts']) {
    await sql`vacuum analyze ${sql.table(table)}`.execute(db);
  }
  await sql`checkpoint`.execute(db).catch(() => undefined);
  console.log(`seeded in ${elapsed(started)}; load average ${load()}`);
}

interface Sized {
  small: number[];
  large: number[];
}
const figures = new Map<string, Sized>();
const sizedOf = (name: string) => {
  if (!figures.has(name)) figures.set(name, { small: [], large: [] });
  return figures.get(name)!;
};

const REQUESTS: {
  name: string;
  path: (group: string, hot: string) => string;
  signedIn?: boolean;
}[] = [
  { name: 'members, page 1', path: (g) => `/groups/${g}/members` },
  {
    name: 'members, role=member',
    path: (g) => `/groups/${g}/members?role=member`,
  },
  {
    name: 'members, page 50',
    path: (g) => `/groups/${g}/members?page=50&limit=20`,
  },
  { name: 'posts, page 1 (anonymous)', path: (g) => `/groups/${g}/posts` },
  {
    name: 'posts, page 1 (a member with 3 blocks)',
    path: (g) => `/groups/${g}/posts`,
    signedIn: true,
  },
  // page 40: the small group's last full page (800 top-level posts)
  {
    name: 'posts, page 40',
    path: (g) => `/groups/${g}/posts?page=40&limit=20`,
  },
  {
    name: "the hot post's replies, page 1",
    path: (g, hot) => `/groups/${g}/posts/${hot}/replies`,
  },
];

async function measureSize(riff: Child, size: Size, token: string) {
  const group = await idOf(groupId(size));
  const hot = await idOf(postId(size, 1));
  for (const request of REQUESTS) {
    const { latencies, rps } = await latenciesOf(`${riff.baseUrl}/api/v1${request.path(group, hot)}`, {
      connections,
      seconds,
      ...(request.signedIn ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });
    sizedOf(request.name)[size].push(...latencies);
    console.log(
      `${size} (${label(SIZES[size].members)} members): ${
        request.name
      }: p95 ${percentile(latencies, 0.95).toFixed(1)} ms, ${rps.toFixed(0)} req/s; load average ${load()}`,
    );
  }
}

/** The plans, in the large group, of the queries the repositories run for a request. */
async function explainFor(name: string, readerId: string): Promise<string[]> {
  const group = groupId('large');
  const hot = postId('large', 1);
  const active = sql`exists (select 1 from users active_user where active_user.id = m.user_id
    and active_user.deleted_at is null and active_user.is_active and not active_user.is_banned and active_user.is_verified)`;
  const membersOrder = sql`order by case m.role when 'owner' then 0 when 'admin' then 1 when 'moderator' then 2 else 3 end, m.joined_at, m.user_id`;
  // postsUnseenSql: anonymous sees visible posts only; the reader neither their blocked users' posts
  const anonymous = sql`(not group_posts.moderation_status = 'visible')`;
  const blocked = sql`(group_posts.author_id in (${sql.join(
    BLOCKED.map((n) => benchUser(n)),
  )}) or not (group_posts.moderation_status = 'visible' or group_posts.author_id = ${readerId}::uuid))`;
  const postsPage = (unseen: RawBuilder<unknown>, offset: number) => sql`
    select p.* from group_posts p where p.id in (
      select group_posts.id from group_posts where group_posts.group_id = ${group} and group_posts.parent_id is null and not ${unseen}
      order by group_posts.is_pinned desc, group_posts.pinned_at desc, group_posts.created_at desc, group_posts.id desc
      limit 20 offset ${offset})
    order by p.is_pinned desc, p.pinned_at desc, p.created_at desc, p.id desc`;
  const postsCount = (unseen: RawBuilder<unknown>) =>
    sql`select count(*) from group_posts where group_id = ${group} and parent_id is null and ${unseen}`;
  const queries: [string, RawBuilder<unknown>][] = name.startsWith('members')
    ? [
        [
          'members: the page with count(*) over ()',
          sql`select m.*, count(*) over () as total_count from group_members m where m.group_id = ${group} and ${active}
              ${name.includes('role') ? sql`and m.role = 'member'` : sql``} ${membersOrder}
              limit 20 offset ${name.includes('50') ? 980 : 0}`,
        ],
      ]
    : name.startsWith('posts')
      ? [
          ['posts: the page', postsPage(name.includes('blocks') ? blocked : anonymous, name.includes('40') ? 780 : 0)],
          ['posts: the unseen count (topLevelCount)', postsCount(name.includes('blocks') ? blocked : anonymous)],
        ]
      : [
          [
            'replies: the page',
            sql`select p.* from group_posts p where p.id in (
              select group_posts.id from group_posts where group_posts.parent_id = ${hot} and not ${anonymous}
              order by group_posts.created_at, group_posts.id limit 20)
            order by p.created_at, p.id`,
          ],
          [
            'replies: the unseen count (replyCount)',
            sql`select count(*) from group_posts where parent_id = ${hot} and ${anonymous}`,
          ],
        ];
  const plans: string[] = [];
  for (const [title, query] of queries) {
    const { rows } = await sql<{
      'QUERY PLAN': string;
    }>`explain (analyze, buffers) ${query}`.execute(db);
    plans.push(`-- ${name}: ${title}\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`);
  }
  return plans;
}

console.log(
  `bench:groups${quick ? ' --quick' : ''}, scale ${scale}: small ${label(
    SIZES.small.members,
  )} members / ${label(SIZES.small.posts)} posts, large ${label(
    SIZES.large.members,
  )} / ${label(SIZES.large.posts)}; load average ${load()}`,
);
await seed();
const riff = await startRiff(8973, { RATE_LIMIT_PER_MINUTE: '100000000' });
let readerId = '';
const plans: string[] = [];
try {
  // the signed-in reader: a real account that joins both groups through the API and blocks 3 posting members
  const reader = await signInUser(riff);
  readerId = reader.id;
  for (const size of ['small', 'large'] as const) {
    const joined = await fetch(`${riff.baseUrl}/api/v1/groups/${await idOf(groupId(size))}/join`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reader.accessToken}` },
    });
    if (!joined.ok) throw new Error(`join: ${joined.status} ${await joined.text()}`);
  }
  await sql`
    insert into blocks (blocker_id, blocked_id)
    select ${reader.id}::uuid, u from unnest(array[${sql.join(BLOCKED.map((n) => benchUser(n)))}]) u
    on conflict do nothing`.execute(db);
  for (const size of ['small', 'large', 'small'] as const) await measureSize(riff, size, reader.accessToken);
} finally {
  await riff.stop();
  const large = SIZES.large;
  console.log(
    `\n| GET /groups/{id}/… (PostgreSQL${quick ? ', --quick' : ''}) | p95 at 1k members / 1k posts | p95 at ${label(
      large.members,
    )} / ${label(large.posts)} | ratio | goal ≤ 2× |`,
  );
  console.log('|---|---|---|---|---|');
  for (const [name, sized] of figures) {
    if (sized.small.length === 0 || sized.large.length === 0) continue;
    const [small, big] = [percentile(sized.small, 0.95), percentile(sized.large, 0.95)];
    const ratio = big / Math.max(small, 0.1);
    console.log(
      `| ${name} | ${small.toFixed(1)} ms | ${big.toFixed(
        1,
      )} ms | ${ratio.toFixed(2)} | ${ratio <= 2 ? 'met' : 'not met'} |`,
    );
    if ((ratio > 2 || allPlans) && readerId) plans.push(...(await explainFor(name, readerId)));
  }
  console.log(`\nload average at the end ${load()}`);
  for (const plan of plans) console.log(`\n${plan}`);
  if (!keep) {
    const started = performance.now();
    await clearGroups();
    await sql`delete from users where username like 'bench\\_groups\\_%'`.execute(db);
    console.log(`the bench's rows removed in ${elapsed(started)}`);
  }
  await opened.close();
}
