import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal.js';
import { serviceUser, type ServiceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of follows and blocks, called on the service with an Actor: the HTTP tests hold the
// routes and replies to the contract; these hold what the service decides.
const suite = useServices();
const page = { page: 1, limit: 50 };

/** The usernames the user follows, or that follow them, as the user reads their own lists. */
async function names(user: ServiceUser, direction: 'followers' | 'following'): Promise<string[]> {
  const { follows } = suite.areas.users.services;
  return (await follows.relations(user, 'me', direction, page)).users.map((profile) => profile.username);
}

describe('follows and blocks (service)', () => {
  it('nobody follows or blocks themselves', async () => {
    const { follows } = suite.areas.users.services;
    const user = await serviceUser(suite);
    expect(await refusal(follows.follow(user, user.id))).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(await refusal(follows.block(user, user.id))).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(await names(user, 'following')).toEqual([]);
  });

  it('following counts once, and unfollowing takes it back', async () => {
    const { follows } = suite.areas.users.services;
    const fan = await serviceUser(suite);
    const artist = await serviceUser(suite);
    expect(await follows.follow(fan, artist.id)).toEqual({ following: true, follower_count: 1 });
    expect(await follows.follow(fan, artist.id)).toEqual({ following: true, follower_count: 1 });
    expect(await names(artist, 'followers')).toEqual([fan.username]);
    expect(await follows.unfollow(fan, artist.id)).toEqual({ following: false, follower_count: 0 });
    expect(await names(fan, 'following')).toEqual([]);
  });

  it('blocking ends the follows both ways, and unblocking does not bring them back', async () => {
    const { follows } = suite.areas.users.services;
    const blocker = await serviceUser(suite);
    const blocked = await serviceUser(suite);
    await follows.follow(blocker, blocked.id);
    await follows.follow(blocked, blocker.id);
    expect(await names(blocker, 'followers')).toEqual([blocked.username]);
    expect(await follows.block(blocker, blocked.id)).toEqual({ blocked: true });
    expect(await follows.unblock(blocker, blocked.id)).toEqual({ blocked: false });
    // the follows were removed, not hidden while the block stood
    expect(await names(blocker, 'followers')).toEqual([]);
    expect(await names(blocker, 'following')).toEqual([]);
    expect(await names(blocked, 'following')).toEqual([]);
    expect(await names(blocked, 'followers')).toEqual([]);
  });

  it('neither side of a block may follow the other until it is lifted', async () => {
    const { follows } = suite.areas.users.services;
    const blocker = await serviceUser(suite);
    const blocked = await serviceUser(suite);
    await follows.block(blocker, blocked.id);
    expect(await refusal(follows.follow(blocked, blocker.id))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(await refusal(follows.follow(blocker, blocked.id))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(await names(blocker, 'followers')).toEqual([]);
    await follows.unblock(blocker, blocked.id);
    expect(await follows.follow(blocked, blocker.id)).toEqual({ following: true, follower_count: 1 });
    expect(await names(blocker, 'followers')).toEqual([blocked.username]);
  });
});
