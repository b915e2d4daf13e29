import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { lapseSuspension } from '../support/backdate.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { afterJobs, runJob } from '../support/jobs.js';
import { tokenFromMail, waitForMail } from '../support/mail.js';
import { createModerator as newModerator, moderationNotices as noticesOf } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct, orderRow, payInSandbox, productRow } from '../marketplace/order-helpers.js';
import { chatToken, closeOf, connectLive, liveUrl } from '../queue/live-client.js';

// Sanctions over HTTP: who may sanction whom, and what a suspension and a ban do to the account
// everywhere at once (sign-in, tokens, keys, sockets, content, orders), then undo.
const suite = useTestServer();
const db = () => suite.server.riff.database.db;
const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

const createModerator = () => newModerator(suite.server);

const post = (path: string, caller: TestUser | undefined, body?: unknown) =>
  suite.http.post(path, { ...(caller ? { token: caller.accessToken } : {}), ...(body ? { body } : {}) });
const refusal = (reply: { status: number; body: { error?: { code?: string } } }) => [
  reply.status,
  reply.body?.error?.code,
];
const login = (user: TestUser) =>
  suite.http.post('/auth/login', { body: { email: user.email, password: user.password } });

const moderationNotices = (_user: TestUser, token: string, count: number) => noticesOf(suite.server, token, count);

