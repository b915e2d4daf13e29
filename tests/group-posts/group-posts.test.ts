/**
 * The posts of a group through the API: who reads and writes them, one
 * level of replies, pins, references shown only to readers who may see them, blocks, moderation,
 * deletion by author, group moderators and staff.
 */
import { describe, expect, it } from 'vitest';
import type { GroupPost } from '@riff/contract';
import { createAdmin } from '../support/admin-factory.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { createModerator } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer({ WORKERS: '0' });

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** A group made by `owner` through the API; `members` join it (an open group) or are invited and accept. */
async function groupOf(
  owner: TestUser,
  options: { visibility?: 'public' | 'private'; members?: TestUser[] } = {},
): Promise<string> {
  const visibility = options.visibility ?? 'public';
  const made = await suite.http.post('/groups', {
    token: owner.token,
    body: { name: `Band ${Math.random().toString(36).slice(2, 10)}`, visibility, join_policy: 'open' },
  });
  expect(made.status, made.text).toBe(201);
  const id = made.body.data.group.id as string;
  for (const member of options.members ?? []) await join(member, id);
  return id;
}

async function join(user: TestUser, groupId: string) {
  const joined = await suite.http.post(`/groups/${groupId}/join`, { token: user.token });
  expect(joined.status, joined.text).toBe(200);
}

async function setRole(owner: TestUser, groupId: string, user: TestUser, role: 'admin' | 'moderator' | 'member') {
  const reply = await suite.http.put(`/groups/${groupId}/members/${user.id}`, { token: owner.token, body: { role } });
  expect(reply.status, reply.text).toBe(200);
}

async function post(
  user: TestUser,
  groupId: string,
  body: { content: string; parent_id?: string; track_id?: string; playlist_id?: string },
): Promise<GroupPost> {
  return expectStatus(await user.api.groupPosts.create({ params: { id: groupId }, body }), 201).body.data.post;
}

async function listed(user: TestUser | undefined, groupId: string, query: { page?: number; limit?: number } = {}) {
  const api = user ? user.api : suite.api;
  return expectStatus(await api.groupPosts.list({ params: { id: groupId }, query }), 200).body.data;
}

async function repliesOf(user: TestUser | undefined, groupId: string, postId: string) {
  const api = user ? user.api : suite.api;
  return expectStatus(await api.groupPosts.replies({ params: { id: groupId, post_id: postId }, query: {} }), 200).body
    .data;
}

