/**
 * The moderation queue's total without a count over the queue (issue 30, migration 0028): a filter
 * of status, target type and assigned=none is counted from deltas the cases' triggers append,
 * folded by a periodic job; assigned=me from the moderator's cases, a reason from its reports. What staff see:
 * the pagination's total is the exact number of cases the filter holds, whatever changed them
 * (a report opening a case, another report of it, taking it, resolving, dismissing, a new case of
 * a target whose last one closed, writers at the same time).
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { runJob } from '../support/jobs.js';
import { createModerator } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();
const db = () => suite.server.riff.database.db;
// on PostgreSQL other test files file reports at the same time; this file's own database (PGlite) is still
const ownDatabase = () => suite.server.riff.database.kind === 'pglite';

/**
 * The (status, target_type, assigned) keys whose summed deltas differ from the cases there are, in
 * one statement: one snapshot, so writers elsewhere cannot make it disagree.
 */
async function disagreements() {
  const { rows } = await sql<{
    status: string;
    target_type: string;
    assigned: boolean;
    counted: number;
    summed: number;
  }>`
    select coalesce(c.status, d.status) as status, coalesce(c.target_type, d.target_type) as target_type,
           coalesce(c.assigned, d.assigned) as assigned,
           coalesce(c.counted, 0)::int as counted, coalesce(d.summed, 0)::int as summed
    from (select status, target_type, assigned_to is not null as assigned, count(*) as counted
          from moderation_cases group by 1, 2, 3) c
    full join (select status, target_type, assigned, sum(delta) as summed
               from moderation_case_count_deltas group by 1, 2, 3) d
      on c.status = d.status and c.target_type = d.target_type and c.assigned = d.assigned
    where coalesce(c.counted, 0) <> coalesce(d.summed, 0)`.execute(db());
  return rows;
}

const FILTERS = [
  '',
  '?target_type=track',
  '?assigned=none',
  '?assigned=none&target_type=user',
  '?status=resolved',
  '?status=dismissed&target_type=track',
  '?assigned=me',
  '?reason=hate',
  '?reason=spam&target_type=track',
  '?reason=harassment&assigned=none',
] as const;

/** The total the queue answers for each filter: with a page of 1 (the total counted) and of 100 (told by a last page). */
async function totals(moderator: TestUser) {
  const found: Record<string, number> = {};
  for (const filter of FILTERS) {
    for (const limit of [1, 100]) {
      const query = `${filter}${filter ? '&' : '?'}limit=${limit}`;
      const reply = await suite.http.get(`/moderation/reports${query}`, { token: moderator.accessToken });
      expect(reply.status).toBe(200);
      const { total, total_pages } = reply.body.data.pagination;
      expect(total_pages).toBe(Math.ceil(total / limit));
      if (limit === 100 && total <= 100) expect(reply.body.data.cases).toHaveLength(total);
      if (limit === 1) found[filter] = total;
      else expect(total).toBe(found[filter]);
    }
  }
  return found;
}

/** The same filters counted over the cases themselves. */
async function counted(moderatorId: string) {
  const count = async (where: ReturnType<typeof sql>) =>
    Number(
      (await sql<{ n: number }>`select count(*)::int as n from moderation_cases c where ${where}`.execute(db()))
        .rows[0]!.n,
    );
  return {
    '': await count(sql`status = 'open'`),
    '?target_type=track': await count(sql`status = 'open' and target_type = 'track'`),
    '?assigned=none': await count(sql`status = 'open' and assigned_to is null`),
    '?assigned=none&target_type=user': await count(
      sql`status = 'open' and assigned_to is null and target_type = 'user'`,
    ),
    '?status=resolved': await count(sql`status = 'resolved'`),
    '?status=dismissed&target_type=track': await count(sql`status = 'dismissed' and target_type = 'track'`),
    '?assigned=me': await count(sql`status = 'open' and assigned_to = ${moderatorId}`),
    '?reason=hate': await count(
      sql`status = 'open' and exists (select 1 from reports r where r.case_id = c.id and r.reason = 'hate')`,
    ),
    '?reason=spam&target_type=track': await count(
      sql`status = 'open' and target_type = 'track' and exists (select 1 from reports r where r.case_id = c.id and r.reason = 'spam')`,
    ),
    '?reason=harassment&assigned=none': await count(
      sql`status = 'open' and assigned_to is null and exists (select 1 from reports r where r.case_id = c.id and r.reason = 'harassment')`,
    ),
  };
}

const report = (reporter: TestUser, targetType: string, targetId: string, reason = 'spam') =>
  suite.http.post('/reports', {
    token: reporter.accessToken,
    body: { target_type: targetType, target_id: targetId, reason },
  });