describe('who may sanction whom', () => {
  it('a user is refused every route; a moderator bans nobody, suspends at most 30 days and never an admin; nobody themselves', async () => {
    const [user, target] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const moderator = await createModerator();
    const admin = await createAdmin(suite.server);
    const routes = [
      ['warn', { reason: 'spam' }],
      ['suspend', { reason: 'spam', until: inDays(3) }],
      ['unsuspend', undefined],
      ['ban', { reason: 'spam' }],
      ['unban', undefined],
    ] as const;
    for (const [route, body] of routes) {
      expect(refusal(await post(`/admin/users/${target.id}/${route}`, user, body))).toEqual([403, 'FORBIDDEN']);
      expect(refusal(await post(`/admin/users/${target.id}/${route}`, undefined, body))[0]).toBe(401);
    }
    expect(refusal(await post(`/admin/users/${target.id}/ban`, moderator, { reason: 'spam' }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(refusal(await post(`/admin/users/${target.id}/unban`, moderator))).toEqual([403, 'FORBIDDEN']);
    expect(
      refusal(await post(`/admin/users/${target.id}/suspend`, moderator, { reason: 'spam', until: inDays(31) })),
    ).toEqual([403, 'FORBIDDEN']);
    // on an admin, nothing at all
    expect(refusal(await post(`/admin/users/${admin.id}/warn`, moderator, { reason: 'rude' }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(
      refusal(await post(`/admin/users/${admin.id}/suspend`, moderator, { reason: 'rude', until: inDays(1) })),
    ).toEqual([403, 'FORBIDDEN']);
    // nobody on themselves
    expect(refusal(await post(`/admin/users/${moderator.id}/warn`, moderator, { reason: 'me' }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(refusal(await post(`/admin/users/${admin.id}/ban`, admin, { reason: 'me' }))).toEqual([403, 'FORBIDDEN']);
    // bad input and unknown users
    const bad = async (body: unknown) => refusal(await post(`/admin/users/${target.id}/suspend`, admin, body));
    expect(await bad({ reason: 'spam', until: new Date(Date.now() - 60_000).toISOString() })).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect(await bad({ reason: 'spam', until: inDays(366) })).toEqual([400, 'VALIDATION_FAILED']);
    expect(await bad({ reason: '', until: inDays(2) })).toEqual([400, 'VALIDATION_FAILED']);
    expect(await bad({ reason: 'spam' })).toEqual([400, 'VALIDATION_FAILED']);
    expect(refusal(await post(`/admin/users/${crypto.randomUUID()}/warn`, moderator, { reason: 'x' }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(refusal(await post('/admin/users/not-an-id/warn', moderator, { reason: 'x' }))).toEqual([400, 'INVALID_ID']);
    expect(refusal(await post(`/admin/users/${target.id}/unsuspend`, moderator))).toEqual([409, 'CONFLICT']);

    // what a moderator may: a warning, a suspension of 30 days
    const warned = expectStatus(
      await moderator.api.sanctions.warn({ params: { id: target.id }, body: { reason: 'Spam links' } }),
      201,
    ).body.data.sanction;
    expect(warned).toMatchObject({ kind: 'warn', reason: 'Spam links', actor_id: moderator.id, ends_at: null });
    const until = inDays(30);
    const suspended = expectStatus(
      await moderator.api.sanctions.suspend({ params: { id: target.id }, body: { reason: 'Again', until } }),
      201,
    ).body.data.sanction;
    expect(suspended).toMatchObject({ kind: 'suspend', ends_at: until, lifted_at: null, lifted_by: null });

    // each in the staff log, with the account's standing before and after
    const log = await db()
      .selectFrom('staff_log')
      .selectAll()
      .where('target_id', '=', target.id)
      .orderBy('created_at')
      .execute();
    expect(log.map((entry) => [entry.action, entry.actor_id, entry.reason])).toEqual([
      ['user.warn', moderator.id, 'Spam links'],
      ['user.suspend', moderator.id, 'Again'],
    ]);
    expect(log[1]!.before).toMatchObject({ is_banned: false, suspended_at: null });
    expect(log[1]!.after).toMatchObject({ is_banned: false, suspended_until: until });
  });
});

describe('a suspension', () => {
  it('takes effect at once everywhere: tokens, refresh, sign-in, API key, open socket; lifted, the account is back and was told', async () => {
    const moderator = await createModerator();
    const user = await createUser(suite.server);
    const key = expectStatus(
      await user.api.developer.createApiKey({ body: { name: 'cli', scopes: ['read', 'write'] } }),
      201,
    ).body.data.key;
    expect((await suite.http.get('/users/me', { headers: { 'x-api-key': key } })).status).toBe(200);
    const socket = await connectLive(liveUrl(suite.server, await chatToken(suite.server, user)));
    const closed = closeOf(socket);

    const until = inDays(7);
    expectStatus(
      await moderator.api.sanctions.suspend({ params: { id: user.id }, body: { reason: 'Harassment', until } }),
      201,
    );
    expect((await closed).code).toBe(4401);
    expect(refusal(await suite.http.get('/users/me', { token: user.accessToken }))).toEqual([401, 'UNAUTHENTICATED']);
    // the hostile side: the key the user made before is no key any more
    expect(refusal(await suite.http.get('/users/me', { headers: { 'x-api-key': key } }))[0]).toBe(401);
    const refreshed = await suite.http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } });
    expect(refusal(refreshed)).toEqual([401, 'ACCOUNT_SUSPENDED']);
    const signIn = await login(user);
    expect(refusal(signIn)).toEqual([401, 'ACCOUNT_SUSPENDED']);
    expect(signIn.body.error.details).toEqual([{ field: 'until', message: expect.any(String), value: until }]);

    // the mail carries a one-time appeal link
    const mail = await waitForMail(suite.server.outboxDir, user.email, 'sanction-suspend');
    expect(mail.text).toContain('Harassment');
    const token = tokenFromMail(mail);
    const { sanctions } = suite.server.riff.areas;
    const named = await sanctions.sanctionByAppealToken(token);
    expect(named).toMatchObject({ userId: user.id, sanction: { kind: 'suspend', reason: 'Harassment' } });
    expect(await sanctions.sanctionByAppealToken(token)).toBeUndefined();

    const lifted = expectStatus(await moderator.api.sanctions.unsuspend({ params: { id: user.id } }), 200).body.data
      .sanction;
    expect(lifted).toMatchObject({ kind: 'suspend', lifted_by: moderator.id });
    expect(Date.parse(lifted.lifted_at!)).not.toBeNaN();
    const back = await login(user);
    expect(back.status).toBe(200);
    // keys are refused while the account is suspended, not revoked
    expect((await suite.http.get('/users/me', { headers: { 'x-api-key': key } })).status).toBe(200);
    const notes = await moderationNotices(user, back.body.token.access_token, 2);
    expect(notes.map((note) => note.message)).toEqual([
      expect.stringMatching(/suspension has ended/),
      expect.stringMatching(/suspended until .*: Harassment/),
    ]);
    expect(notes.every((note) => note.actor === null)).toBe(true);
  });

  it('ends by itself: at sign-in once its time has passed, and by the job', async () => {
    const admin = await createAdmin(suite.server);
    const [early, late] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    for (const user of [early, late])
      expectStatus(
        await admin.api.sanctions.suspend({ params: { id: user.id }, body: { reason: 'Cool off', until: inDays(2) } }),
        201,
      );
    expect(refusal(await login(early))).toEqual([401, 'ACCOUNT_SUSPENDED']);
    await lapseSuspension(suite.server, early.id);
    await lapseSuspension(suite.server, late.id);
    // sign-in lets the account in before the job ran
    expect((await login(early)).status).toBe(200);
    const ended = await runJob(suite.server, 'sanctions.end-suspensions');
    expect(ended).toMatchObject({ ended: expect.any(Number) });
    for (const user of [early, late]) {
      const rows = await db().selectFrom('sanctions').selectAll().where('user_id', '=', user.id).execute();
      expect(rows.map((row) => [row.kind, row.lifted_by, row.lifted_at !== null])).toEqual([['suspend', null, true]]);
    }
    expect((await login(late)).status).toBe(200);
    const account = await db()
      .selectFrom('users')
      .select(['suspended_at', 'suspended_until'])
      .where('id', '=', late.id)
      .executeTakeFirstOrThrow();
    expect(account).toEqual({ suspended_at: null, suspended_until: null });
    // run again: these stay as they are (other files' accounts may share a PostgreSQL database)
    await runJob(suite.server, 'sanctions.end-suspensions');
    const after = await db().selectFrom('sanctions').select('lifted_at').where('user_id', '=', late.id).execute();
    expect(after).toHaveLength(1);
  });

  it('fails the buyer’s pending orders', async () => {
    const moderator = await createModerator();
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const product = await createProduct(suite.server, seller, { priceCents: 500 });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    expect(order.status).toBe('pending');
    expectStatus(
      await moderator.api.sanctions.suspend({ params: { id: buyer.id }, body: { reason: 'Fraud', until: inDays(1) } }),
      201,
    );
    const failed = await afterJobs(suite.server, async () => {
      const row = await orderRow(suite.server, order.id);
      return row.status === 'failed' ? row : undefined;
    });
    expect(failed?.status).toBe('failed');
  });
});

describe('a ban', () => {
  it('hides the profile and content, archives products, keeps buyers’ purchases; an unban restores; admins only', async () => {
    const admin = await createAdmin(suite.server);
    const [seller, buyer, other] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const track = await createTrack(suite.server, seller, { title: 'Loop' });
    const product = await createProduct(suite.server, seller, { trackId: track.id, priceCents: 300 });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    await payInSandbox(suite.server, buyer.api, order);

    const ban = expectStatus(
      await admin.api.sanctions.ban({ params: { id: seller.id }, body: { reason: 'Stolen music' } }),
      201,
    ).body.data.sanction;
    expect(ban).toMatchObject({ kind: 'ban', actor_id: admin.id, ends_at: null, lifted_at: null });
    expect(refusal(await post(`/admin/users/${seller.id}/ban`, admin, { reason: 'twice' }))).toEqual([409, 'CONFLICT']);
    expect(refusal(await login(seller))).toEqual([401, 'ACCOUNT_BANNED']);
    expect(refusal(await suite.http.get('/users/me', { token: seller.accessToken }))[0]).toBe(401);
    expect((await suite.http.get(`/users/${seller.id}`, { token: other.accessToken })).status).toBe(404);
    expect((await suite.http.get(`/tracks/${track.id}`, { token: other.accessToken })).status).toBe(404);
    // staff still see the hidden track, with why
    const seen = await suite.http.get(`/tracks/${track.id}`, { token: admin.accessToken });
    expect(seen.status).toBe(200);
    expect(seen.body.data.track).toMatchObject({ moderation_status: 'hidden', moderation_reason: 'account banned' });
    expect((await productRow(suite.server, product.id)).status).toBe('archived');
    // the buyer keeps what they bought
    const link = expectStatus(await buyer.api.marketplace.download({ params: { product_id: product.id } }), 200).body;
    expect((await fetch(link.url)).status).toBe(200);
    await waitForMail(suite.server.outboxDir, seller.email, 'sanction-ban');

    expectStatus(await admin.api.sanctions.unban({ params: { id: seller.id } }), 200);
    expect((await suite.http.get(`/users/${seller.id}`, { token: other.accessToken })).status).toBe(200);
    const restored = await suite.http.get(`/tracks/${track.id}`, { token: other.accessToken });
    expect(restored.status).toBe(200);
    expect(restored.body.data.track.moderation_status).toBeUndefined();
    const back = await login(seller);
    expect(back.status).toBe(200);
    const notes = await moderationNotices(seller, back.body.token.access_token, 2);
    expect(notes.map((note) => note.message)).toEqual([
      expect.stringMatching(/ban was lifted/),
      expect.stringMatching(/banned: Stolen music/),
    ]);
    const actions = await db()
      .selectFrom('staff_log')
      .select('action')
      .where('target_id', '=', seller.id)
      .orderBy('created_at')
      .execute();
    expect(actions.map((entry) => entry.action)).toEqual(['user.ban', 'user.unban']);
  });
});

describe('account data', () => {
  it('the export lists the account’s sanctions; erasure removes them, and keeps those its owner decided as staff', async () => {
    const moderator = await createModerator();
    const user = await createUser(suite.server);
    expectStatus(await moderator.api.sanctions.warn({ params: { id: user.id }, body: { reason: 'Be kind' } }), 201);
    const exported = await suite.http.get('/users/me/export', { token: user.accessToken });
    expect(exported.status).toBe(200);
    expect(exported.body.sanctions).toEqual([
      expect.objectContaining({ kind: 'warn', reason: 'Be kind', actor_id: moderator.id }),
    ]);
    const erased = await suite.http.delete('/users/me', {
      token: user.accessToken,
      body: { password: user.password, confirm_text: 'DELETE' },
    });
    expect(erased.status).toBe(200);
    expect(await db().selectFrom('sanctions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);

    const target = await createUser(suite.server);
    expectStatus(await moderator.api.sanctions.warn({ params: { id: target.id }, body: { reason: 'Spam' } }), 201);
    const gone = await suite.http.delete('/users/me', {
      token: moderator.accessToken,
      body: { password: moderator.password, confirm_text: 'DELETE' },
    });
    expect(gone.status).toBe(200);
    const kept = await db().selectFrom('sanctions').selectAll().where('user_id', '=', target.id).execute();
    expect(kept.map((row) => row.actor_id)).toEqual([moderator.id]);
  });
});
