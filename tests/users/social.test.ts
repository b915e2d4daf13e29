import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

describe('follows', () => {
  it('follow is idempotent, counted, listed both ways, and undone by unfollow', async () => {
    const alice = await createUser(suite.server);
    const bob = await createUser(suite.server);
    const first = expectStatus(await alice.api.users.follow({ params: { id: bob.id } }), 200);
    expect(first.body.data).toEqual({ following: true, follower_count: 1 });
    const again = expectStatus(await alice.api.users.follow({ params: { id: bob.id } }), 200);
    expect(again.body.data).toEqual({ following: true, follower_count: 1 });

    const profile = expectStatus(await alice.api.users.get({ params: { id: bob.id } }), 200);
    expect(profile.body.data.profile).toMatchObject({ follower_count: 1, following_count: 0, is_following: true });

    const followers = expectStatus(await suite.api.users.followers({ params: { id: bob.id } }), 200);
    expect(followers.body.data.users.map((u) => u.id)).toEqual([alice.id]);
    expect(followers.body.data.pagination).toEqual({ page: 1, limit: 20, total: 1, total_pages: 1 });
    const following = expectStatus(await suite.api.users.following({ params: { id: alice.id } }), 200);
    expect(following.body.data.users.map((u) => u.id)).toEqual([bob.id]);

    const undo = expectStatus(await alice.api.users.unfollow({ params: { id: bob.id } }), 200);
    expect(undo.body.data).toEqual({ following: false, follower_count: 0 });
    expectStatus(await alice.api.users.unfollow({ params: { id: bob.id } }), 200);

    const logs = expectStatus(await alice.api.audit.logs({ query: { resource: 'user' } }), 200);
    const actions = logs.body.data.logs.map((l) => l.action);
    expect(actions.filter((a) => a === 'user.followed')).toHaveLength(1);
    expect(actions.filter((a) => a === 'user.unfollowed')).toHaveLength(1);
  });

  it('cannot follow yourself (400) or an unknown user (404); needs authentication (401)', async () => {
    const alice = await createUser(suite.server);
    const self = expectStatus(await alice.api.users.follow({ params: { id: alice.id } }), 400);
    expect(self.body.error.code).toBe('BAD_REQUEST');
    expectStatus(await alice.api.users.follow({ params: { id: '00000000-0000-4000-8000-000000000000' } }), 404);
    expectStatus(await suite.api.users.follow({ params: { id: alice.id } }), 401);
    const badId = expectStatus(await alice.api.users.follow({ params: { id: 'nope' } }), 400);
    expect(badId.body.error.code).toBe('INVALID_ID');
  });

  it('paginates followers', async () => {
    const star = await createUser(suite.server);
    const fans = await Promise.all([0, 1, 2].map(() => createUser(suite.server)));
    for (const fan of fans) expectStatus(await fan.api.users.follow({ params: { id: star.id } }), 200);
    const page = expectStatus(
      await suite.api.users.followers({ params: { id: star.id }, query: { page: 2, limit: 2 } }),
      200,
    );
    expect(page.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, total_pages: 2 });
    expect(page.body.data.users).toHaveLength(1);
    const past = expectStatus(
      await suite.api.users.followers({ params: { id: star.id }, query: { page: 4, limit: 2 } }),
      200,
    );
    expect(past.body.data).toMatchObject({ users: [], pagination: { page: 4, total: 3, total_pages: 2 } });
    expectStatus(await suite.api.users.followers({ params: { id: star.id }, query: { limit: 101 } }), 400);
    expectStatus(await suite.api.users.followers({ params: { id: star.id }, query: { page: 0 } }), 400);
  });
});

