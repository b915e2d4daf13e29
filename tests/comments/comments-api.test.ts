/**
 * Comments through the API (ADDENDUM Part 2 "Comments"): the shape, content and timestamp rules,
 * one level of replies, the three orders, edit by the author, delete by author / track owner /
 * admin with the thread kept while replies exist, visibility with the track, blocks.
 */
import { describe, expect, it } from 'vitest';
import type { Comment } from '@riff/contract';
import { createAdmin } from '../support/admin-factory.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer({ WORKERS: '0' });

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function comment(
  user: TestUser,
  trackId: string,
  body: { content: string; timestamp?: number; parent_id?: string },
): Promise<Comment> {
  return expectStatus(await user.api.comments.create({ params: { id: trackId }, body }), 201).body.data.comment;
}

async function listed(
  user: TestUser | undefined,
  trackId: string,
  query: { sort?: 'newest' | 'oldest' | 'timestamp'; page?: number; limit?: number } = {},
) {
  const api = user ? user.api : suite.api;
  return expectStatus(await api.comments.list({ params: { id: trackId }, query }), 200).body.data;
}

async function repliesOf(user: TestUser | undefined, commentId: string, query: { page?: number; limit?: number } = {}) {
  const api = user ? user.api : suite.api;
  return expectStatus(await api.comments.replies({ params: { id: commentId }, query }), 200).body.data;
}

