/**
 * What a group's posts tell and keep: the owner hears of
 * each post and reply in the group (in the inbox and by the group.post_created webhook, with the post
 * as they read it); the author's posts are in their data export and go with their account.
 */
import { describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { runDueJobs } from '../support/jobs.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { webhookHelpers } from '../webhooks/webhook-helpers.js';

const suite = useTestServer({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
const { register, ownReceiver, settled } = webhookHelpers(suite, () => 'http://127.0.0.1:9/unused');

async function openGroup(owner: TestUser, name: string, members: TestUser[]): Promise<string> {
  const made = await suite.http.post('/groups', {
    token: owner.token,
    body: { name, visibility: 'public', join_policy: 'open' },
  });
  expect(made.status, made.text).toBe(201);
  for (const member of members) {
    const joined = await suite.http.post(`/groups/${made.body.data.group.id}/join`, { token: member.token });
    expect(joined.status, joined.text).toBe(200);
  }
  return made.body.data.group.id;
}

/** The owner's group_post notifications once there are `count` of them (a job makes them). */
async function postNotices(user: TestUser, count: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await runDueJobs(suite.server);
    const reply = await suite.http.get('/notifications', { token: user.token });
    expect(reply.status).toBe(200);
    const notes = (reply.body.data.notifications as { type: string }[]).filter((note) => note.type === 'group_post');
    if (notes.length >= count || Date.now() > deadline) return notes as any[];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('what a post tells the group’s owner', () => {
  it('each post and reply by someone else reaches the owner’s inbox and webhook; their own do not', async () => {
    const [owner, member] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const receiver = await ownReceiver();
    const hook = await register(owner, { events: ['group.post_created'] }, receiver.url);
    const groupId = await openGroup(owner, 'Harbour Lights', [member]);

    const own = expectStatus(
      await owner.api.groupPosts.create({ params: { id: groupId }, body: { content: 'Welcome, everyone' } }),
      201,
    ).body.data.post;
    const post = expectStatus(
      await member.api.groupPosts.create({ params: { id: groupId }, body: { content: 'Glad to be here' } }),
      201,
    ).body.data.post;
    expectStatus(
      await member.api.groupPosts.create({ params: { id: groupId }, body: { content: 'Thanks!', parent_id: own.id } }),
      201,
    );

    const notes = await postNotices(owner, 2);
    expect(notes).toHaveLength(2);
    expect(notes.map((note) => note.message).sort()).toEqual(
      [
        `${member.username} posted in your group Harbour Lights`,
        `${member.username} replied in your group Harbour Lights`,
      ].sort(),
    );
    expect(notes[0]).toMatchObject({
      actor: { id: member.id },
      subject: { type: 'group', id: groupId, title: 'Harbour Lights' },
    });
    // the member hears nothing of their own posts
    expect(await postNotices(member, 0)).toEqual([]);

    await runDueJobs(suite.server);
    await settled(owner, hook.webhook.id, (rows) => rows.length === 3 && rows.every((row) => row.status !== 'pending'));
    const messages = receiver.received.map((request) => receiver.verify(request, hook.secret)) as {
      type: string;
      data: Record<string, any>;
    }[];
    expect(messages.map((message) => message.type)).toEqual(Array(3).fill('group.post_created'));
    const about = messages.find((message) => message.data.post?.id === post.id)!;
    expect(about.data).toMatchObject({
      group_id: groupId,
      parent_id: null,
      post: { id: post.id, content: 'Glad to be here', author: { id: member.id } },
      group: { id: groupId, name: 'Harbour Lights', post_count: 2 },
    });
  });
});

describe('the author’s posts in their account’s data', () => {
  it('the export lists them; erasure takes them (a top-level post with its replies) and the group’s count follows', async () => {
    const [owner, author, other] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const groupId = await openGroup(owner, 'Night Shift', [author, other]);
    const top = expectStatus(
      await author.api.groupPosts.create({ params: { id: groupId }, body: { content: 'Mine' } }),
      201,
    ).body.data.post;
    const kept = expectStatus(
      await other.api.groupPosts.create({ params: { id: groupId }, body: { content: 'Theirs' } }),
      201,
    ).body.data.post;
    expectStatus(
      await other.api.groupPosts.create({ params: { id: groupId }, body: { content: 'Reply', parent_id: top.id } }),
      201,
    );
    expectStatus(
      await author.api.groupPosts.create({
        params: { id: groupId },
        body: { content: 'My reply', parent_id: kept.id },
      }),
      201,
    );

    const exported = await suite.http.get('/users/me/export', { token: author.token });
    expect(exported.status, exported.text).toBe(200);
    const posts = exported.body.group_posts as { content: string }[];
    expect(posts.map((entry) => entry.content)).toEqual(['Mine', 'My reply']);

    const deleted = await suite.http.delete('/users/me', {
      token: author.token,
      body: { confirm_text: 'DELETE', password: author.password },
    });
    expect(deleted.status, deleted.text).toBe(200);
    const list = expectStatus(await other.api.groupPosts.list({ params: { id: groupId }, query: {} }), 200).body.data;
    expect(list.posts.map((entry) => [entry.content, entry.reply_count])).toEqual([['Theirs', 0]]);
    expect(list.pagination.total).toBe(1);
    expect((await suite.http.get(`/groups/${groupId}`, {})).body.data.group.post_count).toBe(1);
  });
});
