import { describe, expect, it } from 'vitest';
import { backdateModeration } from '../support/backdate.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { runDueJobs, runJob } from '../support/jobs.js';
import { tokenFromMail, waitForMail } from '../support/mail.js';
import { createModerator as newModerator, moderationNotices as noticesOf } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';

// Appeals over HTTP: what a user may appeal (their standing), the appeal of hidden content and of a
// sanction (signed in, or by the link mailed to a suspended account), staff's decision by someone
// other than who decided first, and the purge of removed tracks that no appeal holds.
const suite = useTestServer();
const db = () => suite.server.riff.database.db;
const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

const createModerator = () => newModerator(suite.server);

const post = (path: string, caller: TestUser | undefined, body?: unknown) =>
  suite.http.post(path, { ...(caller ? { token: caller.accessToken } : {}), ...(body ? { body } : {}) });
const get = (path: string, caller?: TestUser | string) =>
  suite.http.get(path, caller ? { token: typeof caller === 'string' ? caller : caller.accessToken } : {});
const refusal = (reply: { status: number; body: { error?: { code?: string } } }) => [
  reply.status,
  reply.body?.error?.code,
];
const appeal = (caller: TestUser, subjectType: string, subjectId: string, message = 'Please look again') =>
  post('/appeals', caller, { subject_type: subjectType, subject_id: subjectId, message });
const decide = (caller: TestUser, id: string, outcome: 'granted' | 'denied', note = 'Reviewed') =>
  post(`/moderation/appeals/${id}/decide`, caller, { outcome, note });

const moderationNotices = (token: string, count: number) => noticesOf(suite.server, token, count);

const staffLogOf = (targetId: string) =>
  db().selectFrom('staff_log').selectAll().where('target_id', '=', targetId).orderBy('created_at').execute();

