/**
 * Comments across the rest of the service: their domain events and audit entries, the data
 * export, account deletion (comments anonymised or removed consistently) and track deletion.
 */
import { describe, expect, it } from 'vitest';
import type { Comment } from '@riff/contract';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { runDueJobs } from '../support/jobs.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer({ WORKERS: '0' });

async function comment(
  user: TestUser,
  trackId: string,
  body: { content: string; parent_id?: string },
): Promise<Comment> {
  return expectStatus(await user.api.comments.create({ params: { id: trackId }, body }), 201).body.data.comment;
}

const topLevel = async (trackId: string) =>
  expectStatus(await suite.api.comments.list({ params: { id: trackId }, query: { sort: 'oldest' } }), 200).body.data;
const repliesOf = async (id: string) =>
  expectStatus(await suite.api.comments.replies({ params: { id }, query: {} }), 200).body.data;

/** Rows stored for a track, whatever a reader may see: the deleted track's comments must really go. */
async function storedFor(trackId: string): Promise<number> {
  const db = suite.server.riff.platform.database.db;
  const row = await db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('track_id', '=', trackId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('events and audit entries', () => {
  it('comment.created, comment.updated and comment.deleted are in the actor’s audit log, with who deleted', async () => {
    const owner = await createUser(suite.server);
    const author = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const made = await comment(author, track.id, { content: 'hello' });
    expectStatus(await author.api.comments.update({ params: { id: made.id }, body: { content: 'hello again' } }), 200);
    expectStatus(await owner.api.comments.remove({ params: { id: track.id, comment_id: made.id } }), 200);
    const authorLog = expectStatus(
      await author.api.audit.logs({ query: { resource: 'comment', resource_id: made.id } }),
      200,
    ).body.data.logs;
    expect(authorLog.map((entry) => entry.action).sort()).toEqual(['comment.created', 'comment.updated']);
    expect(authorLog.find((entry) => entry.action === 'comment.created')?.metadata).toEqual({
      track_id: track.id,
      parent_id: null,
      timestamp: 0,
    });
    const ownerLog = expectStatus(
      await owner.api.audit.logs({ query: { action: 'comment.deleted', resource_id: made.id } }),
      200,
    ).body.data.logs;
    expect(ownerLog).toHaveLength(1);
    expect(ownerLog[0]).toMatchObject({
      resource: 'comment',
      metadata: { track_id: track.id, parent_id: null, kept: false, role: 'track_owner' },
    });
  });

  it('a refused comment leaves no event behind', async () => {
    const owner = await createUser(suite.server);
    const author = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    expectStatus(
      await author.api.comments.create({
        params: { id: track.id },
        body: { content: 'x', parent_id: '00000000-0000-4000-8000-000000000000' },
      }),
      400,
    );
    expect(
      expectStatus(await author.api.audit.logs({ query: { action: 'comment.created' } }), 200).body.data.logs,
    ).toEqual([]);
  });
});

describe('the data export', () => {
  it('holds the user’s comments and replies that readers still see, not deleted ones nor others’', async () => {
    const owner = await createUser(suite.server);
    const me = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const mine = await comment(me, track.id, { content: 'mine' });
    const theirs = await comment(owner, track.id, { content: 'theirs' });
    const myReply = await comment(me, track.id, { content: 'my reply', parent_id: theirs.id });
    const gone = await comment(me, track.id, { content: 'regretted' });
    expectStatus(await me.api.comments.remove({ params: { id: track.id, comment_id: gone.id } }), 200);
    const exported = expectStatus(await me.api.users.exportData(), 200).body;
    expect(exported.comments).toEqual([mine, { ...myReply }]);
  });
});

describe('account deletion', () => {
  it('erases the user’s comments: with others’ replies kept as anonymous tombstones, the rest removed, every count right', async () => {
    const owner = await createUser(suite.server);
    const leaver = await createUser(suite.server);
    const stayer = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const threaded = await comment(leaver, track.id, { content: 'thread by the leaver' });
    const replyToLeaver = await comment(stayer, track.id, { content: 'reply that stays', parent_id: threaded.id });
    const alone = await comment(leaver, track.id, { content: 'no replies' });
    const stayerTop = await comment(stayer, track.id, { content: 'stayer top' });
    await comment(leaver, track.id, { content: 'leaver reply', parent_id: stayerTop.id });
    const own = await comment(leaver, track.id, { content: 'self thread' });
    await comment(leaver, track.id, { content: 'self reply', parent_id: own.id });
    // a tombstone of someone else whose only reply is the leaver's
    const doomed = await comment(stayer, track.id, { content: 'to be deleted' });
    await comment(leaver, track.id, { content: 'last reply', parent_id: doomed.id });
    expectStatus(await stayer.api.comments.remove({ params: { id: track.id, comment_id: doomed.id } }), 200);
    expect((await topLevel(track.id)).pagination.total).toBe(5);

    expectStatus(
      await leaver.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: leaver.password } }),
      200,
    );
    await runDueJobs(suite.server);

    const after = await topLevel(track.id);
    expect(
      after.comments.map((item) => [item.id, item.is_deleted, item.content, item.user?.id ?? null, item.reply_count]),
    ).toEqual([
      [threaded.id, true, null, null, 1],
      [stayerTop.id, false, 'stayer top', stayer.id, 0],
    ]);
    expect(after.pagination.total).toBe(2);
    expect((await repliesOf(threaded.id)).replies.map((item) => item.id)).toEqual([replyToLeaver.id]);
    expect((await repliesOf(stayerTop.id)).pagination.total).toBe(0);
    // nothing anywhere names the leaver any more
    expect(JSON.stringify(after)).not.toContain(leaver.id);
    expectStatus(await suite.api.comments.replies({ params: { id: alone.id }, query: {} }), 404);
    expect(await storedFor(track.id)).toBe(3);
  });
});

