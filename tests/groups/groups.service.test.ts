import { describe, expect, it } from 'vitest';
import { GROUPS_OWNED_MAX } from '@riff/contract';
import { refusal } from '../support/refusal.js';
import { serviceGroup, serviceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of groups the service decides, called with an Actor: the HTTP tests hold the routes,
// the replies to the contract and the matrices.
const suite = useServices();

describe('groups (service)', () => {
  it('a transfer to a member who owns the most groups already is refused (400 LIMIT_REACHED)', async () => {
    const { membership } = suite.areas.groups.services;
    const owner = await serviceUser(suite);
    const busy = await serviceUser(suite);
    const group = await serviceGroup(suite, owner);
    await membership.join(busy, group.id);
    for (let i = 0; i < GROUPS_OWNED_MAX; i++) await serviceGroup(suite, busy);
    expect(await refusal(membership.transfer(owner, group.id, { user_id: busy.id }))).toMatchObject({
      status: 400,
      code: 'LIMIT_REACHED',
    });
  });

  it('the reader: a private group reaches its members, a user holding an invite and admins, nobody else', async () => {
    const { membership } = suite.areas.groups.services;
    const reader = suite.areas.groups.reader;
    const owner = await serviceUser(suite);
    const guest = await serviceUser(suite);
    const stranger = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const group = await serviceGroup(suite, owner, { visibility: 'private', join_policy: 'invite' });
    await membership.invite(owner, group.id, { user_id: guest.id });
    expect(await reader.readable(owner, group.id)).toMatchObject({
      id: group.id,
      role: 'owner',
      visibility: 'private',
    });
    expect(await reader.readable(guest, group.id)).toMatchObject({ id: group.id, role: null });
    expect(await reader.readable(stranger, group.id)).toBeUndefined();
    expect(await reader.readable(admin, group.id)).toMatchObject({ role: null });
    const many = await reader.readableMany(stranger, [group.id]);
    expect(many.size).toBe(0);
  });
});
