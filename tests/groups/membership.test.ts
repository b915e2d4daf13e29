import { describe, expect, it } from 'vitest';
import { createGroup, createUser, type TestUser } from '../support/factories.js';
import { seedVerifiedUsers } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { errorOf } from './group-helpers.js';

const suite = useTestServer();

const groupOf = async (user: TestUser, id: string) =>
  expectStatus(await user.api.groups.get({ params: { id } }), 200).body.data.group;
const membersOf = async (user: TestUser, id: string) =>
  expectStatus(await user.api.groups.members({ params: { id }, query: {} }), 200).body.data.members.map((m) => [
    m.user.id,
    m.role,
  ]);

describe('joining by the group’s policy, leaving', () => {
  it('open: member at once; leave; the owner cannot leave (400)', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const group = await createGroup(suite.server, owner, { join_policy: 'open' });
    const joined = expectStatus(await fan.api.groups.join({ params: { id: group.id } }), 200).body.data.group;
    expect(joined).toMatchObject({ my_role: 'member', my_status: 'member', member_count: 2 });
    // joining again changes nothing
    expect(
      expectStatus(await fan.api.groups.join({ params: { id: group.id } }), 200).body.data.group.member_count,
    ).toBe(2);
    expect(await membersOf(fan, group.id)).toEqual([
      [owner.id, 'owner'],
      [fan.id, 'member'],
    ]);
    const left = expectStatus(await fan.api.groups.leave({ params: { id: group.id } }), 200).body.data.group;
    expect(left).toMatchObject({ my_role: null, my_status: null, member_count: 1 });
    expect(errorOf(await fan.api.groups.leave({ params: { id: group.id } }))).toEqual([400, 'BAD_REQUEST']);
    expect(errorOf(await owner.api.groups.leave({ params: { id: group.id } }))).toEqual([400, 'BAD_REQUEST']);
  });

  it('request: pending until an admin approves or denies; admins alone see the requests', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const late = await createUser(suite.server);
    const group = await createGroup(suite.server, owner, { join_policy: 'request' });
    const pending = expectStatus(await fan.api.groups.join({ params: { id: group.id } }), 200).body.data.group;
    expect(pending).toMatchObject({ my_role: null, my_status: 'pending', member_count: 1 });
    expectStatus(await late.api.groups.join({ params: { id: group.id } }), 200);
    expect(errorOf(await fan.api.groups.requests({ params: { id: group.id }, query: {} }))).toEqual([403, 'FORBIDDEN']);
    const requests = expectStatus(await owner.api.groups.requests({ params: { id: group.id }, query: {} }), 200).body
      .data;
    expect(requests.requests.map((r) => r.user.id)).toEqual([fan.id, late.id]);
    expect(errorOf(await fan.api.groups.approveRequest({ params: { id: group.id, userId: fan.id } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    const member = expectStatus(
      await owner.api.groups.approveRequest({ params: { id: group.id, userId: fan.id } }),
      200,
    ).body.data.member;
    expect(member).toMatchObject({ user: { id: fan.id }, role: 'member' });
    expectStatus(await owner.api.groups.denyRequest({ params: { id: group.id, userId: late.id } }), 200);
    expect(errorOf(await owner.api.groups.denyRequest({ params: { id: group.id, userId: late.id } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(await groupOf(fan, group.id)).toMatchObject({ my_role: 'member', my_status: 'member', member_count: 2 });
    expect(await groupOf(late, group.id)).toMatchObject({ my_role: null, my_status: null });
    // a pending request is withdrawn by leaving
    expectStatus(await late.api.groups.join({ params: { id: group.id } }), 200);
    expect(
      expectStatus(await late.api.groups.leave({ params: { id: group.id } }), 200).body.data.group.my_status,
    ).toBeNull();
  });

  it('invite: 403 without an invite; the invited see a private group, accept or decline', async () => {
    const owner = await createUser(suite.server);
    const guest = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const decliner = await createUser(suite.server);
    const open = await createGroup(suite.server, owner, { visibility: 'public', join_policy: 'invite' });
    expect(errorOf(await stranger.api.groups.join({ params: { id: open.id } }))).toEqual([403, 'FORBIDDEN']);
    const group = await createGroup(suite.server, owner, { visibility: 'private', join_policy: 'invite' });
    expect((await guest.api.groups.get({ params: { id: group.id } })).status).toBe(404);
    const invite = expectStatus(
      await owner.api.groups.invite({ params: { id: group.id }, body: { user_id: guest.id } }),
      201,
    ).body.data.invite;
    expect(invite).toMatchObject({ user_id: guest.id, invited_by: owner.id, status: 'pending' });
    expect(errorOf(await owner.api.groups.invite({ params: { id: group.id }, body: { user_id: guest.id } }))).toEqual([
      409,
      'CONFLICT',
    ]);
    expect(await groupOf(guest, group.id)).toMatchObject({ my_role: null, my_status: 'invited' });
    // holding an invite is not membership: the members of a private group stay the members'
    expect(errorOf(await guest.api.groups.members({ params: { id: group.id }, query: {} }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    const mine = expectStatus(await guest.api.groups.myInvites({ query: {} }), 200).body.data.invites;
    expect(mine.map((i) => [i.id, i.group.id, i.group.my_status])).toEqual([[invite.id, group.id, 'invited']]);
    expect(errorOf(await stranger.api.groups.acceptInvite({ params: { inviteId: invite.id } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    const accepted = expectStatus(await guest.api.groups.acceptInvite({ params: { inviteId: invite.id } }), 200).body
      .data.group;
    expect(accepted).toMatchObject({ my_role: 'member', my_status: 'member', member_count: 2 });
    expect(expectStatus(await guest.api.groups.myInvites({ query: {} }), 200).body.data.invites).toEqual([]);

    const declined = expectStatus(
      await owner.api.groups.invite({ params: { id: group.id }, body: { user_id: decliner.id } }),
      201,
    ).body.data.invite;
    expectStatus(await decliner.api.groups.declineInvite({ params: { inviteId: declined.id } }), 200);
    expect(expectStatus(await decliner.api.groups.myInvites({ query: {} }), 200).body.data.invites).toEqual([]);
    expect((await decliner.api.groups.get({ params: { id: group.id } })).status).toBe(404);
    expect(errorOf(await decliner.api.groups.acceptInvite({ params: { inviteId: declined.id } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
  });

  it('a user blocked either way with an admin of the group cannot be invited (403)', async () => {
    const owner = await createUser(suite.server);
    const admin = await createUser(suite.server);
    const blocker = await createUser(suite.server);
    const blocked = await createUser(suite.server);
    const group = await createGroup(suite.server, owner, { join_policy: 'open' });
    expectStatus(await admin.api.groups.join({ params: { id: group.id } }), 200);
    expectStatus(
      await owner.api.groups.setRole({ params: { id: group.id, userId: admin.id }, body: { role: 'admin' } }),
      200,
    );
    expect((await suite.http.post(`/users/${admin.id}/block`, { token: blocker.token })).status).toBe(200);
    expect((await suite.http.post(`/users/${blocked.id}/block`, { token: admin.token })).status).toBe(200);
    for (const user of [blocker, blocked]) {
      expect(errorOf(await owner.api.groups.invite({ params: { id: group.id }, body: { user_id: user.id } }))).toEqual([
        403,
        'FORBIDDEN',
      ]);
    }
  });
});

describe('parallel joins and accepts keep member_count exact', () => {
  it('parallel joins of an open group, and two parallel accepts of one invite', async () => {
    const owner = await createUser(suite.server);
    const fans = await Promise.all(Array.from({ length: 5 }, () => createUser(suite.server)));
    const group = await createGroup(suite.server, owner, { join_policy: 'open' });
    const replies = await Promise.all(
      [...fans, ...fans].map((fan) => fan.api.groups.join({ params: { id: group.id } })),
    );
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));
    expect((await groupOf(owner, group.id)).member_count).toBe(6);

    const guest = await createUser(suite.server);
    const invite = expectStatus(
      await owner.api.groups.invite({ params: { id: group.id }, body: { user_id: guest.id } }),
      201,
    ).body.data.invite;
    const accepts = await Promise.all([
      guest.api.groups.acceptInvite({ params: { inviteId: invite.id } }),
      guest.api.groups.acceptInvite({ params: { inviteId: invite.id } }),
    ]);
    expect(accepts.map((reply) => reply.status)).toEqual([200, 200]);
    expect((await groupOf(owner, group.id)).member_count).toBe(7);
    const all = expectStatus(await owner.api.groups.members({ params: { id: group.id }, query: { limit: 100 } }), 200)
      .body.data;
    expect(all.pagination.total).toBe(7);
  });
});

describe('roles, removals, bans and transfer', () => {
  async function staffedGroup() {
    const owner = await createUser(suite.server);
    const [admin, moderator, member, other] = await Promise.all(
      Array.from({ length: 4 }, () => createUser(suite.server)),
    );
    const group = await createGroup(suite.server, owner, { join_policy: 'open' });
    for (const user of [admin, moderator, member, other]) {
      expectStatus(await user!.api.groups.join({ params: { id: group.id } }), 200);
    }
    expectStatus(
      await owner.api.groups.setRole({ params: { id: group.id, userId: admin!.id }, body: { role: 'admin' } }),
      200,
    );
    expectStatus(
      await admin!.api.groups.setRole({ params: { id: group.id, userId: moderator!.id }, body: { role: 'moderator' } }),
      200,
    );
    return { owner, admin: admin!, moderator: moderator!, member: member!, other: other!, group };
  }

  it('the owner sets admins; admins set moderators and members; nobody touches the owner', async () => {
    const { owner, admin, moderator, member, group } = await staffedGroup();
    const id = group.id;
    expect(
      errorOf(await admin.api.groups.setRole({ params: { id, userId: member.id }, body: { role: 'admin' } })),
    ).toEqual([403, 'FORBIDDEN']);
    expect(
      errorOf(await admin.api.groups.setRole({ params: { id, userId: owner.id }, body: { role: 'member' } })),
    ).toEqual([403, 'FORBIDDEN']);
    expect(
      errorOf(await owner.api.groups.setRole({ params: { id, userId: owner.id }, body: { role: 'admin' } })),
    ).toEqual([403, 'FORBIDDEN']);
    expect(
      errorOf(await moderator.api.groups.setRole({ params: { id, userId: member.id }, body: { role: 'moderator' } })),
    ).toEqual([403, 'FORBIDDEN']);
    const promoted = expectStatus(
      await admin.api.groups.setRole({ params: { id, userId: member.id }, body: { role: 'moderator' } }),
      200,
    ).body.data.member;
    expect(promoted.role).toBe('moderator');
    expect(
      errorOf(await admin.api.groups.setRole({ params: { id, userId: admin.id }, body: { role: 'member' } })),
    ).toEqual([403, 'FORBIDDEN']);
    const outsider = await createUser(suite.server);
    expect(
      errorOf(await owner.api.groups.setRole({ params: { id, userId: outsider.id }, body: { role: 'member' } })),
    ).toEqual([404, 'NOT_FOUND']);
    expect(await groupOf(member, id)).toMatchObject({ my_role: 'moderator' });
    const admins = expectStatus(await member.api.groups.members({ params: { id }, query: { role: 'admin' } }), 200).body
      .data.members;
    expect(admins.map((m) => m.user.id)).toEqual([admin.id]);
  });

  it('moderators remove members, admins moderators, never the owner', async () => {
    const { owner, admin, moderator, member, other, group } = await staffedGroup();
    const id = group.id;
    expect(errorOf(await member.api.groups.removeMember({ params: { id, userId: other.id } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(errorOf(await moderator.api.groups.removeMember({ params: { id, userId: admin.id } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expectStatus(await moderator.api.groups.removeMember({ params: { id, userId: other.id } }), 200);
    expect(errorOf(await admin.api.groups.removeMember({ params: { id, userId: owner.id } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expectStatus(await admin.api.groups.removeMember({ params: { id, userId: moderator.id } }), 200);
    expect(errorOf(await admin.api.groups.removeMember({ params: { id, userId: moderator.id } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect((await groupOf(owner, id)).member_count).toBe(3);
    // a removed member may come back (a ban keeps them out)
    expectStatus(await other.api.groups.join({ params: { id } }), 200);
  });

  it('a ban removes the user and keeps them out of joining, requesting and invites', async () => {
    const { owner, admin, moderator, member, group } = await staffedGroup();
    const id = group.id;
    expect(errorOf(await moderator.api.groups.ban({ params: { id, userId: member.id } }))).toEqual([403, 'FORBIDDEN']);
    expect(errorOf(await admin.api.groups.ban({ params: { id, userId: owner.id } }))).toEqual([403, 'FORBIDDEN']);
    expectStatus(await admin.api.groups.ban({ params: { id, userId: member.id } }), 200);
    expect(await groupOf(member, id)).toMatchObject({ my_role: null, member_count: 4 });
    expect(errorOf(await member.api.groups.join({ params: { id } }))).toEqual([403, 'FORBIDDEN']);
    expectStatus(await owner.api.groups.update({ params: { id }, body: { join_policy: 'request' } }), 200);
    expect(errorOf(await member.api.groups.join({ params: { id } }))).toEqual([403, 'FORBIDDEN']);
    expect(errorOf(await owner.api.groups.invite({ params: { id }, body: { user_id: member.id } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
  });

  it('transfer: the owner to a member only (else 400); the old owner becomes an admin', async () => {
    const { owner, admin, member, group } = await staffedGroup();
    const id = group.id;
    const outsider = await createUser(suite.server);
    expect(errorOf(await admin.api.groups.transfer({ params: { id }, body: { user_id: admin.id } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(errorOf(await owner.api.groups.transfer({ params: { id }, body: { user_id: outsider.id } }))).toEqual([
      400,
      'BAD_REQUEST',
    ]);
    expect(errorOf(await owner.api.groups.transfer({ params: { id }, body: { user_id: owner.id } }))).toEqual([
      400,
      'BAD_REQUEST',
    ]);
    const passed = expectStatus(await owner.api.groups.transfer({ params: { id }, body: { user_id: member.id } }), 200)
      .body.data.group;
    expect(passed).toMatchObject({ owner_id: member.id, my_role: 'admin', member_count: 5 });
    expect(await groupOf(member, id)).toMatchObject({ my_role: 'owner' });
    // the former owner may leave now
    expectStatus(await owner.api.groups.leave({ params: { id } }), 200);
    expect(errorOf(await owner.api.groups.remove({ params: { id } }))).toEqual([403, 'FORBIDDEN']);
  });
});

describe('limits on what reaches others', () => {
  it('join requests: 20 an hour per user, asking again while pending is free; the 21st is 429 with Retry-After', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const group = await createGroup(suite.server, owner, { join_policy: 'request' });
    const params = { id: group.id };
    for (let i = 0; i < 20; i++) {
      expect(expectStatus(await fan.api.groups.join({ params }), 200).body.data.group.my_status).toBe('pending');
      // the request stands: asking again changes nothing and is not counted
      expectStatus(await fan.api.groups.join({ params }), 200);
      expect(expectStatus(await fan.api.groups.leave({ params }), 200).body.data.group.my_status).toBeNull();
    }
    const limited = expectStatus(await fan.api.groups.join({ params }), 429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    // nothing was asked: the owner sees no request
    const requests = expectStatus(await owner.api.groups.requests({ params, query: {} }), 200).body.data;
    expect(requests.pagination.total).toBe(0);
    // joining an open group is no request: not limited
    const open = await createGroup(suite.server, owner, { join_policy: 'open' });
    expect(expectStatus(await fan.api.groups.join({ params: { id: open.id } }), 200).body.data.group.my_role).toBe(
      'member',
    );
  });

  it('invites: 100 an hour per inviting user; refused ones (a member, twice the same user) do not count', async () => {
    const owner = await createUser(suite.server);
    const member = await createUser(suite.server);
    const group = await createGroup(suite.server, owner, { join_policy: 'open' });
    expectStatus(await member.api.groups.join({ params: { id: group.id } }), 200);
    // 101 accounts that may be invited
    const invitees = await seedVerifiedUsers(suite.server, 101);
    const invite = (userId: string) => owner.api.groups.invite({ params: { id: group.id }, body: { user_id: userId } });
    expect(errorOf(await invite(member.id))).toEqual([409, 'CONFLICT']);
    for (const userId of invitees.slice(0, 99)) expectStatus(await invite(userId), 201);
    expect(errorOf(await invite(invitees[0]!))).toEqual([409, 'CONFLICT']);
    expectStatus(await invite(invitees[99]!), 201);
    const limited = expectStatus(await invite(invitees[100]!), 429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(60);
  });
});
