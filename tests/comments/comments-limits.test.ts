/** At most 10 comments created per user per minute (ADDENDUM): 429 in the envelope with Retry-After; refused requests do not count. */
import { describe, expect, it } from 'vitest';
import { createTrack, createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer({ WORKERS: '0' });

describe('comment rate limit', () => {
  it('the 11th comment in a minute is 429 RATE_LIMITED with Retry-After; refused requests before and after do not count', async () => {
    const owner = await createUser(suite.server);
    const writer = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 2 });
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    // refused for other reasons: none of these count
    for (let i = 0; i < 3; i++) {
      expectStatus(await writer.api.comments.create({ params: { id: track.id }, body: { content: '   ' } }), 400);
      expectStatus(
        await writer.api.comments.create({ params: { id: track.id }, body: { content: 'late', timestamp: 99 } }),
        400,
      );
      expectStatus(await writer.api.comments.create({ params: { id: hidden.id }, body: { content: 'hidden' } }), 404);
    }
    const first = expectStatus(
      await writer.api.comments.create({ params: { id: track.id }, body: { content: 'top' } }),
      201,
    ).body.data.comment;
    for (let i = 2; i <= 10; i++) {
      // replies count as comments created
      const body = i % 2 === 0 ? { content: `reply ${i}`, parent_id: first.id } : { content: `comment ${i}` };
      expectStatus(await writer.api.comments.create({ params: { id: track.id }, body }), 201);
    }
    for (let i = 0; i < 3; i++) {
      const limited = expectStatus(
        await writer.api.comments.create({ params: { id: track.id }, body: { content: 'one more' } }),
        429,
      );
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
    // nothing of the refused requests was written
    const listed = expectStatus(await suite.api.comments.list({ params: { id: track.id }, query: {} }), 200).body.data;
    expect(listed.pagination.total).toBe(5);
    const replies = expectStatus(await suite.api.comments.replies({ params: { id: first.id }, query: {} }), 200).body
      .data;
    expect(replies.pagination.total).toBe(5);
    // per user: someone else still comments, and the limit says nothing about editing or deleting
    const other = await createUser(suite.server);
    expectStatus(await other.api.comments.create({ params: { id: track.id }, body: { content: 'mine' } }), 201);
    expectStatus(await writer.api.comments.update({ params: { id: first.id }, body: { content: 'edited' } }), 200);
  });

  it('under concurrency exactly 10 of 15 simultaneous comments are created', async () => {
    const owner = await createUser(suite.server);
    const writer = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const replies = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        writer.api.comments.create({ params: { id: track.id }, body: { content: `burst ${i}` } }),
      ),
    );
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    expect(
      expectStatus(await suite.api.comments.list({ params: { id: track.id }, query: {} }), 200).body.data.pagination
        .total,
    ).toBe(10);
  });
});

describe('concurrent changes to one thread', () => {
  it('simultaneous replies are all counted; deleting the comment and all its replies at once leaves nothing behind', async () => {
    const owner = await createUser(suite.server);
    const repliers = await Promise.all(Array.from({ length: 6 }, () => createUser(suite.server)));
    const track = await createTrack(suite.server, owner);
    const top = expectStatus(
      await owner.api.comments.create({ params: { id: track.id }, body: { content: 'thread' } }),
      201,
    ).body.data.comment;
    const made = await Promise.all(
      repliers.flatMap((user) =>
        [1, 2].map((n) =>
          user.api.comments.create({ params: { id: track.id }, body: { content: `reply ${n}`, parent_id: top.id } }),
        ),
      ),
    );
    const replies = made.map((reply) => expectStatus(reply, 201).body.data.comment);
    const listed = async () =>
      expectStatus(await suite.api.comments.list({ params: { id: track.id }, query: {} }), 200).body.data;
    expect((await listed()).comments[0]?.reply_count).toBe(12);
    const removals = await Promise.all([
      owner.api.comments.remove({ params: { id: track.id, comment_id: top.id } }),
      ...replies.map((reply) => owner.api.comments.remove({ params: { id: track.id, comment_id: reply.id } })),
    ]);
    expect(removals.map((reply) => reply.status)).toEqual(Array(13).fill(200));
    expect(await listed()).toEqual({ comments: [], pagination: { page: 1, limit: 20, total: 0, total_pages: 0 } });
    expectStatus(await suite.api.comments.replies({ params: { id: top.id }, query: {} }), 404);
  });
});
