import { describe, expect, it } from 'vitest';
import { GROUPS_OWNED_MAX } from '@riff/contract';
import { createAdmin } from '../support/admin-factory.js';
import { createGroup, createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { errorOf } from './group-helpers.js';

const suite = useTestServer();

describe('groups: create, read, list, edit, delete', () => {
  it('creates a group: 201, slug from the name, the owner its first member', async () => {
    const owner = await createUser(suite.server);
    const name = `Night Drive ${owner.username}`;
    const reply = await owner.api.groups.create({
      body: { name: `  ${name}  `, description: 'stems', visibility: 'public', join_policy: 'request' },
    });
    const group = expectStatus(reply, 201).body.data.group;
    expect(group).toMatchObject({
      name,
      description: 'stems',
      visibility: 'public',
      join_policy: 'request',
      owner_id: owner.id,
      member_count: 1,
      post_count: 0,
      avatar: null,
      my_role: 'owner',
      my_status: 'member',
    });
    expect(group.slug).toBe(name.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
    // the same name again gets -2
    const again = await createGroup(suite.server, owner, { name });
    expect(again.slug).toBe(`${group.slug}-2`);
    const bySlug = expectStatus(await suite.api.groups.bySlug({ params: { slug: group.slug } }), 200).body.data.group;
    expect(bySlug).toMatchObject({ id: group.id, my_role: null, my_status: null });
  });

  it('refuses a bad name (400) and the 11th owned group (400 LIMIT_REACHED)', async () => {
    const owner = await createUser(suite.server);
    const short = await suite.http.post('/groups', {
      token: owner.token,
      body: { name: 'ab', visibility: 'public', join_policy: 'open' },
    });
    expect(short.status).toBe(400);
    const policy = await suite.http.post('/groups', {
      token: owner.token,
      body: { name: 'abc', visibility: 'public', join_policy: 'anyone' },
    });
    expect(policy.status).toBe(400);
    for (let i = 0; i < GROUPS_OWNED_MAX; i++) await createGroup(suite.server, owner);
    const over = await owner.api.groups.create({
      body: { name: 'One too many', visibility: 'public', join_policy: 'open' },
    });
    expect(errorOf(over)).toEqual([400, 'LIMIT_REACHED']);
  });

  it('holds the limit under 6 parallel creations at 9 owned: exactly 10', async () => {
    const owner = await createUser(suite.server);
    for (let i = 0; i < GROUPS_OWNED_MAX - 1; i++) await createGroup(suite.server, owner);
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        owner.api.groups.create({ body: { name: `Parallel ${i}`, visibility: 'private', join_policy: 'open' } }),
      ),
    );
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(1);
    expect(replies.filter((reply) => reply.status === 400)).toHaveLength(5);
    const mine = expectStatus(await owner.api.groups.list({ query: { member: 'me', limit: 100 } }), 200).body.data;
    expect(mine.pagination.total).toBe(GROUPS_OWNED_MAX);
  });

  it('a private group is 404 to non-members and anonymous callers, visible to members and admins', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const admin = await createAdmin(suite.server);
    const group = await createGroup(suite.server, owner, { visibility: 'private', join_policy: 'invite' });
    expect(errorOf(await other.api.groups.get({ params: { id: group.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await suite.api.groups.get({ params: { id: group.id } }))).toEqual([404, 'NOT_FOUND']);
    expect((await other.api.groups.bySlug({ params: { slug: group.slug } })).status).toBe(404);
    expect((await other.api.groups.join({ params: { id: group.id } })).status).toBe(404);
    expect(
      expectStatus(await admin.api.groups.get({ params: { id: group.id } }), 200).body.data.group.my_role,
    ).toBeNull();
    expect((await suite.http.get(`/groups/not-a-uuid`)).status).toBe(400);
  });

  it('lists public groups and the private ones the caller belongs to; q finds by name; member=me', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const word = `zq${owner.username.replace(/[^a-z0-9]/gi, '').slice(-8)}`;
    const open = await createGroup(suite.server, owner, { name: `Open ${word}` });
    const hidden = await createGroup(suite.server, owner, { name: `Secret ${word}`, visibility: 'private' });
    const ownerList = expectStatus(await owner.api.groups.list({ query: { q: word } }), 200).body.data.groups;
    expect(ownerList.map((g) => g.id).sort()).toEqual([open.id, hidden.id].sort());
    const otherList = expectStatus(await other.api.groups.list({ query: { q: word } }), 200).body.data.groups;
    expect(otherList.map((g) => g.id)).toEqual([open.id]);
    const anonymous = expectStatus(await suite.api.groups.list({ query: { q: word } }), 200).body.data.groups;
    expect(anonymous.map((g) => g.id)).toEqual([open.id]);
    expect(expectStatus(await other.api.groups.list({ query: { member: 'me' } }), 200).body.data.groups).toEqual([]);
    expectStatus(await other.api.groups.join({ params: { id: open.id } }), 200);
    const mine = expectStatus(await other.api.groups.list({ query: { member: 'me' } }), 200).body.data.groups;
    expect(mine.map((g) => [g.id, g.my_role, g.my_status])).toEqual([[open.id, 'member', 'member']]);
  });

  it('owner and admins edit; members get 403; the owner alone deletes (soft: 404 after)', async () => {
    const owner = await createUser(suite.server);
    const member = await createUser(suite.server);
    const group = await createGroup(suite.server, owner, { name: `Editable ${owner.username}` });
    expectStatus(await member.api.groups.join({ params: { id: group.id } }), 200);
    expect(errorOf(await member.api.groups.update({ params: { id: group.id }, body: { description: 'x' } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expectStatus(
      await owner.api.groups.setRole({ params: { id: group.id, userId: member.id }, body: { role: 'admin' } }),
      200,
    );
    const edited = expectStatus(
      await member.api.groups.update({ params: { id: group.id }, body: { name: `Renamed ${owner.username}` } }),
      200,
    ).body.data.group;
    expect(edited).toMatchObject({ name: `Renamed ${owner.username}`, my_role: 'admin' });
    expect(edited.slug).toContain('renamed-');
    expect(errorOf(await member.api.groups.remove({ params: { id: group.id } }))).toEqual([403, 'FORBIDDEN']);
    expectStatus(await owner.api.groups.remove({ params: { id: group.id } }), 200);
    expect((await owner.api.groups.get({ params: { id: group.id } })).status).toBe(404);
    expect((await suite.api.groups.bySlug({ params: { slug: edited.slug } })).status).toBe(404);
  });
});
