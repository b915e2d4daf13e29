import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createGroup, createUser } from '../support/factories.js';
import { makeModerator } from '../support/row-states.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { errorOf } from './group-helpers.js';

const suite = useTestServer();

const image = () =>
  sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 20, g: 140, b: 90 } } })
    .jpeg()
    .toBuffer();
const fileOf = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name);

describe('a group’s avatar, as a user’s', () => {
  it('owner and admins set it (both sizes); it is served where the group is visible', async () => {
    const owner = await createUser(suite.server);
    const member = await createUser(suite.server);
    const group = await createGroup(suite.server, owner, { visibility: 'private', join_policy: 'open' });
    const set = expectStatus(
      await owner.api.groups.setAvatar({ params: { id: group.id }, body: { file: fileOf(await image(), 'g.jpg') } }),
      200,
    ).body.data.group;
    expect(set.avatar).toMatch(new RegExp(`^https?://.+/api/v1/groups/${group.id}/avatar$`));
    for (const size of [512, 128] as const) {
      const reply = await fetch(`${suite.server.baseUrl}/api/v1/groups/${group.id}/avatar?size=${size}`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(reply.status).toBe(200);
      const meta = await sharp(Buffer.from(await reply.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([size, size]);
    }
    // private: others do not see it
    expect((await fetch(`${suite.server.baseUrl}/api/v1/groups/${group.id}/avatar`)).status).toBe(404);
    const notImage = await owner.api.groups.setAvatar({
      params: { id: group.id },
      body: { file: fileOf(Buffer.from('not an image'), 'x.jpg') },
    });
    expect(errorOf(notImage)).toEqual([400, 'INVALID_IMAGE']);
    expect(
      (await member.api.groups.setAvatar({ params: { id: group.id }, body: { file: fileOf(await image(), 'g.jpg') } }))
        .status,
    ).toBe(404);
  });
});

describe('moderation of groups', () => {
  it('a hidden group is 404 and unlisted for others; its owner sees it with its state; removed refuses edits', async () => {
    const owner = await createUser(suite.server);
    const member = await createUser(suite.server);
    const staff = await createUser(suite.server);
    await makeModerator(suite.server, staff.id);
    const group = await createGroup(suite.server, owner, { name: `Moderated ${owner.username}` });
    expectStatus(await member.api.groups.join({ params: { id: group.id } }), 200);

    const report = await suite.http.post('/reports', {
      token: member.token,
      body: { target_type: 'group', target_id: group.id, reason: 'spam' },
    });
    expect(report.status, report.text).toBe(201);

    const hide = await suite.http.post(`/moderation/content/group/${group.id}/hide`, {
      token: staff.token,
      body: { note: 'spam' },
    });
    expect(hide.status, hide.text).toBe(200);
    expect(errorOf(await member.api.groups.get({ params: { id: group.id } }))).toEqual([404, 'NOT_FOUND']);
    expect((await suite.api.groups.bySlug({ params: { slug: group.slug } })).status).toBe(404);
    expect((await member.api.groups.members({ params: { id: group.id }, query: {} })).status).toBe(404);
    const listed = expectStatus(await member.api.groups.list({ query: { member: 'me' } }), 200).body.data.groups;
    expect(listed).toEqual([]);
    const own = expectStatus(await owner.api.groups.get({ params: { id: group.id } }), 200).body.data.group;
    expect(own).toMatchObject({ moderation_status: 'hidden', my_role: 'owner' });

    const remove = await suite.http.post(`/moderation/content/group/${group.id}/remove`, {
      token: staff.token,
      body: { note: 'spam' },
    });
    expect(remove.status, remove.text).toBe(200);
    expect(errorOf(await owner.api.groups.update({ params: { id: group.id }, body: { description: 'back' } }))).toEqual(
      [403, 'FORBIDDEN'],
    );
  });
});
