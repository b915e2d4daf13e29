import { describe, expect, it } from 'vitest';
import { signedInUser } from '../support/accounts.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

describe('follows', () => {
  it('follow is idempotent, counted, listed both ways, and undone by unfollow', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    const first = await suite.http.post(`/users/${bob.id}/follow`, { token: alice.accessToken });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ following: true, follower_count: 1 });
    const again = await suite.http.post(`/users/${bob.id}/follow`, { token: alice.accessToken });
    expect(again.body.data).toEqual({ following: true, follower_count: 1 });

    const profile = await suite.http.get(`/users/${bob.id}`, { token: alice.accessToken });
    expect(profile.body.data.profile).toMatchObject({ follower_count: 1, following_count: 0, is_following: true });

    const followers = await suite.http.get(`/users/${bob.id}/followers`);
    expect(followers.body.data.users.map((u: { id: string }) => u.id)).toEqual([alice.id]);
    expect(followers.body.data.pagination).toEqual({ page: 1, limit: 20, total: 1, total_pages: 1 });
    const following = await suite.http.get(`/users/${alice.id}/following`);
    expect(following.body.data.users.map((u: { id: string }) => u.id)).toEqual([bob.id]);

    const undo = await suite.http.delete(`/users/${bob.id}/follow`, { token: alice.accessToken });
    expect(undo.body.data).toEqual({ following: false, follower_count: 0 });
    const undoAgain = await suite.http.delete(`/users/${bob.id}/follow`, { token: alice.accessToken });
    expect(undoAgain.status).toBe(200);

    const actions = (await suite.http.get('/audit/logs?resource=user', { token: alice.accessToken })).body.data.logs.map((l: { action: string }) => l.action);
    expect(actions.filter((a: string) => a === 'user.followed')).toHaveLength(1);
    expect(actions.filter((a: string) => a === 'user.unfollowed')).toHaveLength(1);
  });

  it('cannot follow yourself (400) or an unknown user (404); needs authentication (401)', async () => {
    const alice = await signedInUser(suite.server);
    const self = await suite.http.post(`/users/${alice.id}/follow`, { token: alice.accessToken });
    expect(self.status).toBe(400);
    expect(self.body.error.code).toBe('BAD_REQUEST');
    const unknown = await suite.http.post('/users/00000000-0000-4000-8000-000000000000/follow', { token: alice.accessToken });
    expect(unknown.status).toBe(404);
    const anonymous = await suite.http.post(`/users/${alice.id}/follow`);
    expect(anonymous.status).toBe(401);
    const badId = await suite.http.post('/users/nope/follow', { token: alice.accessToken });
    expect(badId.status).toBe(400);
    expect(badId.body.error.code).toBe('INVALID_ID');
  });

  it('paginates followers', async () => {
    const star = await signedInUser(suite.server);
    const fans = await Promise.all([0, 1, 2].map(() => signedInUser(suite.server)));
    for (const fan of fans) await suite.http.post(`/users/${star.id}/follow`, { token: fan.accessToken });
    const page = await suite.http.get(`/users/${star.id}/followers?page=2&limit=2`);
    expect(page.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, total_pages: 2 });
    expect(page.body.data.users).toHaveLength(1);
    expect((await suite.http.get(`/users/${star.id}/followers?limit=101`)).status).toBe(400);
    expect((await suite.http.get(`/users/${star.id}/followers?page=0`)).status).toBe(400);
  });
});

describe('blocks', () => {
  it('a block removes follows both ways, stops following, and hides the blocker’s profile', async () => {
    const alice = await signedInUser(suite.server);
    const mallory = await signedInUser(suite.server);
    await suite.http.post(`/users/${mallory.id}/follow`, { token: alice.accessToken });
    await suite.http.post(`/users/${alice.id}/follow`, { token: mallory.accessToken });

    const block = await suite.http.post(`/users/${mallory.id}/block`, { token: alice.accessToken });
    expect(block.status).toBe(200);
    expect(block.body.data).toEqual({ blocked: true });
    expect((await suite.http.post(`/users/${mallory.id}/block`, { token: alice.accessToken })).status).toBe(200);

    expect((await suite.http.get(`/users/${alice.id}/followers`)).body.data.pagination.total).toBe(0);
    expect((await suite.http.get(`/users/${alice.id}/following`)).body.data.pagination.total).toBe(0);

    const follow = await suite.http.post(`/users/${alice.id}/follow`, { token: mallory.accessToken });
    expect(follow.status).toBe(403);
    const followBack = await suite.http.post(`/users/${mallory.id}/follow`, { token: alice.accessToken });
    expect(followBack.status).toBe(403);

    expect((await suite.http.get(`/users/${alice.id}`, { token: mallory.accessToken })).status).toBe(404);
    expect((await suite.http.get(`/users/by-username/${alice.username}`, { token: mallory.accessToken })).status).toBe(404);
    expect((await suite.http.get(`/users/${alice.id}`)).status).toBe(200);
    const listed = await suite.http.get(`/users/search?q=${alice.username}`, { token: mallory.accessToken });
    expect(listed.body.data.users).toEqual([]);

    const unblock = await suite.http.delete(`/users/${mallory.id}/block`, { token: alice.accessToken });
    expect(unblock.body.data).toEqual({ blocked: false });
    expect((await suite.http.get(`/users/${alice.id}`, { token: mallory.accessToken })).status).toBe(200);
    expect((await suite.http.post(`/users/${alice.id}/follow`, { token: mallory.accessToken })).status).toBe(200);
  });

  it('cannot block yourself', async () => {
    const alice = await signedInUser(suite.server);
    expect((await suite.http.post(`/users/${alice.id}/block`, { token: alice.accessToken })).status).toBe(400);
  });
});

