import type { Track } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal.js';
import { serviceTrack, serviceUser, type ServiceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of a user's play queue, called on the service with an Actor: versions, where an item
// goes, what the current index names. queue-api.test.ts holds the routes, If-Match as a header and
// the replies to the contract.
const suite = useServices();
const stale = { status: 412, code: 'PRECONDITION_FAILED' };

/** The titles in the user's queue, in order, and the current index. */
/** The user's tracks with these titles, uploaded one after the other (in this order). */
async function tracksTitled<const T extends readonly string[]>(user: ServiceUser, ...titles: T) {
  const tracks: Track[] = [];
  for (const title of titles) tracks.push(await serviceTrack(suite, user, { title }));
  return tracks as { [K in keyof T]: Track };
}

async function queueOf(user: ServiceUser) {
  const { queue } = await suite.areas.queue.services.queue.get(user);
  return { titles: queue.items.map((item) => item.track?.title ?? null), current: queue.current_index };
}

describe('play queue (service)', () => {
  it('every write moves the version on; a write naming an older version is refused and changes nothing', async () => {
    const { queue } = suite.areas.queue.services;
    const user = await serviceUser(suite);
    const track = await serviceTrack(suite, user, { title: 'One' });
    const first = await queue.addItem(user, undefined, { track_id: track.id });
    const second = await queue.update(user, first.version, { shuffle: true });
    expect(second.version).toBeGreaterThan(first.version);
    expect(await refusal(queue.addItem(user, first.version, { track_id: track.id }))).toMatchObject(stale);
    expect(await refusal(queue.clear(user, first.version))).toMatchObject(stale);
    // "*" is any version
    expect((await queue.addItem(user, '*', { track_id: track.id })).version).toBeGreaterThan(second.version);
    expect((await queueOf(user)).titles).toEqual(['One', 'One']);
  });

  it('play_next puts a track right after the current one; otherwise it goes last', async () => {
    const { queue } = suite.areas.queue.services;
    const user = await serviceUser(suite);
    const [a, b, c, next] = await tracksTitled(user, 'A', 'B', 'C', 'Next');
    await queue.update(user, undefined, { track_ids: [a.id, b.id, c.id], current_index: 0 });
    await queue.addItem(user, undefined, { track_id: next.id, play_next: true });
    await queue.addItem(user, undefined, { track_id: a.id });
    expect(await queueOf(user)).toEqual({ titles: ['A', 'Next', 'B', 'C', 'A'], current: 0 });
  });

  it('a track the user may not see is refused with 404, in a replacement too, and the queue stays as it was', async () => {
    const { queue } = suite.areas.queue.services;
    const user = await serviceUser(suite);
    const other = await serviceUser(suite);
    const mine = await serviceTrack(suite, user, { title: 'Mine' });
    const hidden = await serviceTrack(suite, other, { isPublic: false });
    await queue.addItem(user, undefined, { track_id: mine.id });
    expect(await refusal(queue.addItem(user, undefined, { track_id: hidden.id }))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(await refusal(queue.update(user, undefined, { track_ids: [mine.id, hidden.id] }))).toMatchObject({
      status: 404,
    });
    expect((await queueOf(user)).titles).toEqual(['Mine']);
  });

  it('the current index names an item of the queue: past the end is refused; a shorter replacement pulls it in', async () => {
    const { queue } = suite.areas.queue.services;
    const user = await serviceUser(suite);
    const [a, b, c] = await tracksTitled(user, 'A', 'B', 'C');
    await queue.update(user, undefined, { track_ids: [a.id, b.id, c.id], current_index: 2 });
    expect(await refusal(queue.update(user, undefined, { current_index: 3 }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: ['current_index'],
    });
    await queue.update(user, undefined, { track_ids: [a.id] });
    expect(await queueOf(user)).toEqual({ titles: ['A'], current: 0 });
  });

  it('removing an item before the current one keeps the same track current; removing the current one restarts it', async () => {
    const { queue } = suite.areas.queue.services;
    const user = await serviceUser(suite);
    const [a, b, c] = await tracksTitled(user, 'A', 'B', 'C');
    const { queue: filled } = await queue.update(user, undefined, {
      track_ids: [a.id, b.id, c.id],
      current_index: 1,
      position_seconds: 12,
    });
    await queue.removeItem(user, undefined, filled.items[0]!.id);
    expect(await queueOf(user)).toEqual({ titles: ['B', 'C'], current: 0 });
    await queue.removeItem(user, undefined, filled.items[1]!.id);
    const { queue: after } = await queue.get(user);
    expect(after).toMatchObject({ current_index: 0, position_seconds: 0 });
    expect(await refusal(queue.removeItem(user, undefined, filled.items[1]!.id))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  });

  it('clearing empties the queue and starts it over', async () => {
    const { queue } = suite.areas.queue.services;
    const user = await serviceUser(suite);
    const track = await serviceTrack(suite, user);
    await queue.update(user, undefined, { track_ids: [track.id, track.id], current_index: 1, position_seconds: 5 });
    expect((await queue.clear(user, undefined)).message).toBe('The queue is empty');
    expect((await queue.get(user)).queue).toMatchObject({ items: [], current_index: 0, position_seconds: 0 });
  });
});