describe('a deactivated account', () => {
  it('keeps its comments’ words but no longer shows who wrote them', async () => {
    const owner = await createUser(suite.server);
    const quiet = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const made = await comment(quiet, track.id, { content: 'still here' });
    expectStatus(await quiet.api.users.remove({ params: { id: quiet.id } }), 200);
    const shown = (await topLevel(track.id)).comments;
    expect(shown).toEqual([{ ...made, user: null }]);
  });
});

describe('track deletion', () => {
  it('a deleted track’s comments are 404 at once and removed by its track.deleted handler', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const top = await comment(fan, track.id, { content: 'on a doomed track' });
    await comment(owner, track.id, { content: 'reply', parent_id: top.id });
    expectStatus(await owner.api.tracks.remove({ params: { id: track.id } }), 200);
    expectStatus(await suite.api.comments.list({ params: { id: track.id }, query: {} }), 404);
    expectStatus(await suite.api.comments.replies({ params: { id: top.id }, query: {} }), 404);
    expectStatus(await fan.api.comments.update({ params: { id: top.id }, body: { content: 'x' } }), 404);
    expectStatus(await fan.api.comments.create({ params: { id: track.id }, body: { content: 'x' } }), 404);
    expect(expectStatus(await fan.api.users.exportData(), 200).body.comments).toEqual([]);
    await runDueJobs(suite.server);
    expect(await storedFor(track.id)).toBe(0);
  });

  it('deleting an account with its tracks removes the comments others wrote on them; kept public tracks keep theirs', async () => {
    const leaver = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const kept = await createTrack(suite.server, leaver);
    const privateOne = await createTrack(suite.server, leaver, { isPublic: false });
    await comment(fan, kept.id, { content: 'stays with the public track' });
    await comment(leaver, privateOne.id, { content: 'note' });
    expectStatus(
      await leaver.api.users.deleteAccount({
        body: { confirm_text: 'DELETE', password: leaver.password, keep_public_tracks: true },
      }),
      200,
    );
    await runDueJobs(suite.server);
    expect((await topLevel(kept.id)).comments.map((item) => item.content)).toEqual(['stays with the public track']);
    expect(await storedFor(privateOne.id)).toBe(0);
  });
});
