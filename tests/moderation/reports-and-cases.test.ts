import { REPORTS_PER_DAY } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { createModerator as newModerator, moderationNotices as noticesOf } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';

// Reports and the moderation queue over HTTP: what a reporter may report and learns, how staff see
// a case (reports grouped by target, the target frozen at the first report), and what resolving,
// dismissing and acting on content do, within the staff's limits.
const suite = useTestServer();

const createModerator = () => newModerator(suite.server);

const post = (path: string, caller: TestUser | undefined, body?: unknown) =>
  suite.http.post(path, { ...(caller ? { token: caller.accessToken } : {}), ...(body ? { body } : {}) });
const get = (path: string, caller?: TestUser) => suite.http.get(path, caller ? { token: caller.accessToken } : {});
const refusal = (reply: { status: number; body: { error?: { code?: string } } }) => [
  reply.status,
  reply.body?.error?.code,
];
const report = (reporter: TestUser, targetType: string, targetId: string, reason = 'spam', details?: string) =>
  post('/reports', reporter, { target_type: targetType, target_id: targetId, reason, ...(details ? { details } : {}) });

const moderationNotices = (user: TestUser, count: number) => noticesOf(suite.server, user.accessToken, count);

describe('reports', () => {
  it('reports what the reporter sees, never themselves or their own, once while open, and lists them with their outcome', async () => {
    const [owner, reporter] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const track = await createTrack(suite.server, owner, { title: 'Loud Noise' });
    const hidden = await createTrack(suite.server, owner, { title: 'Secret', isPublic: false });

    const first = await report(reporter, 'track', track.id, 'spam', 'Posted ten times a day');
    expect(first.status).toBe(201);
    expect(first.body.data.report).toMatchObject({
      target_type: 'track',
      target_id: track.id,
      reason: 'spam',
      details: 'Posted ten times a day',
      status: 'open',
      outcome: null,
      resolved_at: null,
    });
    // a second open report of the same target: 409 naming the first
    const again = await report(reporter, 'track', track.id, 'hate');
    expect(refusal(again)).toEqual([409, 'CONFLICT']);
    expect(again.body.error.details).toEqual([
      expect.objectContaining({ field: 'report_id', value: first.body.data.report.id }),
    ]);
    // what the reporter cannot see does not exist for them
    expect(refusal(await report(reporter, 'track', hidden.id))).toEqual([404, 'NOT_FOUND']);
    expect(refusal(await report(reporter, 'playlist', '7b1f9f3e-2a4c-4d8e-9f10-1a2b3c4d5e6f'))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    // not oneself, not one's own
    expect(refusal(await report(reporter, 'user', reporter.id))).toEqual([400, 'BAD_REQUEST']);
    expect(refusal(await report(owner, 'track', track.id))).toEqual([400, 'BAD_REQUEST']);
    // a bad reason or target type is a validation failure, an anonymous caller 401
    expect(refusal(await report(reporter, 'track', track.id, 'boring'))[0]).toBe(400);
    expect(
      (await post('/reports', undefined, { target_type: 'track', target_id: track.id, reason: 'spam' })).status,
    ).toBe(401);

    const mine = await get('/reports/mine', reporter);
    expect(mine.status).toBe(200);
    expect(mine.body.data.reports.map((r: { id: string }) => r.id)).toEqual([first.body.data.report.id]);
    expect(mine.body.data.pagination.total).toBe(1);
    expect(JSON.stringify(mine.body.data)).not.toContain(owner.id);
  });

  it(`refuses a reporter's report beyond ${REPORTS_PER_DAY} in 24 hours with 429`, async () => {
    const [owner, reporter] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const users = await Promise.all(Array.from({ length: REPORTS_PER_DAY + 1 }, () => createUser(suite.server)));
    for (const target of users.slice(0, REPORTS_PER_DAY)) {
      expect((await report(reporter, 'user', target.id, 'spam')).status).toBe(201);
    }
    const over = await report(reporter, 'user', users[REPORTS_PER_DAY]!.id, 'spam');
    expect(refusal(over)).toEqual([429, 'RATE_LIMITED']);
    // the next is allowed once the first of the day is 24 hours old
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(86_000);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(86_400);
    // someone else still may
    expect((await report(owner, 'user', users[0]!.id)).status).toBe(201);
  });
});

describe('the moderation queue', () => {
  it('groups reports by target, freezes the target at the first report, and resolving hides it and tells everyone', async () => {
    const [owner, alice, bob, other] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const moderator = await createModerator();
    const admin = await createAdmin(suite.server);
    const track = await createTrack(suite.server, owner, { title: 'Original Title' });
    expect((await report(alice, 'track', track.id, 'hate')).status).toBe(201);
    // the owner renames it after the first report: staff judge what was reported
    expect(
      (await suite.http.put(`/tracks/${track.id}`, { token: owner.accessToken, body: { title: 'Innocent' } })).status,
    ).toBe(200);
    expect((await report(bob, 'track', track.id, 'harassment')).status).toBe(201);
    expect((await report(bob, 'user', other.id, 'spam')).status).toBe(201);

    // users get 403, the anonymous 401
    expect(refusal(await get('/moderation/reports', alice))).toEqual([403, 'FORBIDDEN']);
    expect((await get('/moderation/reports')).status).toBe(401);

    const queue = await get('/moderation/reports?target_type=track', moderator);
    expect(queue.status).toBe(200);
    const found = queue.body.data.cases.find((c: { target_id: string }) => c.target_id === track.id);
    expect(found).toMatchObject({
      target_type: 'track',
      report_count: 2,
      reasons: { hate: 1, harassment: 1 },
      status: 'open',
      assigned_to: null,
      owner: expect.objectContaining({ id: owner.id }),
    });
    expect(found.target_snapshot.title).toBe('Original Title');
    expect(queue.body.data.cases.some((c: { target_type: string }) => c.target_type === 'user')).toBe(false);
    // a reason filter keeps the cases with a report for it
    const byReason = await get('/moderation/reports?reason=harassment&target_type=track', moderator);
    expect(byReason.body.data.cases.map((c: { target_id: string }) => c.target_id)).toContain(track.id);
    const none = await get('/moderation/reports?reason=illegal&target_type=track', moderator);
    expect(none.body.data.cases.map((c: { target_id: string }) => c.target_id)).not.toContain(track.id);

    // take it: it shows under assigned=me for the taker only
    const assigned = await post(`/moderation/cases/track/${track.id}/assign`, moderator);
    expect(assigned.status).toBe(200);
    expect(assigned.body.data.case.assigned_to).toBe(moderator.id);
    const mine = await get('/moderation/reports?assigned=me', moderator);
    expect(mine.body.data.cases.map((c: { target_id: string }) => c.target_id)).toEqual([track.id]);
    const unassigned = await get('/moderation/reports?assigned=none&target_type=track', moderator);
    expect(unassigned.body.data.cases.map((c: { target_id: string }) => c.target_id)).not.toContain(track.id);

    const resolved = await post(`/moderation/cases/track/${track.id}/resolve`, moderator, {
      action: 'hide',
      note: 'Hate speech in the title',
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data.case).toMatchObject({
      status: 'resolved',
      current: { moderation_status: 'hidden', moderation_reason: 'Hate speech in the title' },
    });
    expect(resolved.body.data.case.reports.map((r: { outcome: string }) => r.outcome)).toEqual([
      'action_taken',
      'action_taken',
    ]);
    expect(resolved.body.data.case.history.map((h: { action: string }) => h.action)).toEqual([
      'assigned',
      'resolved:hide',
    ]);
    // the track is gone for everyone but its owner and staff
    expect((await get(`/tracks/${track.id}`, alice)).status).toBe(404);
    expect((await get(`/tracks/${track.id}`)).status).toBe(404);
    const ownView = await get(`/tracks/${track.id}`, owner);
    expect(ownView.status).toBe(200);
    expect(ownView.body.data.track).toMatchObject({ moderation_status: 'hidden' });
    expect((await get(`/tracks/${track.id}`, moderator)).status).toBe(200);

    // reporters learn the outcome, never who decided; the owner learns what happened and why
    const [aliceNotes, ownerNotes] = await Promise.all([moderationNotices(alice, 1), moderationNotices(owner, 1)]);
    expect(aliceNotes[0]!.message).toContain('action was taken');
    expect(aliceNotes[0]!.actor).toBeNull();
    expect(ownerNotes[0]!.message).toContain('hidden by the moderators: Hate speech in the title');
    expect(JSON.stringify(ownerNotes)).not.toContain(moderator.username);
    const aliceReports = await get('/reports/mine', alice);
    expect(aliceReports.body.data.reports[0]).toMatchObject({ status: 'resolved', outcome: 'action_taken' });

    // the staff log has it, for admins only
    expect(refusal(await get('/admin/audit', moderator))).toEqual([403, 'FORBIDDEN']);
    const audit = await get(`/admin/audit?target_id=${track.id}`, admin);
    expect(audit.status).toBe(200);
    expect(audit.body.data.entries.map((e: { action: string }) => e.action).sort()).toEqual([
      'case.hide',
      'case.resolve',
    ]);
    const hide = audit.body.data.entries.find((e: { action: string }) => e.action === 'case.hide');
    expect(hide).toMatchObject({
      actor_id: moderator.id,
      before: { moderation_status: 'visible' },
      after: { moderation_status: 'hidden' },
    });

    // a closed case is not reopened by a resolve; the next report opens a new one
    expect(refusal(await post(`/moderation/cases/track/${track.id}/dismiss`, moderator, { note: 'x' }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
  });

  it('dismissing ends every open report as no violation; the target stays as it was', async () => {
    const [owner, reporter] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const moderator = await createModerator();
    const track = await createTrack(suite.server, owner);
    await report(reporter, 'track', track.id, 'other', 'I do not like it');
    const dismissed = await post(`/moderation/cases/track/${track.id}/dismiss`, moderator, {
      note: 'Taste is not abuse',
    });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.data.case.status).toBe('dismissed');
    expect(dismissed.body.data.case.current).toEqual({ moderation_status: 'visible', moderation_reason: null });
    expect((await get(`/tracks/${track.id}`, reporter)).status).toBe(200);
    const notes = await moderationNotices(reporter, 1);
    expect(notes[0]!.message).toContain('no violation was found');
    // the reporter may report it again: a new case
    expect((await report(reporter, 'track', track.id, 'spam')).status).toBe(201);
    const reopened = await get(`/moderation/cases/track/${track.id}`, moderator);
    expect(reopened.body.data.case).toMatchObject({ status: 'open', report_count: 1 });
  });

  it('resolves with a sanction of the owner, within the staff limits', async () => {
    const [owner, reporter] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const moderator = await createModerator();
    const admin = await createAdmin(suite.server);
    const track = await createTrack(suite.server, owner);
    await report(reporter, 'track', track.id, 'spam');
    const base = `/moderation/cases/track/${track.id}/resolve`;
    // a suspension needs its length, which only a suspension takes
    expect(refusal(await post(base, moderator, { action: 'suspend', note: 'spam' }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect(refusal(await post(base, moderator, { action: 'warn', note: 'spam', duration_days: 3 }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect(refusal(await post(base, moderator, { action: 'warn', note: '' }))[0]).toBe(400);
    // a moderator neither bans nor suspends beyond 30 days
    expect(refusal(await post(base, moderator, { action: 'ban', note: 'spam' }))).toEqual([403, 'FORBIDDEN']);
    expect(refusal(await post(base, moderator, { action: 'suspend', note: 'spam', duration_days: 31 }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    const suspended = await post(base, moderator, { action: 'suspend', note: 'Spam again', duration_days: 7 });
    expect(suspended.status).toBe(200);
    expect(suspended.body.data.case.status).toBe('resolved');
    const login = await suite.http.post('/auth/login', { body: { email: owner.email, password: owner.password } });
    expect(refusal(login)).toEqual([401, 'ACCOUNT_SUSPENDED']);
    const detail = await get(`/admin/users/${owner.id}`, admin);
    expect(detail.body.data.user.sanctions).toEqual([
      expect.objectContaining({ kind: 'suspend', reason: 'Spam again' }),
    ]);
  });

  it('staff never act on their own content or account, and a moderator never on an admin', async () => {
    const [reporter] = await Promise.all([createUser(suite.server)]);
    const moderator = await createModerator();
    const admin = await createAdmin(suite.server);
    const ownTrack = await createTrack(suite.server, moderator);
    const adminTrack = await createTrack(suite.server, admin);
    await report(reporter, 'track', ownTrack.id, 'spam');
    await report(reporter, 'track', adminTrack.id, 'spam');
    await report(reporter, 'user', moderator.id, 'harassment');

    for (const path of [
      `/moderation/cases/track/${ownTrack.id}/resolve`,
      `/moderation/cases/user/${moderator.id}/resolve`,
      `/moderation/cases/track/${adminTrack.id}/resolve`,
    ]) {
      expect(refusal(await post(path, moderator, { action: 'none', note: 'fine' }))).toEqual([403, 'FORBIDDEN']);
    }
    expect(refusal(await post(`/moderation/cases/track/${ownTrack.id}/dismiss`, moderator, { note: 'fine' }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    // nor read or take the cases about themselves: they name who reported them
    for (const path of [`/moderation/cases/track/${ownTrack.id}`, `/moderation/cases/user/${moderator.id}`]) {
      expect(refusal(await get(path, moderator))).toEqual([403, 'FORBIDDEN']);
      expect(refusal(await post(`${path}/assign`, moderator, {}))).toEqual([403, 'FORBIDDEN']);
      expect((await get(path, admin)).status).toBe(200);
    }
    const queue = await get('/moderation/reports?limit=100', moderator);
    expect(queue.status).toBe(200);
    const targets = (queue.body.data.cases as { target_id: string }[]).map((entry) => entry.target_id);
    expect(targets).not.toContain(ownTrack.id);
    expect(targets).not.toContain(moderator.id);
    expect(targets).toContain(adminTrack.id);
    // the page's total leaves them out too (on the file's own database: other files file cases on a shared one)
    if (suite.server.riff.database.kind === 'pglite') {
      const first = await get('/moderation/reports?limit=1&target_type=track', moderator);
      const everything = await get('/moderation/reports?limit=100&target_type=track', moderator);
      expect(first.body.data.pagination.total).toBe(everything.body.data.cases.length);
    }
    expect(refusal(await post(`/moderation/content/track/${adminTrack.id}/hide`, moderator, { note: 'x' }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(refusal(await post(`/moderation/content/track/${ownTrack.id}/remove`, moderator, { note: 'x' }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    // a user cannot be hidden: the case is resolved with a sanction instead
    expect(
      refusal(await post(`/moderation/cases/user/${moderator.id}/resolve`, admin, { action: 'hide', note: 'x' })),
    ).toEqual([400, 'BAD_REQUEST']);
    // an admin may act on a moderator's content; the moderator's track is hidden
    expect((await post(`/moderation/content/track/${ownTrack.id}/hide`, admin, { note: 'Off topic' })).status).toBe(
      200,
    );
    expect((await get(`/tracks/${ownTrack.id}`, reporter)).status).toBe(404);
  });
});

describe('content actions', () => {
  it('hide, restore and remove without a report; removed content cannot be edited or published again', async () => {
    const [owner, listener] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const moderator = await createModerator();
    const track = await createTrack(suite.server, owner, { title: 'Borderline' });
    const path = (verb: string) => `/moderation/content/track/${track.id}/${verb}`;
    expect(refusal(await post(path('hide'), listener, { note: 'x' }))).toEqual([403, 'FORBIDDEN']);
    expect(refusal(await post(`/moderation/content/track/not-an-id/hide`, moderator, { note: 'x' }))).toEqual([
      400,
      'INVALID_ID',
    ]);
    expect(refusal(await post(`/moderation/content/user/${owner.id}/hide`, moderator, { note: 'x' }))).toEqual([
      400,
      'INVALID_ID',
    ]);
    expect(refusal(await post(`/moderation/content/track/${owner.id}/hide`, moderator, { note: 'x' }))).toEqual([
      404,
      'NOT_FOUND',
    ]);

    const hidden = await post(path('hide'), moderator, { note: 'Needs a look' });
    expect(hidden.body.data.content).toEqual({
      target_type: 'track',
      target_id: track.id,
      moderation_status: 'hidden',
      moderation_reason: 'Needs a look',
    });
    expect((await get(`/tracks/${track.id}`, listener)).status).toBe(404);
    // a hidden track may still be edited by its owner
    expect(
      (await suite.http.put(`/tracks/${track.id}`, { token: owner.accessToken, body: { title: 'Fixed' } })).status,
    ).toBe(200);

    const restored = await post(path('restore'), moderator, { note: 'Fine after the edit' });
    expect(restored.body.data.content).toMatchObject({ moderation_status: 'visible', moderation_reason: null });
    const seen = await get(`/tracks/${track.id}`, listener);
    expect(seen.status).toBe(200);
    expect(seen.body.data.track.moderation_status).toBeUndefined();

    expect((await post(path('remove'), moderator, { note: 'Stolen music' })).status).toBe(200);
    expect((await get(`/tracks/${track.id}`, listener)).status).toBe(404);
    const edit = await suite.http.put(`/tracks/${track.id}`, { token: owner.accessToken, body: { is_public: true } });
    expect(refusal(edit)).toEqual([403, 'FORBIDDEN']);
    const own = await get(`/tracks/${track.id}`, owner);
    expect(own.body.data.track).toMatchObject({ moderation_status: 'removed', moderation_reason: 'Stolen music' });
    const notes = await moderationNotices(owner, 3);
    expect(notes.map((n) => n.message).join('\n')).toContain('removed by the moderators: Stolen music');
  });
});