describe('creating and reading comments', () => {
  it('a comment has the ADDENDUM shape, trimmed plain text, and shows to anyone who may see the track', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 3 });
    const created = await comment(fan, track.id, { content: '  <b>nice</b> drop  ', timestamp: 2.5 });
    expect(Object.keys(created).sort()).toEqual(
      [
        'content',
        'created_at',
        'id',
        'is_deleted',
        'is_edited',
        'parent_id',
        'reply_count',
        'timestamp',
        'track_id',
        'updated_at',
        'user',
      ].sort(),
    );
    expect(created).toMatchObject({
      track_id: track.id,
      user: { id: fan.id, username: fan.username, avatar: null },
      parent_id: null,
      content: '<b>nice</b> drop',
      timestamp: 2.5,
      reply_count: 0,
      is_edited: false,
      is_deleted: false,
    });
    expect(typeof created.user?.slug).toBe('string');
    expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // anonymous readers see it too, with the pagination object
    const page = await listed(undefined, track.id);
    expect(page.comments).toEqual([created]);
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 1, total_pages: 1 });
    // timestamp defaults to 0 (no specific time)
    expect((await comment(fan, track.id, { content: 'whole thing' })).timestamp).toBe(0);
  });

  it('content: 1–5000 characters after trimming, not blank; an emoji counts as one character', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const writer = await createUser(suite.server);
    for (const content of ['', '   ', '\n\t ', 'x'.repeat(5001)]) {
      const reply = expectStatus(
        await writer.api.comments.create({ params: { id: track.id }, body: { content } }),
        400,
      );
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
      expect(reply.body.error.details?.[0]?.field).toBe('content');
    }
    expect((await comment(writer, track.id, { content: 'x'.repeat(5000) })).content).toHaveLength(5000);
    expect((await comment(writer, track.id, { content: `  ${'y'.repeat(5000)}\n` })).content).toBe('y'.repeat(5000));
    expect((await comment(writer, track.id, { content: '🎸'.repeat(5000) })).content).toBe('🎸'.repeat(5000));
    const missing = await suite.http.post(`/tracks/${track.id}/comments`, {
      token: writer.accessToken,
      body: { timestamp: 0 },
    });
    expect([missing.status, missing.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const notText = await suite.http.post(`/tracks/${track.id}/comments`, {
      token: writer.accessToken,
      body: { content: 42 },
    });
    expect([notText.status, notText.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await listed(owner, track.id)).pagination.total).toBe(3);
  });

  it('timestamp: a number from 0 to the track’s duration', async () => {
    const owner = await createUser(suite.server);
    const writer = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 2 });
    expect(track.duration).toBe(2);
    expect((await comment(writer, track.id, { content: 'at the end', timestamp: 2 })).timestamp).toBe(2);
    for (const timestamp of [2.01, 3, -1]) {
      const reply = expectStatus(
        await writer.api.comments.create({ params: { id: track.id }, body: { content: 'x', timestamp } }),
        400,
      );
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
      expect(reply.body.error.details?.[0]?.field).toBe('timestamp');
    }
    const text = await suite.http.post(`/tracks/${track.id}/comments`, {
      token: writer.accessToken,
      body: { content: 'x', timestamp: '1' },
    });
    expect([text.status, text.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await listed(owner, track.id)).pagination.total).toBe(1);
  });

  it('signed-in only; a track one may not see is 404; ids in paths are UUIDs', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    const anonymous = expectStatus(
      await suite.api.comments.create({ params: { id: hidden.id }, body: { content: 'hi' } }),
      401,
    );
    expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
    expect(
      expectStatus(await other.api.comments.create({ params: { id: hidden.id }, body: { content: 'hi' } }), 404).body
        .error.code,
    ).toBe('NOT_FOUND');
    expect(
      expectStatus(await other.api.comments.list({ params: { id: hidden.id }, query: {} }), 404).body.error.code,
    ).toBe('NOT_FOUND');
    expect(
      expectStatus(await suite.api.comments.list({ params: { id: hidden.id }, query: {} }), 404).body.error.code,
    ).toBe('NOT_FOUND');
    expect(
      expectStatus(await other.api.comments.list({ params: { id: UNKNOWN }, query: {} }), 404).body.error.code,
    ).toBe('NOT_FOUND');
    expect(
      expectStatus(await other.api.comments.list({ params: { id: 'not-a-uuid' }, query: {} }), 400).body.error.code,
    ).toBe('INVALID_ID');
    expect(
      expectStatus(await other.api.comments.replies({ params: { id: 'nope' }, query: {} }), 400).body.error.code,
    ).toBe('INVALID_ID');
    expect(
      expectStatus(await other.api.comments.update({ params: { id: 'nope' }, body: { content: 'x' } }), 400).body.error
        .code,
    ).toBe('INVALID_ID');
    const badPair = await other.api.comments.remove({ params: { id: hidden.id, comment_id: 'nope' } });
    expect(expectStatus(badPair, 400).body.error.code).toBe('INVALID_ID');
    // the owner comments on their private track; the owner (and an admin) read it
    const own = await comment(owner, hidden.id, { content: 'note to self' });
    expect((await listed(owner, hidden.id)).comments.map((item) => item.id)).toEqual([own.id]);
    const admin = await createAdmin(suite.server);
    expect((await listed(admin, hidden.id)).comments.map((item) => item.id)).toEqual([own.id]);
    expect(
      expectStatus(await other.api.comments.replies({ params: { id: own.id }, query: {} }), 404).body.error.code,
    ).toBe('NOT_FOUND');
    // a track made private later hides its comments from everyone else
    const shown = await createTrack(suite.server, owner);
    await comment(other, shown.id, { content: 'first!' });
    expectStatus(await owner.api.tracks.update({ params: { id: shown.id }, body: { is_public: false } }), 200);
    expectStatus(await other.api.comments.list({ params: { id: shown.id }, query: {} }), 404);
    expect((await listed(owner, shown.id)).pagination.total).toBe(1);
  });

  it('a user the track’s owner blocked may not comment (403) but still reads; unblocked, they may again', async () => {
    const owner = await createUser(suite.server);
    const troll = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    expectStatus(await owner.api.users.block({ params: { id: troll.id } }), 200);
    const refused = expectStatus(
      await troll.api.comments.create({ params: { id: track.id }, body: { content: 'hey' } }),
      403,
    );
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await listed(troll, track.id)).pagination.total).toBe(0);
    expectStatus(await owner.api.users.unblock({ params: { id: troll.id } }), 200);
    await comment(troll, track.id, { content: 'sorry' });
  });

  it('blocks hide comments both ways from signed-in readers (and from the total); anonymous readers see all', async () => {
    const owner = await createUser(suite.server);
    const alice = await createUser(suite.server);
    const bob = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const byAlice = await comment(alice, track.id, { content: 'alice here' });
    const byBob = await comment(bob, track.id, { content: 'bob here' });
    const bobReply = await comment(bob, track.id, { content: 'bob replies', parent_id: byAlice.id });
    expectStatus(await alice.api.users.block({ params: { id: bob.id } }), 200);
    const aliceView = await listed(alice, track.id);
    expect(aliceView.comments.map((item) => item.id)).toEqual([byAlice.id]);
    expect(aliceView.pagination.total).toBe(1);
    expect(await repliesOf(alice, byAlice.id)).toMatchObject({ replies: [], pagination: { total: 0 } });
    // the blocked one does not see the blocker's either
    expect((await listed(bob, track.id)).comments.map((item) => item.id)).toEqual([byBob.id]);
    expect((await listed(undefined, track.id)).comments.map((item) => item.id)).toEqual([byBob.id, byAlice.id]);
    expect((await repliesOf(undefined, byAlice.id)).replies.map((item) => item.id)).toEqual([bobReply.id]);
    // pages of a filtered list (the second half is read from the other end)
    const carol = await createUser(suite.server);
    const more = [await comment(carol, track.id, { content: 'c1' }), await comment(carol, track.id, { content: 'c2' })];
    const oldestForAlice = [byAlice.id, ...more.map((item) => item.id)];
    const pages = [];
    for (let page = 1; page <= 3; page++)
      pages.push(
        ...(await listed(alice, track.id, { sort: 'oldest', page, limit: 1 })).comments.map((item) => item.id),
      );
    expect(pages).toEqual(oldestForAlice);
  });
});

