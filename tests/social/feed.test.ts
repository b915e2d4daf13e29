import { describe, expect, it } from 'vitest';
import { createTrack, createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

describe('reposts and the feed', () => {
  it('repost is idempotent, only for public tracks of others, and listed on the user', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const open = await createTrack(suite.server, owner, { title: 'Open' });
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    expect(expectStatus(await fan.api.social.repost({ params: { id: open.id } }), 200).body.data).toEqual({
      reposted: true,
    });
    expect(expectStatus(await fan.api.social.repost({ params: { id: open.id } }), 200).body.data).toEqual({
      reposted: true,
    });
    expect(expectStatus(await owner.api.social.repost({ params: { id: open.id } }), 400).body.error.code).toBe(
      'BAD_REQUEST',
    );
    expect(expectStatus(await owner.api.social.repost({ params: { id: hidden.id } }), 400).body.error.code).toBe(
      'BAD_REQUEST',
    );
    expectStatus(await fan.api.social.repost({ params: { id: hidden.id } }), 404);
    expectStatus(await suite.api.social.repost({ params: { id: open.id } }), 401);

    const reposts = expectStatus(await suite.api.social.userReposts({ params: { id: fan.id } }), 200).body.data;
    expect(reposts.tracks.map((track) => track.title)).toEqual(['Open']);
    expect(reposts.tracks[0]).not.toHaveProperty('play_count');
    expect(
      expectStatus(await owner.api.social.stats({ params: { id: open.id }, query: {} }), 200).body.data.stats
        .repost_count,
    ).toBe(1);

    expect(expectStatus(await fan.api.social.unrepost({ params: { id: open.id } }), 200).body.data).toEqual({
      reposted: false,
    });
    expect(expectStatus(await fan.api.social.unrepost({ params: { id: open.id } }), 200).body.data).toEqual({
      reposted: false,
    });
    expect(expectStatus(await fan.api.social.userReposts({ params: { id: 'me' } }), 200).body.data.tracks).toEqual([]);
    const actions = expectStatus(await fan.api.audit.logs({ query: { resource: 'track' } }), 200).body.data.logs.map(
      (log) => log.action,
    );
    expect(actions.sort()).toEqual(['track.reposted', 'track.unreposted']);
  });

  it('GET /feed: public uploads and reposts of the people I follow, newest first, counts hidden', async () => {
    const me = await createUser(suite.server);
    const artist = await createUser(suite.server);
    const curator = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    expectStatus(await me.api.users.follow({ params: { id: artist.id } }), 200);
    expectStatus(await me.api.users.follow({ params: { id: curator.id } }), 200);
    const first = await createTrack(suite.server, artist, { title: 'First upload' });
    await createTrack(suite.server, artist, { title: 'Private one', isPublic: false });
    await createTrack(suite.server, stranger, { title: 'Not followed' });
    const picked = await createTrack(suite.server, stranger, { title: 'Picked' });
    expectStatus(await curator.api.social.repost({ params: { id: picked.id } }), 200);
    const second = await createTrack(suite.server, artist, { title: 'Second upload' });

    const feed = expectStatus(await me.api.social.feed({ query: {} }), 200).body.data;
    expect(feed.items.map((item) => [item.type, item.track.title, item.actor.id])).toEqual([
      ['upload', 'Second upload', artist.id],
      ['repost', 'Picked', curator.id],
      ['upload', 'First upload', artist.id],
    ]);
    expect(feed.pagination).toEqual({ page: 1, limit: 20, total: 3, total_pages: 1 });
    for (const item of feed.items) {
      expect(item.track).not.toHaveProperty('play_count');
      expect(item.track).not.toHaveProperty('like_count');
    }
    expect(feed.items[0]!.track.id).toBe(second.id);
    expect(feed.items[2]!.track.id).toBe(first.id);
    const page = expectStatus(await me.api.social.feed({ query: { page: 2, limit: 2 } }), 200).body.data;
    expect(page.items.map((item) => item.track.title)).toEqual(['First upload']);
    expectStatus(await suite.api.social.feed({ query: {} }), 401);
  });

  it('blocks hide both ways: a repost of a blocked user’s track leaves the feed, and their lists are 404', async () => {
    const me = await createUser(suite.server);
    const curator = await createUser(suite.server);
    const blocked = await createUser(suite.server);
    const blocker = await createUser(suite.server);
    expectStatus(await me.api.users.follow({ params: { id: curator.id } }), 200);
    const fromBlocked = await createTrack(suite.server, blocked, { title: 'From blocked' });
    const fromBlocker = await createTrack(suite.server, blocker, { title: 'From blocker' });
    const fine = await createTrack(suite.server, curator, { title: 'Curator own' });
    for (const track of [fromBlocked, fromBlocker])
      expectStatus(await curator.api.social.repost({ params: { id: track.id } }), 200);
    expect(expectStatus(await me.api.social.feed({ query: {} }), 200).body.data.items).toHaveLength(3);

    expectStatus(await me.api.users.block({ params: { id: blocked.id } }), 200);
    expectStatus(await blocker.api.users.block({ params: { id: me.id } }), 200);
    const feed = expectStatus(await me.api.social.feed({ query: {} }), 200).body.data;
    expect(feed.items.map((item) => item.track.title)).toEqual([fine.title]);
    expect(feed.pagination.total).toBe(1);
    expectStatus(await me.api.social.userReposts({ params: { id: blocker.id } }), 404);
    expectStatus(await blocker.api.social.userLikes({ params: { id: me.id } }), 404);
    // the curator's reposts as I see them leave out both
    expect(expectStatus(await me.api.social.userReposts({ params: { id: curator.id } }), 200).body.data.tracks).toEqual(
      [],
    );
    expect(expectStatus(await me.api.social.repost({ params: { id: fromBlocked.id } }), 403).body.error.code).toBe(
      'FORBIDDEN',
    );
  });
});
