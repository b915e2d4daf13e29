import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { createUser, type TestUser } from '../support/factories.js';
import { runJob } from '../support/jobs.js';
import { useTestServer } from '../support/suite.js';

// An admin's announcement: queued at once, delivered by a job to every account of its audience
// as an announcement notification (the preference for the type decides the inbox), and logged.
const suite = useTestServer({}, {}, { ownDatabase: true });

/** The user's announcements once there are `count` (0: as they are now), within 10 s. */
async function announcementsOf(user: TestUser, count: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const reply = await suite.http.get('/notifications', { token: user.accessToken });
    expect(reply.status).toBe(200);
    const notes = (reply.body.data.notifications as { type: string; message: string }[]).filter(
      (note) => note.type === 'announcement',
    );
    if (notes.length >= count || Date.now() > deadline) return notes;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('POST /admin/announcements', () => {
  it('reaches every creator but not listeners, honours the type preference, and is admin only', async () => {
    const admin = await createAdmin(suite.server);
    const [creator, quietCreator, listener] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    for (const user of [creator, quietCreator]) {
      expect((await suite.http.post('/users/me/upgrade-creator', { token: user.accessToken })).status).toBe(200);
    }
    const prefs = await suite.http.put('/users/me/preferences', {
      token: quietCreator.accessToken,
      body: { notifications: { announcement: { in_app: false, email: false } } },
    });
    expect(prefs.status).toBe(200);

    const refused = await suite.http.post('/admin/announcements', {
      token: listener.accessToken,
      body: { message: 'Hi', audience: 'all' },
    });
    expect(refused.status).toBe(403);
    const bad = await suite.http.post('/admin/announcements', {
      token: admin.accessToken,
      body: { message: '', audience: 'everyone' },
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);

    const sent = await suite.http.post('/admin/announcements', {
      token: admin.accessToken,
      body: { message: 'Uploads pause on Sunday 02:00 UTC', audience: 'creators' },
    });
    expect(sent.status).toBe(202);
    expect(sent.body.data).toMatchObject({ message: 'Uploads pause on Sunday 02:00 UTC', audience: 'creators' });

    const [seen] = await announcementsOf(creator, 1);
    expect(seen).toMatchObject({ type: 'announcement', message: 'Uploads pause on Sunday 02:00 UTC', actor: null });
    // one batch told every account at once: the others' inboxes are final already
    expect(await announcementsOf(quietCreator, 0)).toEqual([]);
    expect(await announcementsOf(listener, 0)).toEqual([]);

    const log = await suite.http.get(`/admin/audit?action=announcement.send`, { token: admin.accessToken });
    expect(log.body.data.entries[0]).toMatchObject({
      actor_id: admin.id,
      target_id: sent.body.data.id,
      after: { audience: 'creators', message: 'Uploads pause on Sunday 02:00 UTC' },
    });
  });

  it('a batch run again (a worker that died after its commit) tells nobody twice', async () => {
    const admin = await createAdmin(suite.server);
    const user = await createUser(suite.server);
    const message = `Once only ${Date.now()}`;
    const sent = await suite.http.post('/admin/announcements', {
      token: admin.accessToken,
      body: { message, audience: 'all' },
    });
    expect(sent.status).toBe(202);
    expect((await announcementsOf(user, 1)).filter((note) => note.message === message)).toHaveLength(1);
    // every batch of it again, as the queue would retry them: the first, and the one after each 500 accounts
    await runJob(suite.server, 'notifications.announce', {
      announcement_id: sent.body.data.id,
      message,
      audience: 'all',
      after: null,
    });
    const notes = (await suite.http.get('/notifications?limit=100', { token: user.accessToken })).body.data
      .notifications as { message: string }[];
    expect(notes.filter((note) => note.message === message)).toHaveLength(1);
  });
});
