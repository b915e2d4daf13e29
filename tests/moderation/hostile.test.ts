import { COPYRIGHT_CLAIMS_PER_DAY, REPORTS_PER_DAY } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { lapseCounterWindow, lapseSuspension } from '../support/backdate.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import type { HttpReply } from '../support/http.js';
import { runJob } from '../support/jobs.js';
import { readOutbox, tokenFromMail, waitForMail } from '../support/mail.js';
import { createModerator as newModerator } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';
import { chatToken, closeOf, connectLive, liveUrl } from '../queue/live-client.js';

// Trust and safety with an attacker's eye, over HTTP: staff who try to act on themselves or on an
// admin by every path, sanctioned accounts that try their old credentials, floods, other users'
// ids, appeal links replayed or stale, odd inputs, and two staff members doing one thing at once.
const suite = useTestServer({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
const db = () => suite.server.riff.database.db;
const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

const createModerator = () => newModerator(suite.server);

const post = (path: string, caller: TestUser | undefined, body?: unknown) =>
  suite.http.post(path, { ...(caller ? { token: caller.accessToken } : {}), ...(body !== undefined ? { body } : {}) });
const get = (path: string, caller?: TestUser | string) =>
  suite.http.get(path, caller ? { token: typeof caller === 'string' ? caller : caller.accessToken } : {});
const refusal = (reply: HttpReply) => [reply.status, reply.body?.error?.code];
const report = (reporter: TestUser, targetType: string, targetId: string, reason = 'spam') =>
  post('/reports', reporter, { target_type: targetType, target_id: targetId, reason });
const appeal = (caller: TestUser, subjectType: string, subjectId: string, message = 'Please look again') =>
  post('/appeals', caller, { subject_type: subjectType, subject_id: subjectId, message });
const decideAppeal = (caller: TestUser, id: string, outcome: 'granted' | 'denied', note = 'Reviewed') =>
  post(`/moderation/appeals/${id}/decide`, caller, { outcome, note });
const decideClaim = (caller: TestUser, id: string, outcome: 'upheld' | 'rejected', note = 'Reviewed') =>
  post(`/moderation/copyright/${id}/decide`, caller, { outcome, note });
const login = (user: TestUser) =>
  suite.http.post('/auth/login', { body: { email: user.email, password: user.password } });

const claimBody = (trackId: string) => ({
  track_id: trackId,
  claimant_name: 'Harbour Records',
  claimant_email: 'rights@label.example',
  work_description: 'Our master recording, copied in full.',
  statement_good_faith: true,
  statement_accuracy: true,
  signature: 'Ana Lima',
});
async function claim(claimant: TestUser, trackId: string): Promise<string> {
  const reply = await post('/copyright/claims', claimant, claimBody(trackId));
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data.claim.id;
}

const moderationStatus = async (trackId: string) =>
  await db()
    .selectFrom('tracks')
    .select(['moderation_status', 'moderation_reason'])
    .where('id', '=', trackId)
    .executeTakeFirstOrThrow();
const sanctionsOf = (userId: string) =>
  db().selectFrom('sanctions').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
const staffLogOf = (targetId: string) =>
  db().selectFrom('staff_log').selectAll().where('target_id', '=', targetId).orderBy('created_at').execute();

describe('staff never act on themselves, and a moderator never on an admin, by any path', () => {
  it('resolving a case with a sanction: not on an admin, not on oneself; nothing is sanctioned or closed', async () => {
    const reporter = await createUser(suite.server);
    const moderator = await createModerator();
    const [admin, otherAdmin] = await Promise.all([createAdmin(suite.server), createAdmin(suite.server)]);
    const adminTrack = await createTrack(suite.server, admin);
    const ownTrack = await createTrack(suite.server, moderator);
    expect((await report(reporter, 'user', admin.id, 'harassment')).status).toBe(201);
    expect((await report(reporter, 'track', adminTrack.id)).status).toBe(201);
    expect((await report(reporter, 'track', ownTrack.id)).status).toBe(201);
    expect((await report(reporter, 'user', moderator.id)).status).toBe(201);

    const attempts: Array<[TestUser, string, Record<string, unknown>]> = [];
    for (const body of [
      { action: 'warn', note: 'x' },
      { action: 'suspend', note: 'x', duration_days: 1 },
      { action: 'ban', note: 'x' },
      { action: 'hide', note: 'x' },
      { action: 'remove', note: 'x' },
    ]) {
      const isContent = body.action === 'hide' || body.action === 'remove';
      if (!isContent) attempts.push([moderator, `user/${admin.id}`, body], [moderator, `user/${moderator.id}`, body]);
      attempts.push([moderator, `track/${adminTrack.id}`, body], [moderator, `track/${ownTrack.id}`, body]);
    }
    // an admin is bound by the same rule about their own account and content
    attempts.push([admin, `track/${adminTrack.id}`, { action: 'warn', note: 'x' }]);
    const wrong: string[] = [];
    for (const [caller, target, body] of attempts) {
      const reply = await post(`/moderation/cases/${target}/resolve`, caller, body);
      if (reply.status !== 403 || reply.body.error.code !== 'FORBIDDEN')
        wrong.push(`${target} ${JSON.stringify(body)}: ${reply.status} ${reply.text}`);
    }
    expect(wrong).toEqual([]);
    for (const target of [
      `user/${admin.id}`,
      `track/${adminTrack.id}`,
      `track/${ownTrack.id}`,
      `user/${moderator.id}`,
    ]) {
      const found = await get(`/moderation/cases/${target}`, otherAdmin);
      expect(found.body.data.case.status).toBe('open');
    }
    expect(await sanctionsOf(admin.id)).toEqual([]);
    expect(await sanctionsOf(moderator.id)).toEqual([]);
    expect((await moderationStatus(adminTrack.id)).moderation_status).toBe('visible');
    expect((await moderationStatus(ownTrack.id)).moderation_status).toBe('visible');
    // another admin may
    const resolved = await post(`/moderation/cases/user/${moderator.id}/resolve`, otherAdmin, {
      action: 'warn',
      note: 'Be kind',
    });
    expect(resolved.status).toBe(200);
  });

  it('a moderator does not undo what was done to their own content, nor decide their own appeal; nor an admin’s', async () => {
    const moderator = await createModerator();
    const [admin, otherAdmin] = await Promise.all([createAdmin(suite.server), createAdmin(suite.server)]);
    const ownTrack = await createTrack(suite.server, moderator, { title: 'Mine' });
    const adminTrack = await createTrack(suite.server, admin, { title: 'Theirs' });
    for (const track of [ownTrack, adminTrack]) {
      expect((await post(`/moderation/content/track/${track.id}/hide`, otherAdmin, { note: 'Off topic' })).status).toBe(
        200,
      );
    }
    for (const verb of ['restore', 'remove', 'hide']) {
      expect(refusal(await post(`/moderation/content/track/${ownTrack.id}/${verb}`, moderator, { note: 'x' }))).toEqual(
        [403, 'FORBIDDEN'],
      );
      expect(
        refusal(await post(`/moderation/content/track/${adminTrack.id}/${verb}`, moderator, { note: 'x' })),
      ).toEqual([403, 'FORBIDDEN']);
    }
    expect(await moderationStatus(ownTrack.id)).toEqual({
      moderation_status: 'hidden',
      moderation_reason: 'Off topic',
    });

    // their own appeal, and an admin's: staff limits fall on the appellant
    const own = await appeal(moderator, 'content', ownTrack.id);
    const admins = await appeal(admin, 'content', adminTrack.id);
    expect([own.status, admins.status]).toEqual([201, 201]);
    expect(refusal(await decideAppeal(moderator, own.body.data.appeal.id, 'granted'))).toEqual([403, 'FORBIDDEN']);
    expect(refusal(await decideAppeal(moderator, admins.body.data.appeal.id, 'granted'))).toEqual([403, 'FORBIDDEN']);
    expect(refusal(await decideAppeal(admin, admins.body.data.appeal.id, 'granted'))).toEqual([403, 'FORBIDDEN']);
    expect((await moderationStatus(ownTrack.id)).moderation_status).toBe('hidden');
    expect((await moderationStatus(adminTrack.id)).moderation_status).toBe('hidden');
    // and the claims against their own track: neither the moderator nor a claim they filed
    const claimant = await createUser(suite.server);
    const ownClaim = await claim(claimant, (await createTrack(suite.server, moderator)).id);
    expect(refusal(await decideClaim(moderator, ownClaim, 'rejected'))).toEqual([403, 'FORBIDDEN']);
  });

  it('who resolved a case with a removal, or upheld a claim, does not decide the appeal of it', async () => {
    const [owner, reporter, claimant] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const [decider, other] = await Promise.all([createModerator(), createModerator()]);
    const reported = await createTrack(suite.server, owner, { title: 'Reported' });
    const claimed = await createTrack(suite.server, owner, { title: 'Claimed' });
    expect((await report(reporter, 'track', reported.id)).status).toBe(201);
    expect(
      (await post(`/moderation/cases/track/${reported.id}/resolve`, decider, { action: 'remove', note: 'Spam' }))
        .status,
    ).toBe(200);
    const claimId = await claim(claimant, claimed.id);
    expect((await decideClaim(decider, claimId, 'upheld')).status).toBe(200);
    const strike = (await get('/users/me/standing', owner)).body.data.strikes[0];
    expect(strike).toMatchObject({ claim_id: claimId, active: true });

    const appeals = [
      await appeal(owner, 'content', reported.id),
      await appeal(owner, 'content', claimed.id),
      await appeal(owner, 'strike', strike.id),
    ];
    expect(appeals.map((reply) => reply.status)).toEqual([201, 201, 201]);
    const wrong: string[] = [];
    for (const filed of appeals) {
      const { id, subject_type, subject_id } = filed.body.data.appeal;
      const reply = await decideAppeal(decider, id, 'granted');
      if (reply.status !== 403) wrong.push(`${subject_type} ${subject_id}: ${reply.status} ${reply.text}`);
    }
    expect(wrong).toEqual([]);
    expect((await moderationStatus(reported.id)).moderation_status).toBe('removed');
    expect((await moderationStatus(claimed.id)).moderation_status).toBe('removed');
    // another moderator may
    for (const filed of appeals)
      expect((await decideAppeal(other, filed.body.data.appeal.id, 'denied')).status).toBe(200);
  });

  it('a moderator neither lifts nor shortens a suspension beyond their own limit (an admin’s, or three strikes’)', async () => {
    const [long, indefinite] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const moderator = await createModerator();
    const admin = await createAdmin(suite.server);
    const longUntil = inDays(200);
    expect((await post(`/admin/users/${long.id}/suspend`, admin, { reason: 'Fraud', until: longUntil })).status).toBe(
      201,
    );
    // three strikes: a suspension only an admin lifts
    const claimant = await createUser(suite.server);
    for (let i = 0; i < 3; i++) {
      const made = await claim(claimant, (await createTrack(suite.server, indefinite, { title: `Cover ${i}` })).id);
      await lapseCounterWindow(suite.server, made);
    }
    await runJob(suite.server, 'copyright.uphold-unanswered');
    expect(refusal(await login(indefinite))).toEqual([401, 'ACCOUNT_SUSPENDED']);

    for (const user of [long, indefinite]) {
      const before = await sanctionsOf(user.id);
      expect(refusal(await post(`/admin/users/${user.id}/unsuspend`, moderator))).toEqual([403, 'FORBIDDEN']);
      // a one-day suspension in its place would end it tomorrow
      expect(
        refusal(await post(`/admin/users/${user.id}/suspend`, moderator, { reason: 'Shorter', until: inDays(1) })),
      ).toEqual([403, 'FORBIDDEN']);
      expect(refusal(await login(user))).toEqual([401, 'ACCOUNT_SUSPENDED']);
      expect(await sanctionsOf(user.id)).toEqual(before);
    }
    // nor by granting an appeal of it
    const mail = await waitForMail(suite.server.outboxDir, long.email, 'sanction-suspend');
    const filed = await post('/appeals/by-token', undefined, { token: tokenFromMail(mail), message: 'Too long' });
    expect(filed.status).toBe(201);
    expect(refusal(await decideAppeal(moderator, filed.body.data.appeal.id, 'granted'))).toEqual([403, 'FORBIDDEN']);
    expect(refusal(await login(long))).toEqual([401, 'ACCOUNT_SUSPENDED']);
    // what a moderator may: a suspension within 30 days, lifted
    const short = await createUser(suite.server);
    expect(
      (await post(`/admin/users/${short.id}/suspend`, admin, { reason: 'Cool off', until: inDays(10) })).status,
    ).toBe(201);
    expect((await post(`/admin/users/${short.id}/unsuspend`, moderator)).status).toBe(200);
    // an admin lifts the others (the appeal, one who did not suspend)
    expect((await post(`/admin/users/${indefinite.id}/unsuspend`, admin)).status).toBe(200);
    const reviewer = await createAdmin(suite.server);
    expect((await decideAppeal(reviewer, filed.body.data.appeal.id, 'granted')).status).toBe(200);
    expect((await login(long)).status).toBe(200);
  });
});

describe('a ban is an admin’s, and so is what it hid', () => {
  it('a banned account’s content stays hidden until the ban is lifted: no content restore, by a moderator or an admin', async () => {
    const [owner, listener] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const moderator = await createModerator();
    const [admin, otherAdmin] = await Promise.all([createAdmin(suite.server), createAdmin(suite.server)]);
    const track = await createTrack(suite.server, owner, { title: 'Banned with its owner' });
    expect((await post(`/admin/users/${owner.id}/ban`, admin, { reason: 'Fraud' })).status).toBe(201);
    expect(await moderationStatus(track.id)).toEqual({
      moderation_status: 'hidden',
      moderation_reason: 'account banned',
    });
    for (const caller of [moderator, otherAdmin]) {
      expect(
        refusal(await post(`/moderation/content/track/${track.id}/restore`, caller, { note: 'Looks fine' })),
      ).toEqual([409, 'CONFLICT']);
    }
    expect((await get(`/tracks/${track.id}`, listener)).status).toBe(404);
    expect(await moderationStatus(track.id)).toEqual({
      moderation_status: 'hidden',
      moderation_reason: 'account banned',
    });
    // staff may still remove it; the unban then leaves it removed
    expect((await post(`/moderation/content/track/${track.id}/remove`, moderator, { note: 'Stolen' })).status).toBe(
      200,
    );
    expect((await post(`/admin/users/${owner.id}/unban`, otherAdmin)).status).toBe(200);
    expect(await moderationStatus(track.id)).toEqual({ moderation_status: 'removed', moderation_reason: 'Stolen' });
    expect(
      (await post(`/moderation/content/track/${track.id}/restore`, moderator, { note: 'On second thought' })).status,
    ).toBe(200);
    expect((await get(`/tracks/${track.id}`, listener)).status).toBe(200);
  });

  it('nor does granting an appeal filed before the ban show the content while its owner is banned', async () => {
    const [owner, listener] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const [remover, reviewer] = await Promise.all([createModerator(), createModerator()]);
    const admin = await createAdmin(suite.server);
    const track = await createTrack(suite.server, owner);
    expect((await post(`/moderation/content/track/${track.id}/remove`, remover, { note: 'Stolen' })).status).toBe(200);
    const filed = await appeal(owner, 'content', track.id, 'I made it');
    expect(filed.status).toBe(201);
    expect((await post(`/admin/users/${owner.id}/ban`, admin, { reason: 'Fraud' })).status).toBe(201);
    expect(refusal(await decideAppeal(reviewer, filed.body.data.appeal.id, 'granted'))).toEqual([409, 'CONFLICT']);
    expect(await moderationStatus(track.id)).toEqual({ moderation_status: 'removed', moderation_reason: 'Stolen' });
    expect((await get(`/tracks/${track.id}`, listener)).status).toBe(404);
    // denied, or decided once the ban is lifted
    expect((await decideAppeal(reviewer, filed.body.data.appeal.id, 'denied')).status).toBe(200);
  });
});

describe('a sanctioned account’s credentials', () => {
  it('a ban stops its API key, webhook key, refresh token, stream token and open socket at once', async () => {
    const admin = await createAdmin(suite.server);
    const user = await createUser(suite.server);
    const track = await createTrack(suite.server, user);
    const key = await post('/developer/api-keys', user, { name: 'cli', scopes: ['read', 'write'] });
    expect(key.status).toBe(201);
    const apiKey = key.body.data.key as string;
    // an event nothing here causes: its key is what is tried
    const hook = await post('/webhooks', user, { url: 'http://127.0.0.1:9/hook', events: ['user.followed'] });
    expect(hook.status).toBe(201);
    const webhookKey = hook.body.data.api_key as string;
    const stream = await post('/auth/stream-token', user);
    expect(stream.status, stream.text).toBe(200);
    const streamToken = stream.body.token as string;
    const asKey = (value: string) => suite.http.get('/users/me', { headers: { 'x-api-key': value } });
    expect((await asKey(apiKey)).status).toBe(200);
    expect((await asKey(webhookKey)).status).toBe(200);
    expect((await get(`/tracks/${track.id}/stream?token=${streamToken}`)).status).toBe(200);
    const socket = await connectLive(liveUrl(suite.server, await chatToken(suite.server, user)));
    const closed = closeOf(socket);
    const spare = await chatToken(suite.server, user);

    expect((await post(`/admin/users/${user.id}/ban`, admin, { reason: 'Fraud' })).status).toBe(201);
    expect((await closed).code).toBe(4401);
    expect(refusal(await asKey(apiKey))[0]).toBe(401);
    expect(refusal(await asKey(webhookKey))[0]).toBe(401);
    expect(refusal(await get('/users/me', user))[0]).toBe(401);
    expect(refusal(await get(`/tracks/${track.id}/stream?token=${streamToken}`))[0]).toBe(401);
    const refreshed = await suite.http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } });
    expect(refusal(refreshed)).toEqual([401, 'ACCOUNT_BANNED']);
    expect(refusal(await login(user))).toEqual([401, 'ACCOUNT_BANNED']);
    // a socket opened with a chat token minted before the ban is refused
    await expect(connectLive(liveUrl(suite.server, spare))).rejects.toMatchObject({ status: 401 });
  });
});