describe('blocks', () => {
  it('a block removes follows both ways, stops following, and hides the blocker’s profile', async () => {
    const alice = await createUser(suite.server);
    const mallory = await createUser(suite.server);
    expectStatus(await alice.api.users.follow({ params: { id: mallory.id } }), 200);
    expectStatus(await mallory.api.users.follow({ params: { id: alice.id } }), 200);

    const block = expectStatus(await alice.api.users.block({ params: { id: mallory.id } }), 200);
    expect(block.body.data).toEqual({ blocked: true });
    expectStatus(await alice.api.users.block({ params: { id: mallory.id } }), 200);

    expect(
      expectStatus(await suite.api.users.followers({ params: { id: alice.id } }), 200).body.data.pagination.total,
    ).toBe(0);
    expect(
      expectStatus(await suite.api.users.following({ params: { id: alice.id } }), 200).body.data.pagination.total,
    ).toBe(0);

    expectStatus(await mallory.api.users.follow({ params: { id: alice.id } }), 403);
    expectStatus(await alice.api.users.follow({ params: { id: mallory.id } }), 403);

    expectStatus(await mallory.api.users.get({ params: { id: alice.id } }), 404);
    expectStatus(await mallory.api.users.byUsername({ params: { username: alice.username } }), 404);
    expectStatus(await suite.api.users.get({ params: { id: alice.id } }), 200);
    // search may find others a typo away from the name, never the blocker
    const listed = expectStatus(await mallory.api.users.search({ query: { q: alice.username } }), 200);
    expect(listed.body.data.users.map((user) => user.id)).not.toContain(alice.id);

    const unblock = expectStatus(await alice.api.users.unblock({ params: { id: mallory.id } }), 200);
    expect(unblock.body.data).toEqual({ blocked: false });
    expectStatus(await mallory.api.users.get({ params: { id: alice.id } }), 200);
    expectStatus(await mallory.api.users.follow({ params: { id: alice.id } }), 200);
  });

  it('cannot block yourself', async () => {
    const alice = await createUser(suite.server);
    expectStatus(await alice.api.users.block({ params: { id: alice.id } }), 400);
  });
});

describe('suggestions', () => {
  it('exclude yourself, people you follow and blocks either way', async () => {
    const me = await createUser(suite.server);
    const followed = await createUser(suite.server);
    const blocked = await createUser(suite.server);
    const blocker = await createUser(suite.server);
    const candidate = await createUser(suite.server);
    await me.api.users.follow({ params: { id: followed.id } });
    await me.api.users.block({ params: { id: blocked.id } });
    await blocker.api.users.block({ params: { id: me.id } });
    // a popular candidate ranks first
    await followed.api.users.follow({ params: { id: candidate.id } });

    const reply = expectStatus(await me.api.users.suggestions({ query: { limit: 50 } }), 200);
    const users = reply.body.data.users;
    const ids = users.map((u) => u.id);
    for (const excluded of [me.id, followed.id, blocked.id, blocker.id]) expect(ids).not.toContain(excluded);
    // most followed first (the database is shared with other tests, so only the order is certain)
    const counts = users.map((u) => u.follower_count);
    expect(counts).toEqual([...counts].sort((a, b) => (b ?? 0) - (a ?? 0)));
    // the candidate (one follower, newest among equals) is listed unless 50 users rank above it
    if (!ids.includes(candidate.id)) {
      expect(users).toHaveLength(50);
      expect(counts.at(-1)).toBeGreaterThanOrEqual(1);
    }
    expectStatus(await suite.api.users.suggestions(), 401);
  });
});

describe('listing and search', () => {
  it('lists users with pagination, filters and sorting; search matches names but not email for others', async () => {
    const alice = await createUser(suite.server);
    const marker = `Zebulon${alice.id.slice(0, 8)}`;
    expectStatus(
      await alice.api.users.update({ params: { id: 'me' }, body: { first_name: marker, last_name: 'Quartz' } }),
      200,
    );
    const byName = expectStatus(await suite.api.users.list({ query: { search: marker.toLowerCase() } }), 200);
    expect(byName.body.data.users.map((u) => u.id)).toEqual([alice.id]);
    expect(byName.text).not.toContain(alice.email);
    const byEmail = expectStatus(await suite.api.users.list({ query: { search: alice.email } }), 200);
    expect(byEmail.body.data.users).toEqual([]);

    const sorted = expectStatus(
      await suite.api.users.list({ query: { sort_by: 'username', sort_order: 'asc', limit: 100 } }),
      200,
    );
    const names = sorted.body.data.users.map((u) => u.username.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(sorted.body.data.pagination.limit).toBe(100);

    const verifiedOnly = expectStatus(await suite.api.users.list({ query: { is_verified: true, limit: 100 } }), 200);
    expect(verifiedOnly.body.data.users.every((u) => !u.is_public || u.is_verified)).toBe(true);

    expectStatus(await suite.api.users.list({ query: { sort_by: 'email' } }), 403);
    // values the contract refuses are sent untyped
    expect((await suite.http.get('/users?sort_by=password')).status).toBe(400);
    expect((await suite.http.get('/users?is_active=maybe')).status).toBe(400);
    expect((await suite.http.get('/users?role=root')).status).toBe(400);

    const search = expectStatus(await suite.api.users.search({ query: { q: alice.username.slice(0, 8) } }), 200);
    expect(search.body.data.users.length).toBeGreaterThan(0);
    expect((await suite.http.get('/users/search')).status).toBe(400);
    const wildcard = expectStatus(await suite.api.users.search({ query: { q: '%' } }), 200);
    expect(wildcard.body.data.users).toEqual([]);
  });
});