describe('reading and writing posts', () => {
  it('members post; a public group’s posts are read by anyone, pinned first then newest, with the group’s post_count', async () => {
    const [owner, member, visitor] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const groupId = await groupOf(owner, { members: [member] });
    const first = await post(owner, groupId, { content: '  Rehearsal on Friday  ' });
    expect(Object.keys(first).sort()).toEqual(
      [
        'author',
        'content',
        'created_at',
        'group_id',
        'id',
        'is_edited',
        'is_pinned',
        'parent_id',
        'pinned_at',
        'playlist',
        'reply_count',
        'track',
        'updated_at',
      ].sort(),
    );
    expect(first).toMatchObject({
      group_id: groupId,
      author: { id: owner.id, username: owner.username },
      parent_id: null,
      content: 'Rehearsal on Friday',
      track: null,
      playlist: null,
      is_pinned: false,
      pinned_at: null,
      reply_count: 0,
      is_edited: false,
    });
    const second = await post(member, groupId, { content: 'New mix is up' });
    const third = await post(member, groupId, { content: 'And the artwork' });
    // a visitor reads a public group’s posts but does not post in it
    const refused = expectStatus(
      await visitor.api.groupPosts.create({ params: { id: groupId }, body: { content: 'hello' } }),
      403,
    );
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await listed(undefined, groupId)).posts.map((p) => p.id)).toEqual([third.id, second.id, first.id]);

    expectStatus(await owner.api.groupPosts.pin({ params: { id: groupId, post_id: first.id } }), 200);
    const page = await listed(visitor, groupId);
    expect(page.posts.map((p) => p.id)).toEqual([first.id, third.id, second.id]);
    expect(page.posts[0]).toMatchObject({ is_pinned: true });
    expect(page.posts[0]!.pinned_at).not.toBeNull();
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 3, total_pages: 1 });
    // paged
    const second_page = await listed(visitor, groupId, { page: 2, limit: 2 });
    expect(second_page.posts.map((p) => p.id)).toEqual([second.id]);
    // the group counts its top-level posts
    const group = await suite.http.get(`/groups/${groupId}`, {});
    expect(group.body.data.group.post_count).toBe(3);
    expect(
      expectStatus(await suite.api.groupPosts.get({ params: { id: groupId, post_id: second.id } }), 200).body.data.post
        .content,
    ).toBe('New mix is up');
  });

  it('bad input is a 4xx with its code, never a post', async () => {
    const owner = await createUser(suite.server);
    const groupId = await groupOf(owner);
    for (const body of [{ content: '   ' }, { content: 'x'.repeat(5001) }, {}, { content: 'ok', track_id: 'nope' }]) {
      const reply = await suite.http.post(`/groups/${groupId}/posts`, { token: owner.token, body });
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await suite.http.get(`/groups/not-an-id/posts`, {})).body.error.code).toBe('INVALID_ID');
    expectStatus(await owner.api.groupPosts.list({ params: { id: UNKNOWN }, query: {} }), 404);
    expectStatus(await owner.api.groupPosts.get({ params: { id: groupId, post_id: UNKNOWN } }), 404);
    expect((await listed(owner, groupId)).pagination.total).toBe(0);
  });

  it('a private group’s posts are its members’: 404 to others, signed in or not', async () => {
    const [owner, member, outsider] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const groupId = await groupOf(owner, { visibility: 'private' });
    const invited = await suite.http.post(`/groups/${groupId}/invites`, {
      token: owner.token,
      body: { user_id: member.id },
    });
    expect(invited.status, invited.text).toBe(201);
    // holding an invite shows the group, not its posts
    const secret = await post(owner, groupId, { content: 'Setlist draft' });
    expectStatus(await member.api.groupPosts.list({ params: { id: groupId }, query: {} }), 403);
    const accepted = await suite.http.post(`/groups/invites/${invited.body.data.invite.id}/accept`, {
      token: member.token,
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect((await listed(member, groupId)).posts.map((p) => p.id)).toEqual([secret.id]);
    for (const api of [outsider.api, suite.api]) {
      expectStatus(await api.groupPosts.list({ params: { id: groupId }, query: {} }), 404);
      expectStatus(await api.groupPosts.get({ params: { id: groupId, post_id: secret.id } }), 404);
      expectStatus(await api.groupPosts.replies({ params: { id: groupId, post_id: secret.id }, query: {} }), 404);
    }
    expectStatus(await outsider.api.groupPosts.create({ params: { id: groupId }, body: { content: 'hi' } }), 404);
    // a post is reached through its own group only
    const elsewhere = await groupOf(outsider);
    expectStatus(await outsider.api.groupPosts.get({ params: { id: elsewhere, post_id: secret.id } }), 404);
  });
});

describe('replies', () => {
  it('one level: a reply to a reply joins its top-level post; replies are read oldest first and go with their post', async () => {
    const [owner, a, b] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const groupId = await groupOf(owner, { members: [a, b] });
    const top = await post(owner, groupId, { content: 'Which take?' });
    const r1 = await post(a, groupId, { content: 'Take 2', parent_id: top.id });
    const r2 = await post(b, groupId, { content: 'Agreed', parent_id: r1.id });
    expect(r2.parent_id).toBe(top.id);
    const replies = await repliesOf(undefined, groupId, top.id);
    expect(replies.replies.map((r) => r.id)).toEqual([r1.id, r2.id]);
    expect(replies.pagination.total).toBe(2);
    expect((await listed(undefined, groupId)).posts).toMatchObject([{ id: top.id, reply_count: 2 }]);
    // replies are not in the group’s list, nor in its count
    expect((await listed(undefined, groupId)).pagination.total).toBe(1);
    // a reply names a post of this group
    const other = await groupOf(a);
    const foreign = await post(a, other, { content: 'elsewhere' });
    for (const parent of [foreign.id, UNKNOWN]) {
      const reply = expectStatus(
        await a.api.groupPosts.create({ params: { id: groupId }, body: { content: 'x', parent_id: parent } }),
        400,
      );
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    }
    // a reply cannot be pinned
    expectStatus(await owner.api.groupPosts.pin({ params: { id: groupId, post_id: r1.id } }), 400);
    // deleting the top-level post takes its replies
    expectStatus(await owner.api.groupPosts.remove({ params: { id: groupId, post_id: top.id } }), 200);
    expectStatus(await suite.api.groupPosts.get({ params: { id: groupId, post_id: r1.id } }), 404);
    expect((await listed(undefined, groupId)).pagination.total).toBe(0);
    expect((await suite.http.get(`/groups/${groupId}`, {})).body.data.group.post_count).toBe(0);
  });
});