describe('replies', () => {
  it('one level: a reply to a reply attaches to its top-level comment; reply_count follows; oldest first', async () => {
    const owner = await createUser(suite.server);
    const [a, b] = [await createUser(suite.server), await createUser(suite.server)];
    const track = await createTrack(suite.server, owner, { seconds: 3 });
    const top = await comment(a, track.id, { content: 'top', timestamp: 1 });
    const first = await comment(b, track.id, { content: 'first reply', parent_id: top.id });
    expect(first).toMatchObject({ parent_id: top.id, reply_count: 0 });
    const nested = await comment(a, track.id, { content: 'reply to the reply', parent_id: first.id });
    expect(nested.parent_id).toBe(top.id);
    const third = await comment(owner, track.id, { content: 'third', parent_id: top.id });
    // the list holds top-level comments only, with their reply counts
    const page = await listed(undefined, track.id);
    expect(page.comments.map((item) => [item.id, item.reply_count])).toEqual([[top.id, 3]]);
    expect(page.pagination.total).toBe(1);
    const replies = await repliesOf(undefined, top.id);
    expect(replies.replies.map((item) => item.id)).toEqual([first.id, nested.id, third.id]);
    expect(replies.pagination).toEqual({ page: 1, limit: 20, total: 3, total_pages: 1 });
    const second = await repliesOf(undefined, top.id, { page: 2, limit: 2 });
    expect(second.replies.map((item) => item.id)).toEqual([third.id]);
    expect(second.pagination).toEqual({ page: 2, limit: 2, total: 3, total_pages: 2 });
    // a reply has no replies of its own
    expect(await repliesOf(undefined, first.id)).toEqual({
      replies: [],
      pagination: { page: 1, limit: 20, total: 0, total_pages: 0 },
    });
    // limit 1–100
    for (const limit of ['0', '101', 'ten']) {
      const reply = await suite.http.get(`/comments/${top.id}/replies?limit=${limit}`);
      expect([reply.status, reply.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect(
      expectStatus(await suite.api.comments.replies({ params: { id: UNKNOWN }, query: {} }), 404).body.error.code,
    ).toBe('NOT_FOUND');
  });

  it('parent_id must be a comment of the same track (400), and a missing parent is 400 too', async () => {
    const owner = await createUser(suite.server);
    const writer = await createUser(suite.server);
    const one = await createTrack(suite.server, owner);
    const two = await createTrack(suite.server, owner);
    const onOne = await comment(writer, one.id, { content: 'on one' });
    for (const parent_id of [onOne.id, UNKNOWN]) {
      const reply = expectStatus(
        await writer.api.comments.create({ params: { id: two.id }, body: { content: 'x', parent_id } }),
        400,
      );
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
      expect(reply.body.error.details?.[0]?.field).toBe('parent_id');
    }
    const malformed = await suite.http.post(`/tracks/${two.id}/comments`, {
      token: writer.accessToken,
      body: { content: 'x', parent_id: 'abc' },
    });
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await listed(owner, two.id)).pagination.total).toBe(0);
    expect((await listed(owner, one.id)).comments[0]?.reply_count).toBe(0);
  });
});

describe('orders and pages', () => {
  it('newest (default), oldest, and timestamp (ascending position, then oldest first); pages past the end are empty', async () => {
    const owner = await createUser(suite.server);
    const writer = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 5 });
    const made: Comment[] = [];
    for (const timestamp of [3, 0, 3, 1.5, 0])
      made.push(await comment(writer, track.id, { content: `at ${timestamp}`, timestamp }));
    const ids = (items: Comment[]) => items.map((item) => item.id);
    expect(ids((await listed(undefined, track.id)).comments)).toEqual(ids([...made].reverse()));
    expect(ids((await listed(undefined, track.id, { sort: 'newest' })).comments)).toEqual(ids([...made].reverse()));
    expect(ids((await listed(undefined, track.id, { sort: 'oldest' })).comments)).toEqual(ids(made));
    expect(ids((await listed(undefined, track.id, { sort: 'timestamp' })).comments)).toEqual(
      ids([made[1]!, made[4]!, made[3]!, made[0]!, made[2]!]),
    );
    const page2 = await listed(undefined, track.id, { sort: 'oldest', page: 2, limit: 2 });
    expect(ids(page2.comments)).toEqual(ids(made.slice(2, 4)));
    expect(page2.pagination).toEqual({ page: 2, limit: 2, total: 5, total_pages: 3 });
    // every page, the later ones too (read from the other end of the index), in each order
    for (const sort of ['newest', 'oldest', 'timestamp'] as const) {
      const whole = ids((await listed(undefined, track.id, { sort })).comments);
      for (const limit of [1, 2, 3]) {
        const pages: string[] = [];
        for (let page = 1; page <= Math.ceil(5 / limit); page++)
          pages.push(...ids((await listed(undefined, track.id, { sort, page, limit })).comments));
        expect(pages).toEqual(whole);
      }
    }
    const past = await listed(undefined, track.id, { page: 9, limit: 2 });
    expect(past).toEqual({ comments: [], pagination: { page: 9, limit: 2, total: 5, total_pages: 3 } });
    for (const query of ['sort=popular', 'limit=101', 'limit=0', 'page=0']) {
      const reply = await suite.http.get(`/tracks/${track.id}/comments?${query}`);
      expect([reply.status, reply.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
  });
});

describe('editing', () => {
  it('the author only: sets is_edited and updated_at; the track owner and admins get 403; same rules for content', async () => {
    const owner = await createUser(suite.server);
    const author = await createUser(suite.server);
    const admin = await createAdmin(suite.server);
    const track = await createTrack(suite.server, owner);
    const original = await comment(author, track.id, { content: 'typo' });
    for (const someone of [owner, admin]) {
      const refused = expectStatus(
        await someone.api.comments.update({ params: { id: original.id }, body: { content: 'rewritten' } }),
        403,
      );
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
    expect(
      expectStatus(await author.api.comments.update({ params: { id: original.id }, body: { content: '   ' } }), 400)
        .body.error.code,
    ).toBe('VALIDATION_FAILED');
    expectStatus(
      await author.api.comments.update({ params: { id: original.id }, body: { content: 'z'.repeat(5001) } }),
      400,
    );
    expectStatus(await suite.api.comments.update({ params: { id: original.id }, body: { content: 'anon' } }), 401);
    expectStatus(await author.api.comments.update({ params: { id: UNKNOWN }, body: { content: 'x' } }), 404);
    const unchanged = expectStatus(
      await author.api.comments.update({ params: { id: original.id }, body: { content: 'typo' } }),
      200,
    ).body.data.comment;
    expect(unchanged.is_edited).toBe(false);
    const edited = expectStatus(
      await author.api.comments.update({ params: { id: original.id }, body: { content: ' fixed ' } }),
      200,
    ).body.data.comment;
    expect(edited).toMatchObject({
      id: original.id,
      content: 'fixed',
      is_edited: true,
      created_at: original.created_at,
    });
    expect(edited.updated_at >= original.updated_at).toBe(true);
    expect((await listed(undefined, track.id)).comments[0]).toEqual(edited);
  });
});

describe('deleting', () => {
  it('the author, the track’s owner or an admin; anyone else who may see it 403, nothing changes', async () => {
    const owner = await createUser(suite.server);
    const author = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const admin = await createAdmin(suite.server);
    const track = await createTrack(suite.server, owner);
    const [a, b, c] = [
      await comment(author, track.id, { content: 'a' }),
      await comment(author, track.id, { content: 'b' }),
      await comment(author, track.id, { content: 'c' }),
    ];
    const refused = expectStatus(
      await stranger.api.comments.remove({ params: { id: track.id, comment_id: a.id } }),
      403,
    );
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await listed(undefined, track.id)).pagination.total).toBe(3);
    expectStatus(await suite.api.comments.remove({ params: { id: track.id, comment_id: a.id } }), 401);
    // a comment named under another track is not found there
    const elsewhere = await createTrack(suite.server, owner);
    expectStatus(await author.api.comments.remove({ params: { id: elsewhere.id, comment_id: a.id } }), 404);
    expect(
      expectStatus(await author.api.comments.remove({ params: { id: track.id, comment_id: a.id } }), 200).body.data
        .message,
    ).toBeTruthy();
    expectStatus(await owner.api.comments.remove({ params: { id: track.id, comment_id: b.id } }), 200);
    expectStatus(await admin.api.comments.remove({ params: { id: track.id, comment_id: c.id } }), 200);
    expect(await listed(undefined, track.id)).toEqual({
      comments: [],
      pagination: { page: 1, limit: 20, total: 0, total_pages: 0 },
    });
    // gone: a second delete, an edit or its replies are 404
    expectStatus(await author.api.comments.remove({ params: { id: track.id, comment_id: a.id } }), 404);
    expectStatus(await author.api.comments.update({ params: { id: a.id }, body: { content: 'back' } }), 404);
    expectStatus(await suite.api.comments.replies({ params: { id: a.id }, query: {} }), 404);
  });

  it('with replies it stays as {is_deleted, content: null, user: null}; its last reply going takes it along', async () => {
    const owner = await createUser(suite.server);
    const author = await createUser(suite.server);
    const replier = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const top = await comment(author, track.id, { content: 'thread' });
    const r1 = await comment(replier, track.id, { content: 'r1', parent_id: top.id });
    const r2 = await comment(replier, track.id, { content: 'r2', parent_id: top.id });
    expectStatus(await author.api.comments.remove({ params: { id: track.id, comment_id: top.id } }), 200);
    const kept = (await listed(undefined, track.id)).comments;
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ id: top.id, is_deleted: true, content: null, user: null, reply_count: 2 });
    expect((await repliesOf(undefined, top.id)).replies.map((item) => item.id)).toEqual([r1.id, r2.id]);
    // a deleted comment can no longer be edited or deleted again
    expectStatus(await author.api.comments.update({ params: { id: top.id }, body: { content: 'undo' } }), 404);
    expectStatus(await owner.api.comments.remove({ params: { id: track.id, comment_id: top.id } }), 404);
    // one may still reply into the thread
    const r3 = await comment(author, track.id, { content: 'r3', parent_id: top.id });
    expectStatus(await replier.api.comments.remove({ params: { id: track.id, comment_id: r1.id } }), 200);
    expect((await listed(undefined, track.id)).comments[0]?.reply_count).toBe(2);
    expectStatus(await owner.api.comments.remove({ params: { id: track.id, comment_id: r2.id } }), 200);
    expectStatus(await author.api.comments.remove({ params: { id: track.id, comment_id: r3.id } }), 200);
    // the last reply gone, the deleted comment goes too
    expect((await listed(undefined, track.id)).pagination.total).toBe(0);
    expectStatus(await suite.api.comments.replies({ params: { id: top.id }, query: {} }), 404);
  });

  it('a live comment keeps its reply_count right as replies go', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const top = await comment(owner, track.id, { content: 'top' });
    const reply = await comment(owner, track.id, { content: 'reply', parent_id: top.id });
    expectStatus(await owner.api.comments.remove({ params: { id: track.id, comment_id: reply.id } }), 200);
    expect((await listed(undefined, track.id)).comments).toEqual([
      expect.objectContaining({ id: top.id, reply_count: 0, is_deleted: false, content: 'top' }),
    ]);
  });
});
