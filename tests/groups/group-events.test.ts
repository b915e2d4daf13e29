import { afterAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { createGroup, createUser, type TestUser } from '../support/factories.js';
import { afterJobs, runDueJobs } from '../support/jobs.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

const suite = useTestServer({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '0' });

const receivers: Receiver[] = [];
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
});

/** The user's inbox once it holds a notification of `type` (a job makes them; a worker may hold it a moment). */
const inbox = async (user: TestUser, type: string) => {
  const read = async () => expectStatus(await user.api.notifications.list({ query: {} }), 200).body.data.notifications;
  await afterJobs(suite.server, async () => ((await read()).some((n) => n.type === type) ? true : undefined));
  return read();
};

describe('notifications and webhooks of groups', () => {
  it('a join request tells the owner and the admins; a join tells the owner', async () => {
    const owner = await createUser(suite.server);
    const admin = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const group = await createGroup(suite.server, owner, { join_policy: 'open', name: `Told ${owner.username}` });
    expectStatus(await admin.api.groups.join({ params: { id: group.id } }), 200);
    expectStatus(
      await owner.api.groups.setRole({ params: { id: group.id, userId: admin.id }, body: { role: 'admin' } }),
      200,
    );
    const joined = await inbox(owner, 'group_joined');
    expect(joined.map((n) => [n.type, n.actor?.id, n.subject])).toEqual([
      ['group_joined', admin.id, { type: 'group', id: group.id, title: group.name }],
    ]);
    expectStatus(await owner.api.groups.update({ params: { id: group.id }, body: { join_policy: 'request' } }), 200);
    expectStatus(await fan.api.groups.join({ params: { id: group.id } }), 200);
    for (const user of [owner, admin]) {
      const requests = (await inbox(user, 'group_join_request')).filter((n) => n.type === 'group_join_request');
      expect(requests.map((n) => [n.actor?.id, n.subject?.id])).toEqual([[fan.id, group.id]]);
      expect(requests[0]!.message).toContain('asked to join your group');
    }
  });

  it('group.created and group.member_joined reach the owner’s webhook', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const receiver = await startReceiver();
    receivers.push(receiver);
    const hook = await suite.http.post('/webhooks', {
      token: owner.token,
      body: { url: receiver.url, events: ['group.created', 'group.member_joined'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const secret: string = hook.body.data.secret;
    const group = await createGroup(suite.server, owner, { join_policy: 'open' });
    expectStatus(await fan.api.groups.join({ params: { id: group.id } }), 200);
    await runDueJobs(suite.server);
    await receiver.waitFor(2);
    const messages = receiver.received.map((request) => receiver.verify(request, secret));
    expect(messages.map((message) => message.type).sort()).toEqual(['group.created', 'group.member_joined']);
    const joined = messages.find((message) => message.type === 'group.member_joined')!;
    expect(joined.data).toMatchObject({ user_id: fan.id, group: { id: group.id, owner_id: owner.id } });
  });
});

describe('account data and sanctions', () => {
  it('the export lists the memberships; erasure passes owned groups to the oldest admin, else hides them', async () => {
    const owner = await createUser(suite.server);
    const [first, second, fan] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const kept = await createGroup(suite.server, owner, { join_policy: 'open' });
    const alone = await createGroup(suite.server, owner, { join_policy: 'open' });
    const elsewhere = await createGroup(suite.server, fan, { join_policy: 'open' });
    for (const user of [first, second]) {
      expectStatus(await user.api.groups.join({ params: { id: kept.id } }), 200);
      expectStatus(
        await owner.api.groups.setRole({ params: { id: kept.id, userId: user.id }, body: { role: 'admin' } }),
        200,
      );
    }
    expectStatus(await fan.api.groups.join({ params: { id: alone.id } }), 200);
    expectStatus(await owner.api.groups.join({ params: { id: elsewhere.id } }), 200);
    const exported = await suite.http.get('/users/me/export', { token: owner.token });
    expect(exported.status).toBe(200);
    expect((exported.body.groups as { group_id: string; role: string }[]).map((m) => [m.group_id, m.role])).toEqual([
      [kept.id, 'owner'],
      [alone.id, 'owner'],
      [elsewhere.id, 'member'],
    ]);

    const erased = await suite.http.delete('/users/me', {
      token: owner.token,
      body: { confirm_text: 'DELETE', password: owner.password },
    });
    expect(erased.status).toBe(200);
    const passed = expectStatus(await first.api.groups.get({ params: { id: kept.id } }), 200).body.data.group;
    expect(passed).toMatchObject({ owner_id: first.id, my_role: 'owner', member_count: 2 });
    expect((await fan.api.groups.get({ params: { id: alone.id } })).status).toBe(404);
    const theirs = expectStatus(await fan.api.groups.get({ params: { id: elsewhere.id } }), 200).body.data.group;
    expect(theirs.member_count).toBe(1);
  });

  it('a ban takes the user out of others’ groups; their groups pass to their oldest admin, else hide (back on unban)', async () => {
    const admin = await createAdmin(suite.server);
    const banned = await createUser(suite.server);
    const [heir, fan] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const passing = await createGroup(suite.server, banned, { join_policy: 'open' });
    const hiding = await createGroup(suite.server, banned, { join_policy: 'open' });
    const joined = await createGroup(suite.server, fan, { join_policy: 'open' });
    expectStatus(await heir.api.groups.join({ params: { id: passing.id } }), 200);
    expectStatus(
      await banned.api.groups.setRole({ params: { id: passing.id, userId: heir.id }, body: { role: 'admin' } }),
      200,
    );
    expectStatus(await fan.api.groups.join({ params: { id: hiding.id } }), 200);
    expectStatus(await banned.api.groups.join({ params: { id: joined.id } }), 200);

    const ban = await suite.http.post(`/admin/users/${banned.id}/ban`, {
      token: admin.token,
      body: { reason: 'spam' },
    });
    expect(ban.status, ban.text).toBe(201);
    expect(expectStatus(await heir.api.groups.get({ params: { id: passing.id } }), 200).body.data.group).toMatchObject({
      owner_id: heir.id,
      my_role: 'owner',
      member_count: 1,
    });
    expect((await fan.api.groups.get({ params: { id: hiding.id } })).status).toBe(404);
    expect(
      expectStatus(await fan.api.groups.get({ params: { id: joined.id } }), 200).body.data.group.member_count,
    ).toBe(1);
    const listed = expectStatus(await fan.api.groups.list({ query: { member: 'me' } }), 200).body.data.groups;
    expect(listed.map((g) => g.id)).toEqual([joined.id]);

    expect((await suite.http.post(`/admin/users/${banned.id}/unban`, { token: admin.token })).status).toBe(200);
    expect((await fan.api.groups.get({ params: { id: hiding.id } })).status).toBe(200);
  });
});
