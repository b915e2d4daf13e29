import { describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { chatToken, connectLive, liveUrl } from '../queue/live-client.js';

// The inbox over HTTP: what a client reads and sends, and the refusals. The rules (who is told of
// what, folding, blocks, the digest) are in notifications.service.test.ts.
const suite = useTestServer();

/** The user's inbox once the job has made `count` notifications (they come shortly after the event). */
async function inboxOf(user: TestUser, count: number, query = '') {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const reply = await suite.http.get(`/notifications${query}`, { token: user.accessToken });
    expect(reply.status).toBe(200);
    if (reply.body.data.notifications.length >= count || Date.now() > deadline) return reply.body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('GET /notifications and friends', () => {
  it('a follow arrives in the inbox, is counted unread, read by id or all, and deleted', async () => {
    const owner = await createUser(suite.server);
    const fans = [await createUser(suite.server), await createUser(suite.server), await createUser(suite.server)];
    for (const fan of fans) {
      const followed = await suite.http.post(`/users/${owner.id}/follow`, { token: fan.accessToken });
      expect(followed.status).toBeLessThan(300);
    }
    const inbox = await inboxOf(owner, 3);
    expect(inbox.pagination).toEqual({ page: 1, limit: 20, total: 3, total_pages: 1 });
    // newest first
    expect(inbox.notifications.map((note: { actor: { id: string } }) => note.actor.id)).toEqual(
      fans.map((fan) => fan.id).reverse(),
    );
    expect(inbox.notifications[0]).toMatchObject({
      type: 'follow',
      count: 1,
      actors: [],
      subject: { type: 'user', id: fans[2]!.id },
      read_at: null,
    });
    const unread = async () =>
      (await suite.http.get('/notifications/unread-count', { token: owner.accessToken })).body.data.count;
    expect(await unread()).toBe(3);
    const ids = inbox.notifications.map((note: { id: string }) => note.id) as string[];
    const read = await suite.http.post('/notifications/read', { token: owner.accessToken, body: { ids: [ids[0]] } });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ updated: 1 });
    expect(await unread()).toBe(2);
    const unreadPage = await suite.http.get('/notifications?unread=true&limit=1', { token: owner.accessToken });
    expect(unreadPage.body.data.pagination).toEqual({ page: 1, limit: 1, total: 2, total_pages: 2 });
    expect(unreadPage.body.data.notifications.map((note: { id: string }) => note.id)).toEqual([ids[1]]);
    const all = await suite.http.post('/notifications/read', { token: owner.accessToken, body: { all: true } });
    expect(all.body.data).toEqual({ updated: 2 });
    expect(await unread()).toBe(0);
    const readOne = (await inboxOf(owner, 3)).notifications[0];
    expect(Date.parse(readOne.read_at)).not.toBeNaN();
    // another user's notification is not found; one's own is deleted once
    const stranger = fans[0]!;
    expect((await suite.http.delete(`/notifications/${ids[0]}`, { token: stranger.accessToken })).status).toBe(404);
    const removed = await suite.http.delete(`/notifications/${ids[0]}`, { token: owner.accessToken });
    expect(removed.status).toBe(200);
    expect((await suite.http.delete(`/notifications/${ids[0]}`, { token: owner.accessToken })).status).toBe(404);
    expect((await inboxOf(owner, 2)).pagination.total).toBe(2);
  });

  it('refuses bad input in the error envelope, and every route needs a signed-in user', async () => {
    const user = await createUser(suite.server);
    const bad = async (body: unknown) => {
      const reply = await suite.http.post('/notifications/read', { token: user.accessToken, body });
      expect(reply.status).toBe(400);
      return reply.body.error.code;
    };
    expect(await bad({})).toBe('VALIDATION_FAILED');
    expect(await bad({ all: true, ids: ['3e7a1c9b-5d2f-4a8e-b6c1-0f9d2e4a7b3c'] })).toBe('VALIDATION_FAILED');
    expect(await bad({ all: false })).toBe('VALIDATION_FAILED');
    expect(await bad({ ids: [] })).toBe('VALIDATION_FAILED');
    expect(await bad({ ids: ['not-an-id'] })).toBe('VALIDATION_FAILED');
    expect(await bad({ ids: Array.from({ length: 101 }, () => crypto.randomUUID()) })).toBe('VALIDATION_FAILED');
    const badId = await suite.http.delete('/notifications/not-an-id', { token: user.accessToken });
    expect([badId.status, badId.body.error.code]).toEqual([400, 'INVALID_ID']);
    const badPage = await suite.http.get('/notifications?limit=101', { token: user.accessToken });
    expect([badPage.status, badPage.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    for (const [method, path] of [
      ['get', '/notifications'],
      ['get', '/notifications/unread-count'],
    ] as const) {
      const reply = await suite.http[method](path);
      expect([reply.status, reply.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
    }
  });

  it('preferences hold every notification type, in the inbox and not by mail until changed', async () => {
    const user = await createUser(suite.server);
    const before = await suite.http.get('/users/me/preferences', { token: user.accessToken });
    expect(before.status).toBe(200);
    const { notifications } = before.body.data.preferences;
    expect(notifications.sale).toEqual({ in_app: true, email: false });
    expect(notifications.announcement).toEqual({ in_app: true, email: false });
    const changed = await suite.http.put('/users/me/preferences', {
      token: user.accessToken,
      body: { notifications: { sale: { email: true } } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.preferences.notifications.sale).toEqual({ in_app: true, email: true });
    const wrong = await suite.http.put('/users/me/preferences', {
      token: user.accessToken,
      body: { notifications: { sale: { email: 'yes' } } },
    });
    expect([wrong.status, wrong.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});

describe('notifications in the account’s data', () => {
  /** The caller's export once it holds `count` notifications (a job makes them shortly after the event). */
  async function exportOf(user: TestUser, count: number) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const reply = await suite.http.get('/users/me/export', { token: user.accessToken });
      expect(reply.status).toBe(200);
      if (reply.body.notifications.length >= count || Date.now() > deadline) return reply.body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('the export holds every notification and the choices per type; deletion erases them and its name in others’', async () => {
    const [owner, fan, later] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    expect((await suite.http.post(`/users/${owner.id}/follow`, { token: fan.accessToken })).status).toBeLessThan(300);
    const [shown] = (await inboxOf(owner, 1)).notifications;
    expect(
      (await suite.http.post('/notifications/read', { token: owner.accessToken, body: { all: true } })).status,
    ).toBe(200);
    // follows by mail only from now on: the next one is kept for the digest, not shown in the inbox
    const chosen = await suite.http.put('/users/me/preferences', {
      token: owner.accessToken,
      body: { notifications: { follow: { in_app: false, email: true } } },
    });
    expect(chosen.status).toBe(200);
    expect((await suite.http.post(`/users/${owner.id}/follow`, { token: later.accessToken })).status).toBeLessThan(300);
    // the owner follows the fan: a notification of the fan's that names the owner
    expect((await suite.http.post(`/users/${fan.id}/follow`, { token: owner.accessToken })).status).toBeLessThan(300);
    expect((await inboxOf(fan, 1)).notifications[0].actor.id).toBe(owner.id);

    const document = await exportOf(owner, 2);
    expect(document.preferences.notifications.follow).toEqual({ in_app: false, email: true });
    expect(document.preferences.notifications.sale).toEqual({ in_app: true, email: false });
    expect(document.notifications).toHaveLength(2);
    const [mailed, read] = document.notifications;
    expect(read).toEqual({
      id: shown.id,
      type: 'follow',
      actor_ids: [fan.id],
      count: 1,
      subject: { type: 'user', id: fan.id, title: fan.username },
      message: shown.message,
      created_at: shown.created_at,
      read_at: expect.any(String),
      in_app: true,
    });
    expect(mailed).toMatchObject({ type: 'follow', actor_ids: [later.id], read_at: null, in_app: false });
    expect((await inboxOf(owner, 1)).pagination.total).toBe(1);

    const deleted = await suite.http.delete('/users/me', {
      token: owner.accessToken,
      body: { confirm_text: 'DELETE', password: owner.password },
    });
    expect(deleted.status).toBe(200);
    const db = suite.server.riff.database.db;
    expect(await db.selectFrom('notifications').select('id').where('user_id', '=', owner.id).execute()).toEqual([]);
    expect(await db.selectFrom('user_preferences').select('user_id').where('user_id', '=', owner.id).execute()).toEqual(
      [],
    );
    // the fan keeps their notification; it no longer names the erased account, in the inbox or the export
    const fans = (await suite.http.get('/users/me/export', { token: fan.accessToken })).body.notifications;
    expect(fans).toEqual([expect.objectContaining({ type: 'follow', actor_ids: [] })]);
    expect((await inboxOf(fan, 1)).notifications[0].actor).toBeNull();
  });
});

describe('live notifications', () => {
  it('a signed-in socket hears each notification as it is made, as the inbox shows it, and nothing of a blocked user', async () => {
    const [owner, fan, blocked, stranger] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    expect((await suite.http.post(`/users/${blocked.id}/block`, { token: owner.accessToken })).status).toBeLessThan(
      300,
    );
    const ownerSocket = await connectLive(liveUrl(suite.server, await chatToken(suite.server, owner)));
    const strangerSocket = await connectLive(liveUrl(suite.server, await chatToken(suite.server, stranger)));
    try {
      // a blocked user's follow is refused or silent; the fan's follow is pushed
      await suite.http.post(`/users/${owner.id}/follow`, { token: blocked.accessToken });
      expect((await suite.http.post(`/users/${owner.id}/follow`, { token: fan.accessToken })).status).toBeLessThan(300);
      const pushed = await ownerSocket.next('notification', 10_000);
      const inbox = await inboxOf(owner, 1);
      expect(inbox.notifications).toHaveLength(1);
      // the same notification, in the same shape, as GET /notifications shows it
      expect(pushed.data).toEqual(inbox.notifications[0]);
      expect(pushed.data).toMatchObject({ type: 'follow', actor: { id: fan.id } });
      expect(ownerSocket.received.filter((message) => message.type === 'notification')).toHaveLength(1);
      // nobody else's socket hears it
      expect(strangerSocket.received.some((message) => message.type === 'notification')).toBe(false);
    } finally {
      await Promise.all([ownerSocket.close(), strangerSocket.close()]);
    }
  });
});