describe('suggestions', () => {
  it('exclude yourself, people you follow and blocks either way', async () => {
    const me = await signedInUser(suite.server);
    const followed = await signedInUser(suite.server);
    const blocked = await signedInUser(suite.server);
    const blocker = await signedInUser(suite.server);
    const candidate = await signedInUser(suite.server);
    await suite.http.post(`/users/${followed.id}/follow`, { token: me.accessToken });
    await suite.http.post(`/users/${blocked.id}/block`, { token: me.accessToken });
    await suite.http.post(`/users/${me.id}/block`, { token: blocker.accessToken });
    // a popular candidate ranks first
    await suite.http.post(`/users/${candidate.id}/follow`, { token: followed.accessToken });

    const reply = await suite.http.get('/users/suggestions?limit=50', { token: me.accessToken });
    expect(reply.status).toBe(200);
    const users = reply.body.data.users as { id: string; follower_count: number }[];
    const ids = users.map((u) => u.id);
    for (const excluded of [me.id, followed.id, blocked.id, blocker.id]) expect(ids).not.toContain(excluded);
    // most followed first (the database is shared with other tests, so only the order is certain)
    const counts = users.map((u) => u.follower_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    // the candidate (one follower, newest among equals) is listed unless 50 users rank above it
    if (!ids.includes(candidate.id)) {
      expect(users).toHaveLength(50);
      expect(counts.at(-1)).toBeGreaterThanOrEqual(1);
    }
    expect((await suite.http.get('/users/suggestions')).status).toBe(401);
  });
});

describe('listing and search', () => {
  it('lists users with pagination, filters and sorting; search matches names but not email for others', async () => {
    const alice = await signedInUser(suite.server);
    const marker = `Zebulon${alice.id.slice(0, 8)}`;
    await suite.http.put('/users/me', { token: alice.accessToken, body: { first_name: marker, last_name: 'Quartz' } });
    const byName = await suite.http.get(`/users?search=${marker.toLowerCase()}`);
    expect(byName.status).toBe(200);
    expect(byName.body.data.users.map((u: { id: string }) => u.id)).toEqual([alice.id]);
    expect(byName.text).not.toContain(alice.email);
    const byEmail = await suite.http.get(`/users?search=${encodeURIComponent(alice.email)}`);
    expect(byEmail.body.data.users).toEqual([]);

    const sorted = await suite.http.get('/users?sort_by=username&sort_order=asc&limit=100');
    const names = sorted.body.data.users.map((u: { username: string }) => u.username.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(sorted.body.data.pagination.limit).toBe(100);

    const verifiedOnly = await suite.http.get('/users?is_verified=true&limit=100');
    expect(verifiedOnly.body.data.users.every((u: { is_verified?: boolean; is_public: boolean }) => !u.is_public || u.is_verified)).toBe(true);

    expect((await suite.http.get('/users?sort_by=email')).status).toBe(403);
    expect((await suite.http.get('/users?sort_by=password')).status).toBe(400);
    expect((await suite.http.get('/users?is_active=maybe')).status).toBe(400);
    expect((await suite.http.get('/users?role=root')).status).toBe(400);

    const search = await suite.http.get(`/users/search?q=${alice.username.slice(0, 8)}`);
    expect(search.body.data.users.length).toBeGreaterThan(0);
    expect((await suite.http.get('/users/search')).status).toBe(400);
    const wildcard = await suite.http.get('/users/search?q=%25');
    expect(wildcard.status).toBe(200);
    expect(wildcard.body.data.users).toEqual([]);
  });
});