describe('the moderation queue total', () => {
  it('stays exact through reports, a second report, taking, resolving, dismissing and a reopened target', async () => {
    const [owner, alice, bob] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const moderator = await createModerator(suite.server);
    const [loud, quiet] = await Promise.all([
      createTrack(suite.server, owner, { title: 'Loud' }),
      createTrack(suite.server, owner, { title: 'Quiet' }),
    ]);
    const check = async () => {
      const answered = await totals(moderator);
      if (ownDatabase()) expect(answered).toEqual(await counted(moderator.id));
      expect(await disagreements()).toEqual([]);
      return answered;
    };
    const before = await check();

    expect((await report(alice, 'track', loud.id, 'hate')).status).toBe(201);
    expect((await report(bob, 'track', loud.id, 'spam')).status).toBe(201);
    expect((await report(alice, 'track', quiet.id)).status).toBe(201);
    expect((await report(alice, 'user', owner.id, 'harassment')).status).toBe(201);
    const filed = await check();
    if (ownDatabase()) {
      expect(filed['']).toBe(before['']! + 3);
      expect(filed['?target_type=track']).toBe(before['?target_type=track']! + 2);
      expect(filed['?reason=hate']).toBe(before['?reason=hate']! + 1);
    }

    const post = (path: string, body?: unknown) =>
      suite.http.post(path, { token: moderator.accessToken, ...(body ? { body } : {}) });
    expect((await post(`/moderation/cases/track/${loud.id}/assign`)).status).toBe(200);
    expect((await post(`/moderation/cases/user/${owner.id}/assign`)).status).toBe(200);
    const taken = await check();
    expect(taken['?assigned=me']).toBe(2);
    if (ownDatabase()) expect(taken['?assigned=none']).toBe(filed['?assigned=none']! - 2);

    expect((await post(`/moderation/cases/track/${loud.id}/resolve`, { action: 'none', note: 'Fine' })).status).toBe(
      200,
    );
    expect((await post(`/moderation/cases/track/${quiet.id}/dismiss`, { note: 'Not a violation' })).status).toBe(200);
    const closed = await check();
    expect(closed['?assigned=me']).toBe(1);
    if (ownDatabase()) {
      expect(closed['']).toBe(before['']! + 1);
      expect(closed['?status=resolved']).toBe(before['?status=resolved']! + 1);
      expect(closed['?status=dismissed&target_type=track']).toBe(before['?status=dismissed&target_type=track']! + 1);
    }

    // a target whose case closed opens a new one with its next report
    expect((await report(bob, 'track', quiet.id, 'hate')).status).toBe(201);
    const reopened = await check();
    if (ownDatabase()) expect(reopened['?target_type=track']).toBe(before['?target_type=track']! + 1);
  });

  it('stays exact under concurrent reporters, and the fold leaves one row per key with the same sums', async () => {
    const moderator = await createModerator(suite.server);
    const owners = await Promise.all(Array.from({ length: 3 }, () => createUser(suite.server)));
    const reporters = await Promise.all(Array.from({ length: 4 }, () => createUser(suite.server)));
    const tracks = await Promise.all(owners.map((owner) => createTrack(suite.server, owner)));
    // every reporter reports every track and every owner at once: one case per target, whoever comes first
    const replies = await Promise.all(
      reporters.flatMap((reporter) => [
        ...tracks.map((track) => report(reporter, 'track', track.id)),
        ...owners.map((owner) => report(reporter, 'user', owner.id, 'harassment')),
      ]),
    );
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 201));
    const cases = await sql<{ report_count: number }>`
      select report_count from moderation_cases where status = 'open' and target_id in (${sql.join([
        ...tracks.map((track) => track.id),
        ...owners.map((owner) => owner.id),
      ])})`.execute(db());
    expect(cases.rows.map((row) => row.report_count)).toEqual(cases.rows.map(() => reporters.length));
    expect(cases.rows).toHaveLength(tracks.length + owners.length);
    expect(await disagreements()).toEqual([]);

    const totalsBefore = ownDatabase() ? await totals(moderator) : {};
    await runJob(suite.server, 'moderation.fold-case-counts');
    expect(await disagreements()).toEqual([]);
    if (ownDatabase()) {
      const { rows } = await sql<{ rows: number }>`
        select count(*)::int as rows from moderation_case_count_deltas group by status, target_type, assigned
        having count(*) > 1`.execute(db());
      expect(rows).toEqual([]);
      expect(await totals(moderator)).toEqual(totalsBefore);
    }
  });
});