describe('floods', () => {
  it(`${REPORTS_PER_DAY} reports a day hold under a burst; refused reports do not count`, async () => {
    const [owner, reporter] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const track = await createTrack(suite.server, owner);
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    const targets = await Promise.all(Array.from({ length: REPORTS_PER_DAY + 5 }, () => createUser(suite.server)));
    // refusals first: a duplicate, what the reporter cannot see, themselves, a bad reason
    expect((await report(reporter, 'track', track.id)).status).toBe(201);
    expect(refusal(await report(reporter, 'track', track.id))).toEqual([409, 'CONFLICT']);
    expect(refusal(await report(reporter, 'track', hidden.id))).toEqual([404, 'NOT_FOUND']);
    expect(refusal(await report(reporter, 'user', reporter.id))).toEqual([400, 'BAD_REQUEST']);
    expect(refusal(await report(reporter, 'track', track.id, 'boredom'))[0]).toBe(400);
    // then more than the rest of the day's allowance at once
    const burst = await Promise.all(targets.map((target) => report(reporter, 'user', target.id)));
    const statuses = burst.map((reply) => reply.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(REPORTS_PER_DAY - 1);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 429)).toBe(true);
    const mine = await get('/reports/mine?limit=100', reporter);
    expect(mine.body.data.pagination.total).toBe(REPORTS_PER_DAY);
  });

  it(`${COPYRIGHT_CLAIMS_PER_DAY} claims a day hold under a burst`, async () => {
    const [owner, claimant] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const tracks = [];
    for (let i = 0; i < COPYRIGHT_CLAIMS_PER_DAY + 3; i++) tracks.push(await createTrack(suite.server, owner));
    expect(refusal(await post('/copyright/claims', owner, claimBody(tracks[0]!.id)))).toEqual([400, 'BAD_REQUEST']);
    const burst = await Promise.all(tracks.map((track) => post('/copyright/claims', claimant, claimBody(track.id))));
    const statuses = burst.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(COPYRIGHT_CLAIMS_PER_DAY);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 429)).toBe(true);
    const made = await get('/copyright/claims/mine', claimant);
    expect(made.body.data.made).toHaveLength(COPYRIGHT_CLAIMS_PER_DAY);
    // the refused claims hid nothing
    const hiddenCount = (
      await Promise.all(tracks.map(async (track) => (await moderationStatus(track.id)).moderation_status))
    ).filter((status) => status === 'hidden').length;
    expect(hiddenCount).toBe(COPYRIGHT_CLAIMS_PER_DAY);
  });
});

