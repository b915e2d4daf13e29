import { describe, expect, it } from 'vitest';
import { QUEUE_MAX_ITEMS } from '@riff/contract';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

async function queueOf(user: TestUser) {
  const reply = expectStatus(await user.api.queue.get(), 200);
  return { queue: reply.body.data.queue, etag: reply.headers.get('etag') };
}

/** What a write could change (the tracks themselves move on as the media jobs run). */
async function stateOf(user: TestUser) {
  const { queue, etag } = await queueOf(user);
  return { ...queue, items: queue.items.map(({ id, track_id, position }) => ({ id, track_id, position })), etag };
}

const positions = (items: { position: number }[]) => items.map((item) => item.position);

describe('the play queue', () => {
  it('starts empty at version 0, served with its ETag', async () => {
    const user = await createUser(suite.server);
    const { queue, etag } = await queueOf(user);
    expect(queue).toEqual({
      items: [],
      current_index: 0,
      position_seconds: 0,
      shuffle: false,
      repeat: 'off',
      version: 0,
      updated_at: null,
    });
    expect(etag).toBe('"0"');
    const unchanged = await suite.http.get('/queue', { token: user.token, headers: { 'If-None-Match': etag! } });
    expect([unchanged.status, unchanged.text, unchanged.headers.get('etag')]).toEqual([304, '', '"0"']);
  });

  it('adds at the end or next, replaces, removes and clears, keeping positions 0…n-1 and bumping the version', async () => {
    const user = await createUser(suite.server);
    const [a, b, c] = await Promise.all([1, 2, 3].map((n) => createTrack(suite.server, user, { title: `T${n}` })));
    const first = expectStatus(await user.api.queue.addItem({ body: { track_id: a!.id } }), 201);
    expect(first.body.data.item).toMatchObject({ track_id: a!.id, position: 0, track: { id: a!.id, title: 'T1' } });
    expect(first.headers.get('etag')).toBe('"1"');
    expectStatus(await user.api.queue.addItem({ body: { track_id: b!.id } }), 201);
    const next = expectStatus(await user.api.queue.addItem({ body: { track_id: c!.id, play_next: true } }), 201);
    expect(next.body.data.item.position).toBe(1);
    const listed = await queueOf(user);
    let queue = listed.queue;
    const etag = listed.etag;
    expect(queue.items.map((item) => item.track_id)).toEqual([a!.id, c!.id, b!.id]);
    expect(positions(queue.items)).toEqual([0, 1, 2]);
    expect([queue.version, etag]).toEqual([3, '"3"']);

    const put = expectStatus(
      await user.api.queue.update({ body: { current_index: 2, position_seconds: 12.5, shuffle: true, repeat: 'all' } }),
      200,
    );
    expect(put.body.data.queue).toMatchObject({
      current_index: 2,
      position_seconds: 12.5,
      shuffle: true,
      repeat: 'all',
      version: 4,
    });
    expect(put.body.data.queue.items).toHaveLength(3);

    // removing an item before the current one keeps the same item current
    const removed = expectStatus(await user.api.queue.removeItem({ params: { id: queue.items[0]!.id } }), 200);
    expect(removed.body.data.message).toBeTruthy();
    ({ queue } = await queueOf(user));
    expect(queue.items.map((item) => item.track_id)).toEqual([c!.id, b!.id]);
    expect(positions(queue.items)).toEqual([0, 1]);
    expect(queue.current_index).toBe(1);

    expectStatus(await user.api.queue.removeItem({ params: { id: queue.items[0]!.id } }), 200);
    const again = await user.api.queue.removeItem({ params: { id: queue.items[0]!.id } });
    expect([again.status, (again.body as { error: { code: string } }).error.code]).toEqual([404, 'NOT_FOUND']);

    const replaced = expectStatus(await user.api.queue.update({ body: { track_ids: [b!.id, a!.id, b!.id] } }), 200);
    expect(replaced.body.data.queue.items.map((item) => item.track_id)).toEqual([b!.id, a!.id, b!.id]);
    expect(positions(replaced.body.data.queue.items)).toEqual([0, 1, 2]);
    expect(replaced.body.data.queue).toMatchObject({ shuffle: true, repeat: 'all' });

    const cleared = expectStatus(await user.api.queue.clear(), 200);
    expect(cleared.body.data.message).toBeTruthy();
    ({ queue } = await queueOf(user));
    expect(queue).toMatchObject({ items: [], current_index: 0, position_seconds: 0 });
  });

  it('refuses a stale If-Match with 412 and changes nothing; the bare number, the quoted ETag and * are accepted', async () => {
    const user = await createUser(suite.server);
    const track = await createTrack(suite.server, user);
    expectStatus(await user.api.queue.addItem({ body: { track_id: track.id }, headers: { 'if-match': '0' } }), 201);
    expectStatus(await user.api.queue.addItem({ body: { track_id: track.id }, headers: { 'if-match': '"1"' } }), 201);
    const before = await stateOf(user);
    expect(before.version).toBe(2);
    const stale = [
      await user.api.queue.addItem({ body: { track_id: track.id }, headers: { 'if-match': '1' } }),
      await user.api.queue.update({ body: { track_ids: [] }, headers: { 'if-match': '"1"' } }),
      await user.api.queue.removeItem({ params: { id: before.items[0]!.id }, headers: { 'if-match': 'W/"0"' } }),
      await user.api.queue.clear({ headers: { 'if-match': '1' } }),
    ];
    for (const reply of stale)
      expect([reply.status, (reply.body as { error: { code: string } }).error.code]).toEqual([
        412,
        'PRECONDITION_FAILED',
      ]);
    expect(await stateOf(user)).toEqual(before);
    const bad = await suite.http.put('/queue', { token: user.token, headers: { 'If-Match': 'yesterday' }, body: {} });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expectStatus(await user.api.queue.update({ body: { repeat: 'one' }, headers: { 'if-match': '*' } }), 200);
    expectStatus(await user.api.queue.update({ body: { repeat: 'off' }, headers: { 'if-match': before.etag! } }), 412);
  });

  it('refuses tracks the caller may not see (404) and a current_index outside the queue (400), changing nothing', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const secret = await createTrack(suite.server, owner, { isPublic: false });
    const open = await createTrack(suite.server, owner);
    expectStatus(await other.api.queue.addItem({ body: { track_id: open.id } }), 201);
    const before = await stateOf(other);
    for (const reply of [
      await other.api.queue.addItem({ body: { track_id: secret.id } }),
      await other.api.queue.addItem({ body: { track_id: '00000000-0000-4000-8000-000000000000' } }),
      await other.api.queue.update({ body: { track_ids: [open.id, secret.id] } }),
    ]) {
      expect([reply.status, (reply.body as { error: { code: string } }).error.code]).toEqual([404, 'NOT_FOUND']);
    }
    const index = await other.api.queue.update({ body: { current_index: 1 } });
    expect([index.status, (index.body as { error: { code: string } }).error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(await stateOf(other)).toEqual(before);
    // the owner may queue their private track; once it is made public and private again, others see track null
    expectStatus(await owner.api.queue.addItem({ body: { track_id: secret.id } }), 201);
    expectStatus(await owner.api.tracks.update({ params: { id: open.id }, body: { is_public: false } }), 200);
    const hidden = await queueOf(other);
    expect(hidden.queue.items[0]).toMatchObject({ track_id: open.id, track: null });
  });

  it(`holds at most ${QUEUE_MAX_ITEMS} items`, async () => {
    const user = await createUser(suite.server);
    const track = await createTrack(suite.server, user);
    const full = Array.from({ length: QUEUE_MAX_ITEMS }, () => track.id);
    const over = await suite.http.put('/queue', { token: user.token, body: { track_ids: [...full, track.id] } });
    expect([over.status, over.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const put = expectStatus(await user.api.queue.update({ body: { track_ids: full } }), 200);
    expect(put.body.data.queue.items).toHaveLength(QUEUE_MAX_ITEMS);
    expect(put.body.data.queue.items.at(-1)!.position).toBe(QUEUE_MAX_ITEMS - 1);
    const more = await user.api.queue.addItem({ body: { track_id: track.id } });
    expect([more.status, (more.body as { error: { code: string } }).error.code]).toEqual([400, 'LIMIT_REACHED']);
  });

  it('loses no item when two devices add at once: all present, positions 0…n-1, one version per write', async () => {
    const user = await createUser(suite.server);
    const tracks = await Promise.all([1, 2, 3, 4].map((n) => createTrack(suite.server, user, { title: `C${n}` })));
    const adds = 24;
    const replies = await Promise.all(
      Array.from({ length: adds }, (_, index) =>
        user.api.queue.addItem({ body: { track_id: tracks[index % tracks.length]!.id, play_next: index % 3 === 0 } }),
      ),
    );
    for (const reply of replies) expectStatus(reply, 201);
    const { queue } = await queueOf(user);
    expect(queue.items).toHaveLength(adds);
    expect(positions(queue.items)).toEqual(Array.from({ length: adds }, (_, index) => index));
    expect(new Set(queue.items.map((item) => item.id))).toEqual(
      new Set(replies.map((reply) => expectStatus(reply, 201).body.data.item.id)),
    );
    expect(queue.version).toBe(adds);
    // the ETags handed out are each write's own version: all different
    expect(new Set(replies.map((reply) => reply.headers.get('etag'))).size).toBe(adds);
  });

  it('of two devices writing on the same version at once, one wins and the other gets 412', async () => {
    const user = await createUser(suite.server);
    const track = await createTrack(suite.server, user);
    const { etag } = await queueOf(user);
    const replies = await Promise.all(
      [1, 2].map(() => user.api.queue.addItem({ body: { track_id: track.id }, headers: { 'if-match': etag! } })),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 412]);
    const { queue } = await queueOf(user);
    expect([queue.items.length, queue.version]).toEqual([1, 1]);
  });

  it('the queue is part of the data export', async () => {
    const user = await createUser(suite.server);
    const track = await createTrack(suite.server, user);
    expectStatus(await user.api.queue.addItem({ body: { track_id: track.id } }), 201);
    const exported = await suite.http.get('/users/me/export', { token: user.token });
    expect(exported.status).toBe(200);
    expect(exported.body.queue.items.map((item: { track_id: string }) => item.track_id)).toEqual([track.id]);
    expect(exported.body.queue_sessions).toEqual([]);
    expect(exported.body.queue_chat_messages).toEqual([]);
  });
});