describe('appeals of content and sanctions', () => {
  it('the standing shows what was decided; the owner appeals once; the one who hid it may not decide; another restores it', async () => {
    const [owner, other] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const [hider, reviewer] = await Promise.all([createModerator(), createModerator()]);
    const track = await createTrack(suite.server, owner, { title: 'Disputed' });
    const visible = await createTrack(suite.server, owner, { title: 'Fine' });
    expect((await post(`/moderation/content/track/${track.id}/hide`, hider, { note: 'Looks like spam' })).status).toBe(
      200,
    );
    const warned = await post(`/admin/users/${owner.id}/warn`, hider, { reason: 'Spam links' });
    expect(warned.status).toBe(201);
    const warning = warned.body.data.sanction;

    // the owner's standing: the hidden track and the warning; nobody else's
    const standing = await get('/users/me/standing', owner);
    expect(standing.status).toBe(200);
    expect(standing.body.data.content).toEqual([
      { target_type: 'track', target_id: track.id, moderation_status: 'hidden', moderation_reason: 'Looks like spam' },
    ]);
    expect(standing.body.data.sanctions).toEqual([expect.objectContaining({ id: warning.id, kind: 'warn' })]);
    expect(standing.body.data.strikes).toEqual([]);
    const theirs = await get('/users/me/standing', other);
    expect(theirs.body.data).toEqual({ sanctions: [], strikes: [], content: [] });

    // only one's own decided content and sanctions: the rest does not exist for the caller
    expect(refusal(await appeal(other, 'content', track.id))).toEqual([404, 'NOT_FOUND']);
    expect(refusal(await appeal(other, 'sanction', warning.id))).toEqual([404, 'NOT_FOUND']);
    expect(refusal(await appeal(owner, 'content', visible.id))).toEqual([404, 'NOT_FOUND']);
    expect(refusal(await appeal(owner, 'strike', crypto.randomUUID()))).toEqual([404, 'NOT_FOUND']);
    expect(refusal(await appeal(owner, 'content', track.id, ''))).toEqual([400, 'VALIDATION_FAILED']);
    expect(refusal(await appeal(owner, 'verdict', track.id))[0]).toBe(400);
    expect(refusal(await appeal(owner, 'content', track.id, 'x'.repeat(5001)))[0]).toBe(400);

    const filed = await appeal(owner, 'content', track.id, 'It is my own recording');
    expect(filed.status).toBe(201);
    const first = filed.body.data.appeal;
    expect(first).toMatchObject({
      subject_type: 'content',
      subject_id: track.id,
      target_type: 'track',
      message: 'It is my own recording',
      status: 'open',
      decided_at: null,
      note: null,
    });
    const again = await appeal(owner, 'content', track.id);
    expect(refusal(again)).toEqual([409, 'CONFLICT']);
    expect(again.body.error.details).toEqual([expect.objectContaining({ field: 'appeal_id', value: first.id })]);
    const mine = await get('/appeals/mine', owner);
    expect(mine.body.data.appeals.map((row: { id: string }) => row.id)).toEqual([first.id]);
    expect(mine.body.data.pagination).toMatchObject({ total: 1 });

    // staff routes are staff's
    expect(refusal(await get('/moderation/appeals', owner))).toEqual([403, 'FORBIDDEN']);
    expect(refusal(await decide(owner, first.id, 'granted'))).toEqual([403, 'FORBIDDEN']);
    expect(refusal(await get('/moderation/appeals'))[0]).toBe(401);
    const queue = await get('/moderation/appeals?status=open&limit=100', reviewer);
    expect(queue.status).toBe(200);
    expect(queue.body.data.appeals).toContainEqual(expect.objectContaining({ id: first.id, appellant_id: owner.id }));
    expect(refusal(await get('/moderation/appeals?status=pending', reviewer))[0]).toBe(400);

    // who hid it may not decide; another moderator restores it
    expect(refusal(await decide(hider, first.id, 'granted'))).toEqual([403, 'FORBIDDEN']);
    expect(refusal(await decide(reviewer, crypto.randomUUID(), 'granted'))).toEqual([404, 'NOT_FOUND']);
    const granted = await decide(reviewer, first.id, 'granted', 'Your license checks out');
    expect(granted.status).toBe(200);
    expect(granted.body.data.appeal).toMatchObject({
      id: first.id,
      status: 'granted',
      note: 'Your license checks out',
      appellant_id: owner.id,
    });
    expect(refusal(await decide(reviewer, first.id, 'denied'))).toEqual([409, 'CONFLICT']);
    const seen = await get(`/tracks/${track.id}`, other);
    expect(seen.status).toBe(200);
    expect(seen.body.data.track.moderation_status).toBeUndefined();
    expect((await get('/users/me/standing', owner)).body.data.content).toEqual([]);
    // the restoration and the decision are in the staff log, by the one who decided
    expect((await staffLogOf(track.id)).map((entry) => [entry.action, entry.actor_id])).toEqual([
      ['content.hide', hider.id],
      ['content.restore', reviewer.id],
    ]);
    expect((await staffLogOf(first.id)).map((entry) => [entry.action, entry.actor_id, entry.reason])).toEqual([
      ['appeal.grant', reviewer.id, 'Your license checks out'],
    ]);

    // a warning's appeal, denied: nothing changes but the appeal; the owner hears of both decisions
    const warnAppeal = (await appeal(owner, 'sanction', warning.id)).body.data.appeal;
    expect(refusal(await decide(hider, warnAppeal.id, 'denied'))).toEqual([403, 'FORBIDDEN']);
    const denied = await decide(reviewer, warnAppeal.id, 'denied', 'The links were spam');
    expect(denied.body.data.appeal).toMatchObject({ status: 'denied', note: 'The links were spam' });
    const notes = await moderationNotices(owner.accessToken, 4);
    // hidden, warned, and the two decisions
    expect(notes).toHaveLength(4);
    const messages = notes.map((note) => note.message);
    expect(messages).toContainEqual(expect.stringMatching(/appeal .*track was granted.*license checks out/));
    expect(messages).toContainEqual(expect.stringMatching(/appeal .*sanction .*denied.*The links were spam/));
    expect(notes.every((note) => note.actor === null)).toBe(true);
    const after = (await get('/appeals/mine', owner)).body.data.appeals;
    expect(after.map((row: { status: string }) => row.status)).toEqual(['denied', 'granted']);
  });

  it('a suspended user appeals once by the mailed link; granted by another moderator, they sign in again', async () => {
    const user = await createUser(suite.server);
    const [suspender, reviewer] = await Promise.all([createModerator(), createModerator()]);
    const suspended = await post(`/admin/users/${user.id}/suspend`, suspender, {
      reason: 'Harassment',
      until: inDays(7),
    });
    expect(suspended.status).toBe(201);
    const login = () => suite.http.post('/auth/login', { body: { email: user.email, password: user.password } });
    expect(refusal(await login())).toEqual([401, 'ACCOUNT_SUSPENDED']);

    const mail = await waitForMail(suite.server.outboxDir, user.email, 'sanction-suspend');
    expect(mail.text).toMatch(/\/appeal\?token=/);
    const token = tokenFromMail(mail);

    // the service page the link opens: HTML, locked down as the account pages
    const page = await fetch(`${suite.server.baseUrl}/appeal?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('<form id="appeal-form"');
    expect(html).not.toMatch(/<script>|style=/);
    const script = await fetch(`${suite.server.baseUrl}/appeal/appeal.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('/appeals/by-token');

    expect(refusal(await post('/appeals/by-token', undefined, { token: 'not-a-token', message: 'Hi' }))).toEqual([
      400,
      'INVALID_TOKEN',
    ]);
    expect(refusal(await post('/appeals/by-token', undefined, { token, message: '' }))[0]).toBe(400);
    const filed = await post('/appeals/by-token', undefined, { token, message: 'I was quoted out of context' });
    expect(filed.status).toBe(201);
    const byLink = filed.body.data.appeal;
    expect(byLink).toMatchObject({
      subject_type: 'sanction',
      subject_id: suspended.body.data.sanction.id,
      target_type: null,
      status: 'open',
    });
    // single use
    expect(refusal(await post('/appeals/by-token', undefined, { token, message: 'Again' }))).toEqual([
      400,
      'INVALID_TOKEN',
    ]);

    expect(refusal(await decide(suspender, byLink.id, 'granted'))).toEqual([403, 'FORBIDDEN']);
    const granted = await decide(reviewer, byLink.id, 'granted', 'The thread shows provocation');
    expect(granted.status).toBe(200);
    const back = await login();
    expect(back.status).toBe(200);
    const signedIn = back.body.token.access_token as string;
    const mine = await get('/appeals/mine', signedIn);
    expect(mine.body.data.appeals).toEqual([
      expect.objectContaining({ id: byLink.id, status: 'granted', note: 'The thread shows provocation' }),
    ]);
    const standing = await get('/users/me/standing', signedIn);
    expect(standing.body.data.sanctions).toEqual([
      expect.objectContaining({ kind: 'suspend', lifted_by: reviewer.id }),
    ]);
    const notes = await moderationNotices(signedIn, 3);
    expect(notes.map((note) => note.message)).toContainEqual(expect.stringMatching(/appeal .*granted/));
  });
});

describe('the purge of removed content', () => {
  it('a track removed over 30 days ago loses its file unless an appeal of it is open; a recent removal stays', async () => {
    const owner = await createUser(suite.server);
    const moderator = await createModerator();
    const [old, appealed, recent] = await Promise.all([
      createTrack(suite.server, owner, { title: 'Old removal' }),
      createTrack(suite.server, owner, { title: 'Appealed removal' }),
      createTrack(suite.server, owner, { title: 'Recent removal' }),
    ]);
    for (const track of [old, appealed, recent]) {
      expect((await post(`/moderation/content/track/${track.id}/remove`, moderator, { note: 'Stolen' })).status).toBe(
        200,
      );
    }
    expect((await appeal(owner, 'content', appealed.id, 'I made it')).status).toBe(201);
    await backdateModeration(suite.server, old.id, 31);
    await backdateModeration(suite.server, appealed.id, 31);
    await backdateModeration(suite.server, recent.id, 29);
    const fileOf = async (id: string) =>
      (await db().selectFrom('tracks').select('file_key').where('id', '=', id).executeTakeFirstOrThrow()).file_key!;
    const oldFile = await fileOf(old.id);
    expect(await suite.server.riff.platform.storage.size(oldFile)).toBeGreaterThan(0);

    const result = await runJob<{ purged: number; kept: number }>(suite.server, 'appeals.purge-removed');
    expect(result.purged).toBeGreaterThanOrEqual(1);
    expect(result.kept).toBeGreaterThanOrEqual(1);
    await runDueJobs(suite.server);
    // gone, even for its owner, with its file
    expect(refusal(await get(`/tracks/${old.id}`, owner))).toEqual([404, 'NOT_FOUND']);
    expect(refusal(await get(`/tracks/${old.id}/stream`, owner))[0]).toBe(404);
    expect(await suite.server.riff.platform.storage.size(oldFile)).toBeUndefined();
    // the appealed and the recent one stay, for their owner, with their files
    for (const track of [appealed, recent]) {
      const kept = await get(`/tracks/${track.id}`, owner);
      expect(kept.status).toBe(200);
      expect(kept.body.data.track.moderation_status).toBe('removed');
      expect(await suite.server.riff.platform.storage.size(await fileOf(track.id))).toBeGreaterThan(0);
    }
    // run again: nothing more of these goes
    await runJob(suite.server, 'appeals.purge-removed');
    expect((await get(`/tracks/${appealed.id}`, owner)).status).toBe(200);

    // the appeals are in the account's export, and go with the account
    const exported = await get('/users/me/export', owner);
    expect(exported.status).toBe(200);
    expect(exported.body.appeals).toEqual([expect.objectContaining({ subject_id: appealed.id, status: 'open' })]);
    const erased = await suite.http.delete('/users/me', {
      token: owner.accessToken,
      body: { confirm_text: 'DELETE', password: owner.password },
    });
    expect(erased.status).toBe(200);
    const left = await db().selectFrom('appeals').select('id').where('user_id', '=', owner.id).execute();
    expect(left).toEqual([]);
  });
});
