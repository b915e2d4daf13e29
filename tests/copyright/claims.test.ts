import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { expireStrikes, lapseCounterWindow } from '../support/backdate.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { runJob } from '../support/jobs.js';
import { waitForMail } from '../support/mail.js';
import { createModerator as newModerator, moderationNotices as noticesOf } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { makeAudio } from '../support/audio.js';

// Copyright claims over HTTP: a claim hides the track at once and tells its owner (never the
// claimant's email), the owner's counter-notice, staff's decisions and the job's, and the strikes
// an upheld claim gives (uploads stop at two, the account is suspended at three, they expire).
const suite = useTestServer();
const db = () => suite.server.riff.database.db;

const CLAIMANT_EMAIL = 'rights-desk@label.example';
const claimBody = (trackId: string) => ({
  track_id: trackId,
  claimant_name: 'Harbour Records',
  claimant_email: CLAIMANT_EMAIL,
  work_description: 'The master recording of “Harbour Lights” (2024), copied in full.',
  original_url: 'https://label.example/harbour-lights',
  statement_good_faith: true as const,
  statement_accuracy: true as const,
  signature: 'Ana Lima',
});

const createModerator = () => newModerator(suite.server);

const refusal = (reply: { status: number; body: unknown }) => [
  reply.status,
  (reply.body as { error?: { code?: string } } | undefined)?.error?.code,
];

async function claim(claimant: TestUser, trackId: string) {
  return expectStatus(await claimant.api.copyright.claim({ body: claimBody(trackId) }), 201).body.data.claim;
}

const decide = (staff: TestUser, id: string, outcome: 'upheld' | 'rejected') =>
  staff.api.copyright.decide({ params: { id }, body: { outcome, note: `${outcome} after review` } });

const moderationNotices = (user: TestUser, count: number) => noticesOf(suite.server, user.accessToken, count);

const trackAs = (user: TestUser | undefined, id: string) =>
  suite.http.get(`/tracks/${id}`, user ? { token: user.accessToken } : {});

async function upload(user: TestUser) {
  const bytes = await makeAudio('mp3', { seconds: 1 });
  return user.api.tracks.upload({ body: { file: new File([new Uint8Array(bytes)], 'tone.mp3') } });
}

