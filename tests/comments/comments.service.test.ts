import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal.js';
import { serviceTrack, serviceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of comments, called on the service with an Actor: comments.test.ts holds the routes and
// replies to the contract (content limits among them, which the request schema decides); these hold
// what the service decides.
const suite = useServices();
const newest = { page: 1, limit: 50, sort: 'newest' as const };
const window = { page: 1, limit: 50 };

describe('comments (service)', () => {
  it('replies form one level: a reply to a reply attaches to its top-level comment, which counts both', async () => {
    const { comments } = suite.areas.comments.services;
    const owner = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    const { comment: top } = await comments.create(fan, track.id, { content: 'Great drop', timestamp: 1 });
    const { comment: reply } = await comments.create(owner, track.id, {
      content: 'Thanks',
      timestamp: 0,
      parent_id: top.id,
    });
    const { comment: nested } = await comments.create(fan, track.id, {
      content: 'Really',
      timestamp: 0,
      parent_id: reply.id,
    });
    expect(reply.parent_id).toBe(top.id);
    expect(nested.parent_id).toBe(top.id);
    const listed = await comments.list(owner, track.id, newest);
    expect(listed.comments.map((comment) => [comment.id, comment.reply_count])).toEqual([[top.id, 2]]);
    expect(listed.pagination.total).toBe(1);
    expect((await comments.replies(owner, top.id, window)).replies.map((comment) => comment.id).sort()).toEqual(
      [reply.id, nested.id].sort(),
    );
  });

  it('a timestamp past the end of the track is refused, and so is a parent on another track', async () => {
    const { comments } = suite.areas.comments.services;
    const owner = await serviceUser(suite);
    const track = await serviceTrack(suite, owner, { seconds: 3 });
    const other = await serviceTrack(suite, owner, { seconds: 3, title: 'Other tone' });
    expect(await refusal(comments.create(owner, track.id, { content: 'Late', timestamp: 3.5 }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: ['timestamp'],
    });
    const { comment: elsewhere } = await comments.create(owner, other.id, { content: 'Elsewhere', timestamp: 0 });
    expect(
      await refusal(comments.create(owner, track.id, { content: 'Stray', timestamp: 0, parent_id: elsewhere.id })),
    ).toEqual({ status: 400, code: 'VALIDATION_FAILED', fields: ['parent_id'] });
    expect((await comments.list(owner, track.id, newest)).pagination.total).toBe(0);
  });

  it('only the author edits; an edit is marked, the same words again are not an edit', async () => {
    const { comments } = suite.areas.comments.services;
    const owner = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    const { comment } = await comments.create(fan, track.id, { content: 'Nice', timestamp: 0 });
    expect(comment.is_edited).toBe(false);
    expect((await comments.update(fan, comment.id, 'Nice')).comment.is_edited).toBe(false);
    expect(await refusal(comments.update(owner, comment.id, 'Rewritten'))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    const edited = (await comments.update(fan, comment.id, 'Very nice')).comment;
    expect(edited).toMatchObject({ content: 'Very nice', is_edited: true });
  });

  it('a deleted comment with replies stays as a tombstone until its last reply goes, and counts stay right', async () => {
    const { comments } = suite.areas.comments.services;
    const owner = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    const { comment: top } = await comments.create(fan, track.id, { content: 'Thread', timestamp: 0 });
    const { comment: first } = await comments.create(owner, track.id, {
      content: 'One',
      timestamp: 0,
      parent_id: top.id,
    });
    const { comment: second } = await comments.create(owner, track.id, {
      content: 'Two',
      timestamp: 0,
      parent_id: top.id,
    });
    await comments.remove(fan, track.id, top.id);
    let listed = await comments.list(owner, track.id, newest);
    expect(listed.comments).toHaveLength(1);
    expect(listed.comments[0]).toMatchObject({ id: top.id, is_deleted: true, reply_count: 2 });
    await comments.remove(owner, track.id, first.id);
    listed = await comments.list(owner, track.id, newest);
    expect(listed.comments[0]).toMatchObject({ id: top.id, reply_count: 1 });
    expect((await comments.replies(owner, top.id, window)).replies.map((comment) => comment.id)).toEqual([second.id]);
    // the last reply takes the tombstone with it
    await comments.remove(owner, track.id, second.id);
    listed = await comments.list(owner, track.id, newest);
    expect(listed).toMatchObject({ comments: [], pagination: { total: 0 } });
  });

  it("the track's owner may delete another's comment, a third user may not, and a user the owner blocked may not comment", async () => {
    const { comments } = suite.areas.comments.services;
    const { follows } = suite.areas.users.services;
    const owner = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const stranger = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    const { comment } = await comments.create(fan, track.id, { content: 'Hello', timestamp: 0 });
    expect(await refusal(comments.remove(stranger, track.id, comment.id))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(await comments.remove(owner, track.id, comment.id)).toEqual({ message: 'Comment deleted' });
    await follows.block(owner, stranger.id);
    expect(await refusal(comments.create(stranger, track.id, { content: 'Let me in', timestamp: 0 }))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect((await comments.list(owner, track.id, newest)).pagination.total).toBe(0);
  });
});