describe('references to tracks and playlists', () => {
  it('a reference must be visible to the poster, and each reader sees it only if they may', async () => {
    const [owner, member, reader] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const groupId = await groupOf(owner, { members: [member] });
    const publicTrack = await createTrack(suite.server, member, { title: 'Open Road' });
    const privateTrack = await createTrack(suite.server, member, { isPublic: false });
    const ownersPrivate = await createTrack(suite.server, owner, { isPublic: false });
    const playlist = expectStatus(
      await member.api.playlists.create({ body: { title: 'Demos', is_public: false } }),
      201,
    ).body.data.playlist;

    // what the poster may not see is, for them, nothing at all
    expectStatus(
      await member.api.groupPosts.create({
        params: { id: groupId },
        body: { content: 'listen', track_id: ownersPrivate.id },
      }),
      404,
    );
    expectStatus(
      await member.api.groupPosts.create({ params: { id: groupId }, body: { content: 'listen', track_id: UNKNOWN } }),
      404,
    );
    const open = await post(member, groupId, { content: 'out now', track_id: publicTrack.id });
    const hidden = await post(member, groupId, {
      content: 'private demo',
      track_id: privateTrack.id,
      playlist_id: playlist.id,
    });
    expect(open.track).toMatchObject({ id: publicTrack.id, title: 'Open Road' });
    expect(hidden.track?.id).toBe(privateTrack.id);
    expect(hidden.playlist?.id).toBe(playlist.id);

    const seen = (await listed(reader, groupId)).posts;
    expect(seen.find((p) => p.id === open.id)?.track?.id).toBe(publicTrack.id);
    const other = seen.find((p) => p.id === hidden.id)!;
    expect(other.track).toBeNull();
    expect(other.playlist).toBeNull();
    // and nowhere in the reply is the private track's id
    const raw = await suite.http.get(`/groups/${groupId}/posts`, { token: reader.token });
    expect(raw.text).not.toContain(privateTrack.id);
    expect(raw.text).not.toContain(playlist.id);
  });
});

describe('editing, deleting and pinning', () => {
  it('the author edits; the author, the group’s moderators and staff delete; moderators and up pin', async () => {
    const [owner, mod, author, member] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const staff = await createModerator(suite.server);
    const groupId = await groupOf(owner, { members: [mod, author, member] });
    await setRole(owner, groupId, mod, 'moderator');
    const mine = await post(author, groupId, { content: 'first draft' });

    expectStatus(
      await member.api.groupPosts.update({ params: { id: groupId, post_id: mine.id }, body: { content: 'x' } }),
      403,
    );
    expectStatus(
      await owner.api.groupPosts.update({ params: { id: groupId, post_id: mine.id }, body: { content: 'x' } }),
      403,
    );
    const edited = expectStatus(
      await author.api.groupPosts.update({ params: { id: groupId, post_id: mine.id }, body: { content: 'final' } }),
      200,
    ).body.data.post;
    expect(edited).toMatchObject({ content: 'final', is_edited: true });

    expectStatus(await member.api.groupPosts.pin({ params: { id: groupId, post_id: mine.id } }), 403);
    expectStatus(await author.api.groupPosts.pin({ params: { id: groupId, post_id: mine.id } }), 403);
    expect(
      expectStatus(await mod.api.groupPosts.pin({ params: { id: groupId, post_id: mine.id } }), 200).body.data.post
        .is_pinned,
    ).toBe(true);
    expect(
      expectStatus(await owner.api.groupPosts.unpin({ params: { id: groupId, post_id: mine.id } }), 200).body.data.post,
    ).toMatchObject({ is_pinned: false, pinned_at: null });

    expectStatus(await member.api.groupPosts.remove({ params: { id: groupId, post_id: mine.id } }), 403);
    const byMod = await post(author, groupId, { content: 'spam?' });
    const byStaff = await post(author, groupId, { content: 'more spam?' });
    const byAuthor = await post(author, groupId, { content: 'oops' });
    expectStatus(await mod.api.groupPosts.remove({ params: { id: groupId, post_id: byMod.id } }), 200);
    expectStatus(await staff.api.groupPosts.remove({ params: { id: groupId, post_id: byStaff.id } }), 200);
    expectStatus(await author.api.groupPosts.remove({ params: { id: groupId, post_id: byAuthor.id } }), 200);
    expect((await listed(member, groupId)).posts.map((p) => p.id)).toEqual([mine.id]);
    expectStatus(await author.api.groupPosts.remove({ params: { id: groupId, post_id: byAuthor.id } }), 404);
  });
});