describe('other users’ ids', () => {
  it('another user’s sanction, strike, claim or report is not theirs to appeal or answer: 404', async () => {
    const [owner, stranger, claimant, reporter] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const admin = await createAdmin(suite.server);
    const warned = await post(`/admin/users/${owner.id}/warn`, admin, { reason: 'Spam' });
    const track = await createTrack(suite.server, owner);
    const claimId = await claim(claimant, track.id);
    expect((await decideClaim(admin, claimId, 'upheld')).status).toBe(200);
    const strike = (await get('/users/me/standing', owner)).body.data.strikes[0];
    const other = await createTrack(suite.server, stranger);
    const reported = await report(reporter, 'track', other.id);
    const reportId = reported.body.data.report.id as string;

    const attempts = [
      await appeal(stranger, 'sanction', warned.body.data.sanction.id),
      await appeal(stranger, 'strike', strike.id),
      await appeal(stranger, 'content', track.id),
      // ids of other kinds in the subject's place
      await appeal(owner, 'strike', claimId),
      await appeal(owner, 'sanction', strike.id),
      await appeal(stranger, 'content', reportId),
      await post(`/copyright/claims/${claimId}/counter`, stranger, { statement: 'Mine', signature: 'Me' }),
      await post(`/copyright/claims/${reportId}/counter`, reporter, { statement: 'Mine', signature: 'Me' }),
    ];
    expect(attempts.map(refusal)).toEqual(attempts.map(() => [404, 'NOT_FOUND']));
    // a user's list is theirs alone
    expect((await get('/reports/mine', stranger)).body.data.reports).toEqual([]);
    expect((await get('/appeals/mine', stranger)).body.data.appeals).toEqual([]);
    expect((await get('/copyright/claims/mine', stranger)).body.data).toEqual({ made: [], received: [] });
  });
});