describe('a claim', () => {
  it('hides the track at once and tells its owner the claim’s text, never the claimant’s email', async () => {
    const [owner, claimant, listener] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const track = await createTrack(suite.server, owner, { title: 'Night Drive' });
    const made = await claim(claimant, track.id);
    expect(made).toMatchObject({ track_id: track.id, status: 'pending', decided_at: null });
    expect(Date.parse(made.counter_deadline) - Date.parse(made.created_at)).toBe(14 * 86_400_000);

    // as if deleted for everyone but its owner (who sees why) and staff
    expect(refusal(await trackAs(listener, track.id))).toEqual([404, 'NOT_FOUND']);
    expect(refusal(await trackAs(claimant, track.id))).toEqual([404, 'NOT_FOUND']);
    expect(refusal(await trackAs(undefined, track.id))).toEqual([404, 'NOT_FOUND']);
    const own = await trackAs(owner, track.id);
    expect(own.status).toBe(200);
    expect(own.body.data.track).toMatchObject({ moderation_status: 'hidden', moderation_reason: 'copyright claim' });

    const [notice] = await moderationNotices(owner, 1);
    expect(notice!.message).toContain('Night Drive');
    expect(notice!.message).toContain('Harbour Records');
    expect(notice!.message).toContain('Harbour Lights');
    expect(notice!.message).toContain('https://label.example/harbour-lights');
    expect(notice!.message).not.toContain(CLAIMANT_EMAIL);
    expect(notice!.actor).toBeNull();
    const mail = await waitForMail(suite.server.outboxDir, owner.email, 'copyright-claim');
    expect(mail.text).toContain('Harbour Lights');
    expect(mail.text).not.toContain(CLAIMANT_EMAIL);

    // each side's list; neither carries the claimant's contact
    const mine = expectStatus(await claimant.api.copyright.myClaims(), 200).body.data;
    expect(mine.made.map((c) => c.id)).toEqual([made.id]);
    expect(mine.received).toEqual([]);
    const theirs = expectStatus(await owner.api.copyright.myClaims(), 200).body.data;
    expect(theirs.received).toEqual([made]);
    expect(JSON.stringify(theirs)).not.toContain(CLAIMANT_EMAIL);
    // the owner's audit log and inbox name neither the claimant's account nor their address
    const audit = await suite.http.get('/users/me/audit-logs', { token: owner.accessToken });
    expect(JSON.stringify(audit.body)).not.toContain(claimant.id);

    // staff see both parties
    const moderator = await createModerator();
    const pending = expectStatus(
      await moderator.api.copyright.staffClaims({ query: { status: 'pending', limit: 100 } }),
      200,
    ).body.data;
    expect(pending.claims.find((c) => c.id === made.id)).toMatchObject({
      claimant_id: claimant.id,
      claimant_email: CLAIMANT_EMAIL,
      owner_id: owner.id,
      track_title: 'Night Drive',
      signature: 'Ana Lima',
    });
  });

  it('refuses a flood (5 a day, then 429 with Retry-After), one’s own track, what one cannot see, bad statements', async () => {
    const [owner, claimant] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const tracks = [];
    for (let i = 0; i < 5; i++) tracks.push(await createTrack(suite.server, owner, { title: `Song ${i}` }));
    const privateTrack = await createTrack(suite.server, owner, { isPublic: false });

    expect(refusal(await owner.api.copyright.claim({ body: claimBody(tracks[0]!.id) }))).toEqual([400, 'BAD_REQUEST']);
    expect(refusal(await claimant.api.copyright.claim({ body: claimBody(privateTrack.id) }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(refusal(await claimant.api.copyright.claim({ body: claimBody(crypto.randomUUID()) }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    const unsworn = { ...claimBody(tracks[0]!.id), statement_accuracy: false };
    expect(refusal(await suite.http.post('/copyright/claims', { token: claimant.accessToken, body: unsworn }))).toEqual(
      [400, 'VALIDATION_FAILED'],
    );
    const long = { ...claimBody(tracks[0]!.id), work_description: 'x'.repeat(2001) };
    expect(refusal(await suite.http.post('/copyright/claims', { token: claimant.accessToken, body: long }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect((await suite.http.post('/copyright/claims', { body: claimBody(tracks[0]!.id) })).status).toBe(401);

    // none of the refusals counted: five claims, then 429
    for (const track of tracks) await claim(claimant, track.id);
    const flood = await suite.http.post('/copyright/claims', {
      token: claimant.accessToken,
      body: claimBody(privateTrack.id),
    });
    expect(refusal(flood)).toEqual([429, 'RATE_LIMITED']);
    expect(Number(flood.headers.get('retry-after'))).toBeGreaterThan(86_000);
  });

  it('one undecided claim per claimant and track (409, with its id)', async () => {
    const owner = await createUser(suite.server);
    // a moderator sees the hidden track, so the second claim reaches the check
    const moderator = await createModerator();
    const track = await createTrack(suite.server, owner);
    const first = await claim(moderator, track.id);
    const again = await suite.http.post('/copyright/claims', {
      token: moderator.accessToken,
      body: claimBody(track.id),
    });
    expect(refusal(again)).toEqual([409, 'CONFLICT']);
    expect(again.body.error.details[0].value).toBe(first.id);
    // and they do not decide their own claim
    expect(refusal(await decide(moderator, first.id, 'upheld'))).toEqual([403, 'FORBIDDEN']);
  });
});

describe('the answer and the decision', () => {
  it('the owner counters once, in time; rejected restores the track; both parties are told; the staff log has it', async () => {
    const [owner, claimant, stranger] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const moderator = await createModerator();
    const track = await createTrack(suite.server, owner, { title: 'Sample Free' });
    const made = await claim(claimant, track.id);
    const counter = { statement: 'My own recording; nothing sampled.', signature: 'Theo Martin' };

    expect(refusal(await stranger.api.copyright.counter({ params: { id: made.id }, body: counter }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(refusal(await claimant.api.copyright.counter({ params: { id: made.id }, body: counter }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    const countered = expectStatus(await owner.api.copyright.counter({ params: { id: made.id }, body: counter }), 200)
      .body.data.claim;
    expect(countered.status).toBe('countered');
    expect(refusal(await owner.api.copyright.counter({ params: { id: made.id }, body: counter }))).toEqual([
      409,
      'CONFLICT',
    ]);
    expect((await moderationNotices(claimant, 1))[0]!.message).toContain('counter-notice');

    // a user is no staff
    expect(refusal(await decide(stranger, made.id, 'rejected'))).toEqual([403, 'FORBIDDEN']);
    expect(refusal(await suite.http.get('/moderation/copyright', { token: stranger.accessToken }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    const listed = expectStatus(
      await moderator.api.copyright.staffClaims({ query: { status: 'countered', limit: 100 } }),
      200,
    ).body.data.claims.find((c) => c.id === made.id);
    expect(listed).toMatchObject({ counter_statement: counter.statement, counter_signature: 'Theo Martin' });

    const rejected = expectStatus(await decide(moderator, made.id, 'rejected'), 200).body.data.claim;
    expect(rejected).toMatchObject({
      status: 'rejected',
      decided_by: moderator.id,
      decision_note: 'rejected after review',
    });
    expect(refusal(await decide(moderator, made.id, 'upheld'))).toEqual([409, 'CONFLICT']);
    const back = await trackAs(stranger, track.id);
    expect(back.status).toBe(200);
    expect(back.body.data.track.moderation_status).toBeUndefined();

    const ownerNotes = await moderationNotices(owner, 2);
    expect(ownerNotes[0]!.message).toContain('rejected');
    const claimantNotes = await moderationNotices(claimant, 2);
    expect(claimantNotes[0]!.message).toContain('rejected');
    const log = await db().selectFrom('staff_log').selectAll().where('target_id', '=', made.id).execute();
    expect(log).toMatchObject([{ actor_id: moderator.id, action: 'copyright.reject', target_type: 'copyright_claim' }]);
    expect(await db().selectFrom('strikes').selectAll().where('user_id', '=', owner.id).execute()).toEqual([]);
  });

  it('upheld removes the track and gives its owner a strike; a moderator never decides on their own track', async () => {
    const [owner, claimant] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const moderator = await createModerator();
    const admin = await createAdmin(suite.server);
    const track = await createTrack(suite.server, owner);
    const made = await claim(claimant, track.id);

    // staff limits: nobody on their own track, a moderator never on an admin's
    const ownTrack = await createTrack(suite.server, moderator);
    const onOwn = await claim(claimant, ownTrack.id);
    expect(refusal(await decide(moderator, onOwn.id, 'rejected'))).toEqual([403, 'FORBIDDEN']);
    const adminTrack = await createTrack(suite.server, admin);
    const onAdmin = await claim(claimant, adminTrack.id);
    expect(refusal(await decide(moderator, onAdmin.id, 'rejected'))).toEqual([403, 'FORBIDDEN']);

    expectStatus(await decide(moderator, made.id, 'upheld'), 200);
    const own = await trackAs(owner, track.id);
    expect(own.body.data.track).toMatchObject({ moderation_status: 'removed', moderation_reason: 'copyright claim' });
    expect((await moderationNotices(owner, 2))[0]!.message).toContain('strike');
    expect((await moderationNotices(claimant, 1))[0]!.message).toContain('upheld');
    const exported = await suite.http.get('/users/me/export', { token: owner.accessToken });
    expect(exported.body.strikes).toMatchObject([{ claim_id: made.id, active: true }]);
    expect(exported.body.copyright_claims_received).toMatchObject([{ id: made.id, status: 'upheld' }]);
    const standing = expectStatus(await admin.api.admin.getUser({ params: { id: owner.id } }), 200).body.data;
    expect(JSON.stringify(standing)).toContain('"active_strikes":1');
  });

  it('without a counter-notice in 14 days, the job upholds the claim as the service', async () => {
    const [owner, claimant] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const track = await createTrack(suite.server, owner);
    const made = await claim(claimant, track.id);
    expect(await runJob(suite.server, 'copyright.uphold-unanswered')).toEqual({ upheld: 0 });
    await lapseCounterWindow(suite.server, made.id);
    const late = await owner.api.copyright.counter({
      params: { id: made.id },
      body: { statement: 'Too late', signature: 'Me' },
    });
    expect(refusal(late)).toEqual([400, 'COUNTER_WINDOW_CLOSED']);
    expect(await runJob(suite.server, 'copyright.uphold-unanswered')).toMatchObject({ upheld: 1 });
    expect(await runJob(suite.server, 'copyright.uphold-unanswered')).toEqual({ upheld: 0 });
    const received = expectStatus(await owner.api.copyright.myClaims(), 200).body.data.received;
    expect(received[0]).toMatchObject({ id: made.id, status: 'upheld' });
    expect((await trackAs(owner, track.id)).body.data.track.moderation_status).toBe('removed');
    const strikes = await db().selectFrom('strikes').selectAll().where('user_id', '=', owner.id).execute();
    expect(strikes).toHaveLength(1);
    const claimRow = await db().selectFrom('copyright_claims').selectAll().where('id', '=', made.id).executeTakeFirst();
    expect(claimRow).toMatchObject({ decided_by: null, status: 'upheld' });
  });
});

describe('strikes', () => {
  it('two stop uploads until they expire; three suspend the account until an admin lifts it', async () => {
    const [owner, claimant] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const admin = await createAdmin(suite.server);
    const tracks = [];
    for (let i = 0; i < 3; i++) tracks.push(await createTrack(suite.server, owner, { title: `Cover ${i}` }));
    const claims = [];
    for (const track of tracks) claims.push(await claim(claimant, track.id));

    expectStatus(await decide(admin, claims[0]!.id, 'upheld'), 200);
    expect((await upload(owner)).status).toBe(201);
    expectStatus(await decide(admin, claims[1]!.id, 'upheld'), 200);
    expect(refusal(await upload(owner))).toEqual([403, 'UPLOADS_DISABLED']);

    // twelve months on, the strikes no longer count
    await expireStrikes(suite.server, owner.id);
    expect((await upload(owner)).status).toBe(201);

    // three active strikes: suspended with no end
    const others = [];
    for (let i = 0; i < 3; i++) others.push(await createTrack(suite.server, owner, { title: `Again ${i}` }));
    for (const track of others) {
      const made = await claim(claimant, track.id);
      await lapseCounterWindow(suite.server, made.id);
    }
    expect(await runJob(suite.server, 'copyright.uphold-unanswered')).toMatchObject({ upheld: 3 });
    const login = await suite.http.post('/auth/login', { body: { email: owner.email, password: owner.password } });
    expect(refusal(login)).toEqual([401, 'ACCOUNT_SUSPENDED']);
    expect(login.body.error.details).toEqual([expect.objectContaining({ field: 'until', value: '' })]);
    const sanction = await db()
      .selectFrom('sanctions')
      .selectAll()
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(sanction).toMatchObject({ kind: 'suspend', ends_at: null, actor_id: null });
    expect(sanction.reason).toContain('Repeat copyright infringement');
  });
});

describe('account data', () => {
  it('the export holds both sides; an erased claimant’s claims keep no personal data', async () => {
    const [owner, claimant] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const moderator = await createModerator();
    const track = await createTrack(suite.server, owner);
    const made = await claim(claimant, track.id);
    const exported = await suite.http.get('/users/me/export', { token: claimant.accessToken });
    expect(exported.body.copyright_claims_made).toMatchObject([
      { id: made.id, claimant_email: CLAIMANT_EMAIL, signature: 'Ana Lima' },
    ]);
    expect(exported.body.strikes).toEqual([]);

    const erased = await suite.http.delete('/users/me', {
      token: claimant.accessToken,
      body: { confirm_text: 'DELETE', password: claimant.password },
    });
    expect(erased.status).toBeLessThan(300);
    const listed = expectStatus(
      await moderator.api.copyright.staffClaims({ query: { status: 'pending', limit: 100 } }),
      200,
    ).body.data.claims.find((c) => c.id === made.id);
    expect(listed).toMatchObject({ claimant_id: null, claimant_name: null, claimant_email: null, signature: null });
    expect(listed!.work_description).toBe(made.work_description);
  });
});