describe('blocks and moderation', () => {
  it('a reader never sees posts of a user they blocked or who blocked them, nor in the totals', async () => {
    const [owner, loud, reader, blocker] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const groupId = await groupOf(owner, { members: [loud, reader, blocker] });
    const top = await post(owner, groupId, { content: 'thread' });
    const noisy = await post(loud, groupId, { content: 'noise' });
    const reply = await post(loud, groupId, { content: 'noisy reply', parent_id: top.id });
    expectStatus(await reader.api.users.block({ params: { id: loud.id } }), 200);
    expectStatus(await loud.api.users.block({ params: { id: blocker.id } }), 200);
    for (const user of [reader, blocker]) {
      const page = await listed(user, groupId);
      expect(page.posts.map((p) => p.id)).toEqual([top.id]);
      expect(page.pagination.total).toBe(1);
      expect((await repliesOf(user, groupId, top.id)).replies).toEqual([]);
      expectStatus(await user.api.groupPosts.get({ params: { id: groupId, post_id: noisy.id } }), 404);
      // nor can they answer what they cannot see
      expectStatus(
        await user.api.groupPosts.create({ params: { id: groupId }, body: { content: 'x', parent_id: reply.id } }),
        400,
      );
    }
    expect((await listed(undefined, groupId)).pagination.total).toBe(2);
  });

  it('a post staff hid is, for everyone but its author and staff, as if deleted; reports reach it', async () => {
    const [owner, author, reporter] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const staff = await createModerator(suite.server);
    const admin = await createAdmin(suite.server);
    const groupId = await groupOf(owner, { members: [author, reporter] });
    const bad = await post(author, groupId, { content: 'something rude' });
    const reported = await suite.http.post('/reports', {
      token: reporter.token,
      body: { target_type: 'group_post', target_id: bad.id, reason: 'harassment' },
    });
    expect(reported.status, reported.text).toBe(201);
    const hid = await suite.http.post(`/moderation/content/group_post/${bad.id}/hide`, {
      token: staff.token,
      body: { note: 'harassment' },
    });
    expect(hid.status, hid.text).toBe(200);
    for (const user of [owner, reporter]) {
      expect((await listed(user, groupId)).posts).toEqual([]);
      expectStatus(await user.api.groupPosts.get({ params: { id: groupId, post_id: bad.id } }), 404);
    }
    const own = expectStatus(await author.api.groupPosts.get({ params: { id: groupId, post_id: bad.id } }), 200).body
      .data.post;
    expect(own).toMatchObject({ moderation_status: 'hidden', moderation_reason: 'harassment' });
    expect((await listed(admin, groupId)).posts.map((p) => p.id)).toEqual([bad.id]);
    const restored = await suite.http.post(`/moderation/content/group_post/${bad.id}/restore`, {
      token: staff.token,
      body: { note: 'fine after all' },
    });
    expect(restored.status, restored.text).toBe(200);
    expect((await listed(owner, groupId)).posts.map((p) => p.id)).toEqual([bad.id]);
  });
});

describe('the hourly limit', () => {
  it('the 31st post in an hour in one group is 429 with Retry-After; refused posts do not count; other groups are apart', async () => {
    const owner = await createUser(suite.server);
    const groupId = await groupOf(owner);
    const elsewhere = await groupOf(owner);
    for (let i = 0; i < 3; i++) {
      expectStatus(await owner.api.groupPosts.create({ params: { id: groupId }, body: { content: ' ' } }), 400);
      expectStatus(
        await owner.api.groupPosts.create({ params: { id: groupId }, body: { content: 'x', track_id: UNKNOWN } }),
        404,
      );
    }
    const top = await post(owner, groupId, { content: 'top' });
    // 34 at once: replies count too, and exactly 29 more pass
    const burst = await Promise.all(
      Array.from({ length: 34 }, (_, i) =>
        owner.api.groupPosts.create({
          params: { id: groupId },
          body: i % 2 === 0 ? { content: `reply ${i}`, parent_id: top.id } : { content: `post ${i}` },
        }),
      ),
    );
    const statuses = burst.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(29);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    const limited = expectStatus(
      await owner.api.groupPosts.create({ params: { id: groupId }, body: { content: 'one more' } }),
      429,
    );
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    const page = await listed(owner, groupId);
    const replies = await repliesOf(owner, groupId, top.id);
    expect(page.pagination.total + replies.pagination.total).toBe(30);
    await post(owner, elsewhere, { content: 'another group, another hour' });
  });
});