describe('appeal links', () => {
  it('a link of a suspension that ran out, was replaced or was lifted is 409 and stays so; one link, one appeal', async () => {
    const [admin, otherAdmin] = await Promise.all([createAdmin(suite.server), createAdmin(suite.server)]);
    const [lapsed, replaced, banned] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const byToken = (token: string, message = 'Please') => post('/appeals/by-token', undefined, { token, message });

    expect(
      (await post(`/admin/users/${lapsed.id}/suspend`, admin, { reason: 'Cool off', until: inDays(2) })).status,
    ).toBe(201);
    const lapsedToken = tokenFromMail(await waitForMail(suite.server.outboxDir, lapsed.email, 'sanction-suspend'));
    await lapseSuspension(suite.server, lapsed.id);
    await runJob(suite.server, 'sanctions.end-suspensions');
    expect(refusal(await byToken(lapsedToken))).toEqual([409, 'CONFLICT']);
    // the refusal did not use the link up: it is still refused for the same reason
    expect(refusal(await byToken(lapsedToken))).toEqual([409, 'CONFLICT']);

    expect(
      (await post(`/admin/users/${replaced.id}/suspend`, admin, { reason: 'First', until: inDays(2) })).status,
    ).toBe(201);
    const firstToken = tokenFromMail(await waitForMail(suite.server.outboxDir, replaced.email, 'sanction-suspend'));
    expect(
      (await post(`/admin/users/${replaced.id}/suspend`, admin, { reason: 'Second', until: inDays(5) })).status,
    ).toBe(201);
    // the second suspension's mail carries a link of its own
    let second: string | undefined;
    for (const deadline = Date.now() + 10_000; !second && Date.now() < deadline; ) {
      second = (await readOutbox(suite.server.outboxDir))
        .filter((mail) => mail.to === replaced.email && mail.template === 'sanction-suspend')
        .map(tokenFromMail)
        .find((token) => token !== firstToken);
      if (!second) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(refusal(await byToken(firstToken))).toEqual([409, 'CONFLICT']);
    const filed = await byToken(second!);
    expect(filed.status).toBe(201);
    expect(filed.body.data.appeal).toMatchObject({ subject_type: 'sanction', status: 'open' });
    expect(refusal(await byToken(second!))).toEqual([400, 'INVALID_TOKEN']);

    expect((await post(`/admin/users/${banned.id}/ban`, admin, { reason: 'Fraud' })).status).toBe(201);
    const banToken = tokenFromMail(await waitForMail(suite.server.outboxDir, banned.email, 'sanction-ban'));
    expect((await post(`/admin/users/${banned.id}/unban`, otherAdmin)).status).toBe(200);
    expect(refusal(await byToken(banToken))).toEqual([409, 'CONFLICT']);

    // odd tokens are refused as such, never 500
    for (const [token, code] of [
      ['x'.repeat(201), 'VALIDATION_FAILED'],
      ['', 'VALIDATION_FAILED'],
      ['😀'.repeat(50), 'INVALID_TOKEN'],
      ["' or 1=1 --", 'INVALID_TOKEN'],
    ] as const) {
      expect(refusal(await byToken(token))).toEqual([400, code]);
    }
    expect(refusal(await post('/appeals/by-token', undefined, { token: 12345, message: 'x' }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect(refusal(await post('/appeals/by-token', undefined, [banToken]))).toEqual([400, 'VALIDATION_FAILED']);
  });
});

describe('odd inputs', () => {
  it('are refused with a 4xx and their code, never a 500, and change nothing', async () => {
    const [owner, reporter] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const moderator = await createModerator();
    const admin = await createAdmin(suite.server);
    const track = await createTrack(suite.server, owner);
    expect((await report(reporter, 'track', track.id)).status).toBe(201);
    const claimId = await claim(reporter, (await createTrack(suite.server, owner)).id);
    const hiddenTrack = await createTrack(suite.server, owner);
    expect((await post(`/moderation/content/track/${hiddenTrack.id}/hide`, admin, { note: 'x' })).status).toBe(200);
    const appealId = (await appeal(owner, 'content', hiddenTrack.id)).body.data.appeal.id as string;
    const long = 'x'.repeat(2001);
    const unknown = crypto.randomUUID();
    const caseOf = `/moderation/cases/track/${track.id}`;

    type Attempt = [
      caller: TestUser,
      method: 'GET' | 'POST' | 'PUT',
      path: string,
      body: unknown,
      expected: [number, string],
    ];
    const invalid: [number, string] = [400, 'VALIDATION_FAILED'];
    const invalidId: [number, string] = [400, 'INVALID_ID'];
    const notFound: [number, string] = [404, 'NOT_FOUND'];
    const attempts: Attempt[] = [
      // notes and reasons: 1–2000 characters, not blank
      [moderator, 'POST', `${caseOf}/resolve`, { action: 'warn', note: long }, invalid],
      [moderator, 'POST', `${caseOf}/resolve`, { action: 'warn', note: '   ' }, invalid],
      [moderator, 'POST', `${caseOf}/dismiss`, { note: long }, invalid],
      [moderator, 'POST', `/moderation/content/track/${track.id}/hide`, { note: long }, invalid],
      [moderator, 'POST', `/moderation/copyright/${claimId}/decide`, { outcome: 'upheld', note: long }, invalid],
      [moderator, 'POST', `/moderation/appeals/${appealId}/decide`, { outcome: 'granted', note: long }, invalid],
      [moderator, 'POST', `/admin/users/${owner.id}/warn`, { reason: long }, invalid],
      [admin, 'POST', `/admin/users/${owner.id}/ban`, { reason: '' }, invalid],
      [
        reporter,
        'POST',
        '/reports',
        { target_type: 'track', target_id: track.id, reason: 'spam', details: long },
        invalid,
      ],
      // a suspension's length: whole days, 1 to 365, for a suspension only
      ...[0, 366, -1, 7.5, '7', null, 1e10, 'P7D'].map(
        (days): Attempt => [
          admin,
          'POST',
          `${caseOf}/resolve`,
          { action: 'suspend', note: 'x', duration_days: days },
          invalid,
        ],
      ),
      [admin, 'POST', `${caseOf}/resolve`, { action: 'hide', note: 'x', duration_days: 3 }, invalid],
      [admin, 'POST', `${caseOf}/resolve`, { action: 'delete', note: 'x' }, invalid],
      ...['tomorrow', 1_900_000_000_000, '2026-13-45T00:00:00Z', '', null].map(
        (until): Attempt => [admin, 'POST', `/admin/users/${owner.id}/suspend`, { reason: 'x', until }, invalid],
      ),
      // outcomes and kinds outside their lists
      [moderator, 'POST', `/moderation/copyright/${claimId}/decide`, { outcome: 'maybe', note: 'x' }, invalid],
      [moderator, 'POST', `/moderation/appeals/${appealId}/decide`, { outcome: 'upheld', note: 'x' }, invalid],
      [owner, 'POST', '/appeals', { subject_type: 'verdict', subject_id: track.id, message: 'x' }, invalid],
      [reporter, 'POST', '/reports', { target_type: 'banana', target_id: track.id, reason: 'spam' }, invalid],
      [reporter, 'POST', '/reports', { target_type: 'track', target_id: 'not-a-uuid', reason: 'spam' }, invalid],
      [admin, 'PUT', `/admin/users/${owner.id}/role`, { role: 'superadmin' }, invalid],
      // bodies that are not objects
      [moderator, 'POST', `${caseOf}/resolve`, [{ action: 'none', note: 'x' }], invalid],
      [moderator, 'POST', `${caseOf}/dismiss`, 'dismiss', invalid],
      [reporter, 'POST', '/reports', null, invalid],
      // ids in paths: malformed ids and types outside the lists are 400 INVALID_ID before any lookup
      [moderator, 'GET', '/moderation/cases/track/not-a-uuid', undefined, invalidId],
      [moderator, 'GET', `/moderation/cases/banana/${track.id}`, undefined, invalidId],
      [moderator, 'POST', '/moderation/cases/track/123/assign', undefined, invalidId],
      [moderator, 'POST', `/moderation/content/banana/${track.id}/hide`, { note: 'x' }, invalidId],
      [
        moderator,
        'POST',
        '/moderation/content/track/00000000-0000-0000-0000-00000000000g/remove',
        { note: 'x' },
        invalidId,
      ],
      [moderator, 'POST', '/moderation/copyright/1/decide', { outcome: 'upheld', note: 'x' }, invalidId],
      [moderator, 'POST', "/moderation/appeals/'%20or%201=1/decide", { outcome: 'granted', note: 'x' }, invalidId],
      [moderator, 'POST', '/admin/users/%20/warn', { reason: 'x' }, invalidId],
      [admin, 'GET', '/admin/users/me', undefined, invalidId],
      // types the queue knows whose areas are not built, and unknown ids: nothing to act on
      [moderator, 'GET', `/moderation/cases/group/${unknown}`, undefined, notFound],
      [moderator, 'POST', `/moderation/cases/course/${unknown}/resolve`, { action: 'none', note: 'x' }, notFound],
      [moderator, 'POST', `/moderation/content/group_post/${unknown}/hide`, { note: 'x' }, notFound],
      [reporter, 'POST', '/reports', { target_type: 'group', target_id: unknown, reason: 'spam' }, notFound],
      [moderator, 'POST', `/moderation/copyright/${unknown}/decide`, { outcome: 'upheld', note: 'x' }, notFound],
      [moderator, 'POST', `/moderation/appeals/${unknown}/decide`, { outcome: 'denied', note: 'x' }, notFound],
      [moderator, 'POST', `/admin/users/${unknown}/suspend`, { reason: 'x', until: inDays(1) }, notFound],
    ];
    const wrong: string[] = [];
    for (const [caller, method, path, body, expected] of attempts) {
      const reply = await suite.http[method === 'GET' ? 'get' : method === 'PUT' ? 'put' : 'post'](path, {
        token: caller.accessToken,
        ...(body !== undefined ? { body } : {}),
      });
      if (reply.status !== expected[0] || reply.body?.error?.code !== expected[1]) {
        wrong.push(
          `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}: ${reply.status} ${reply.text.slice(0, 160)}`,
        );
      }
    }
    expect(wrong).toEqual([]);
    // none of it did anything
    const found = await get(caseOf, admin);
    expect(found.body.data.case).toMatchObject({ status: 'open', assigned_to: null, report_count: 1 });
    expect(await moderationStatus(track.id)).toEqual({ moderation_status: 'visible', moderation_reason: null });
    expect(await sanctionsOf(owner.id)).toEqual([]);
    expect((await get('/copyright/claims/mine', reporter)).body.data.made[0].status).toBe('pending');
    expect((await get('/appeals/mine', owner)).body.data.appeals[0].status).toBe('open');
  });
});

describe('two staff members at once', () => {
  it('resolving one case: one wins, the other finds it closed; one sanction, one staff-log entry, one outcome', async () => {
    const [owner, reporter] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const [first, second] = await Promise.all([createModerator(), createModerator()]);
    const track = await createTrack(suite.server, owner);
    expect((await report(reporter, 'track', track.id)).status).toBe(201);
    const path = `/moderation/cases/track/${track.id}/resolve`;
    const replies = await Promise.all([
      post(path, first, { action: 'suspend', note: 'Spam', duration_days: 3 }),
      post(path, second, { action: 'warn', note: 'Spam' }),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 404]);
    const winner = replies.findIndex((reply) => reply.status === 200);
    const sanctions = await sanctionsOf(owner.id);
    expect(sanctions.map((row) => row.kind)).toEqual([winner === 0 ? 'suspend' : 'warn']);
    const log = (await staffLogOf(track.id)).filter((entry) => entry.action === 'case.resolve');
    expect(log.map((entry) => entry.actor_id)).toEqual([(winner === 0 ? first : second).id]);
    const found = (await get(`/moderation/cases/track/${track.id}`, first)).body.data.case;
    expect(found.history.map((event: { action: string }) => event.action)).toEqual([
      winner === 0 ? 'resolved:suspend' : 'resolved:warn',
    ]);
    expect(found.reports.map((row: { outcome: string }) => row.outcome)).toEqual(['action_taken']);
  });

  it('deciding one claim, one appeal, banning one user: exactly one succeeds, the rest is 409 and leaves no trace', async () => {
    const [owner, claimant, target] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const [first, second] = await Promise.all([createModerator(), createModerator()]);
    const [adminA, adminB, hider] = await Promise.all([
      createAdmin(suite.server),
      createAdmin(suite.server),
      createAdmin(suite.server),
    ]);

    const claimed = await createTrack(suite.server, owner);
    const claimId = await claim(claimant, claimed.id);
    const claimReplies = await Promise.all([
      decideClaim(first, claimId, 'upheld'),
      decideClaim(second, claimId, 'rejected'),
    ]);
    expect(claimReplies.map((reply) => reply.status).sort()).toEqual([200, 409]);
    const upheld = claimReplies[0]!.status === 200;
    const strikes = await db().selectFrom('strikes').select('id').where('user_id', '=', owner.id).execute();
    expect(strikes).toHaveLength(upheld ? 1 : 0);
    expect((await moderationStatus(claimed.id)).moderation_status).toBe(upheld ? 'removed' : 'visible');
    expect((await staffLogOf(claimId)).map((entry) => entry.action)).toEqual([
      upheld ? 'copyright.uphold' : 'copyright.reject',
    ]);

    const hidden = await createTrack(suite.server, owner);
    expect((await post(`/moderation/content/track/${hidden.id}/hide`, hider, { note: 'x' })).status).toBe(200);
    const appealId = (await appeal(owner, 'content', hidden.id)).body.data.appeal.id as string;
    const appealReplies = await Promise.all([
      decideAppeal(first, appealId, 'granted'),
      decideAppeal(second, appealId, 'denied'),
    ]);
    expect(appealReplies.map((reply) => reply.status).sort()).toEqual([200, 409]);
    const granted = appealReplies[0]!.status === 200;
    expect((await moderationStatus(hidden.id)).moderation_status).toBe(granted ? 'visible' : 'hidden');
    expect((await staffLogOf(appealId)).map((entry) => entry.action)).toEqual([
      granted ? 'appeal.grant' : 'appeal.deny',
    ]);

    const bans = await Promise.all([
      post(`/admin/users/${target.id}/ban`, adminA, { reason: 'Fraud' }),
      post(`/admin/users/${target.id}/ban`, adminB, { reason: 'Fraud' }),
    ]);
    expect(bans.map((reply) => reply.status).sort()).toEqual([201, 409]);
    expect((await sanctionsOf(target.id)).map((row) => row.kind)).toEqual(['ban']);
  });

  it('two appeals of one subject at once, and one link used twice at once: exactly one is filed', async () => {
    const owner = await createUser(suite.server);
    const [hider, admin] = await Promise.all([createModerator(), createAdmin(suite.server)]);
    const track = await createTrack(suite.server, owner);
    expect((await post(`/moderation/content/track/${track.id}/hide`, hider, { note: 'x' })).status).toBe(200);
    const both = await Promise.all([
      appeal(owner, 'content', track.id, 'One'),
      appeal(owner, 'content', track.id, 'Two'),
    ]);
    expect(both.map(refusal).sort()).toEqual([
      [201, undefined],
      [409, 'CONFLICT'],
    ]);
    const rows = await db().selectFrom('appeals').select('id').where('subject_id', '=', track.id).execute();
    expect(rows).toHaveLength(1);

    const suspended = await createUser(suite.server);
    expect((await post(`/admin/users/${suspended.id}/suspend`, admin, { reason: 'x', until: inDays(3) })).status).toBe(
      201,
    );
    const token = tokenFromMail(await waitForMail(suite.server.outboxDir, suspended.email, 'sanction-suspend'));
    const byLink = await Promise.all([
      post('/appeals/by-token', undefined, { token, message: 'One' }),
      post('/appeals/by-token', undefined, { token, message: 'Two' }),
    ]);
    expect(byLink.map(refusal).sort()).toEqual([
      [201, undefined],
      [400, 'INVALID_TOKEN'],
    ]);
    const filed = await db().selectFrom('appeals').select('id').where('user_id', '=', suspended.id).execute();
    expect(filed).toHaveLength(1);
  });
});
