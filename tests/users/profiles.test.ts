import { describe, expect, it } from 'vitest';
import { signedInUser } from '../support/accounts.js';
import { demoteToUser } from '../support/row-states.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

describe('profiles', () => {
  it('the owner sees their email; others and anonymous callers do not', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    const own = await suite.http.get(`/users/${alice.id}`, { token: alice.accessToken });
    expect(own.status).toBe(200);
    expect(own.body.data.profile).toMatchObject({
      id: alice.id,
      username: alice.username,
      email: alice.email,
      follower_count: 0,
      following_count: 0,
    });

    const byBob = await suite.http.get(`/users/${alice.id}`, { token: bob.accessToken });
    expect(byBob.body.data.profile.username).toBe(alice.username);
    expect(byBob.body.data.profile).not.toHaveProperty('email');
    expect(byBob.body.data.profile).not.toHaveProperty('birthdate');
    expect(byBob.text).not.toContain(alice.email);

    const anonymous = await suite.http.get(`/users/${alice.id}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).not.toContain(alice.email);

    const me = await suite.http.get('/users/me', { token: alice.accessToken });
    expect(me.body.data.profile.id).toBe(alice.id);
    const anonymousMe = await suite.http.get('/users/me');
    expect(anonymousMe.status).toBe(401);
  });

  it('a private profile shows others only id, username, slug and avatar', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    await suite.http.put(`/users/${alice.id}`, {
      token: alice.accessToken,
      body: { is_public: false, bio: 'secret bio', first_name: 'Alice' },
    });
    const seen = await suite.http.get(`/users/${alice.id}`, { token: bob.accessToken });
    expect(seen.body.data.profile).toEqual({
      id: alice.id,
      username: alice.username,
      slug: expect.any(String),
      avatar: null,
      is_public: false,
    });
    const byName = await suite.http.get(`/users/by-username/${alice.username}`);
    expect(byName.body.data.profile).toEqual({
      id: alice.id,
      username: alice.username,
      slug: expect.any(String),
      avatar: null,
      is_public: false,
    });
    const own = await suite.http.get(`/users/${alice.id}`, { token: alice.accessToken });
    expect(own.body.data.profile.bio).toBe('secret bio');
    const followers = await suite.http.get(`/users/${alice.id}/followers`, { token: bob.accessToken });
    expect(followers.status).toBe(403);
  });

  it('a malformed id is 400 INVALID_ID; an unknown one 404', async () => {
    const bad = await suite.http.get('/users/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_ID');
    const unknown = await suite.http.get('/users/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const unknownName = await suite.http.get('/users/by-username/nobody_at_all');
    expect(unknownName.status).toBe(404);
  });
});

describe('profile update', () => {
  it('applies the fields, within SPEC limits, and writes an audit entry', async () => {
    const alice = await signedInUser(suite.server);
    const body = {
      first_name: 'Alice',
      last_name: 'Liddell',
      bio: 'b'.repeat(500),
      location: 'l'.repeat(100),
      banner_url: `https://cdn.example/${'x'.repeat(2000)}`,
      birthdate: '1990-05-17',
      gender: 'Prefer not to say',
      social_links: { bandcamp: 'https://alice.bandcamp.com' },
    };
    const reply = await suite.http.put(`/users/${alice.id}`, { token: alice.accessToken, body });
    expect(reply.status).toBe(200);
    expect(reply.body.data.profile).toMatchObject(body);
    const audit = await suite.http.get('/audit/logs?action=user.updated', { token: alice.accessToken });
    expect(audit.body.data.logs).toHaveLength(1);
    expect(audit.body.data.logs[0].metadata.fields).toContain('bio');
  });

  it.each([
    ['username', 'ab'],
    ['username', 'x'.repeat(31)],
    ['bio', 'b'.repeat(501)],
    ['first_name', 'n'.repeat(101)],
    ['last_name', 'n'.repeat(101)],
    ['location', 'l'.repeat(101)],
    ['banner_url', `https://cdn.example/${'x'.repeat(2048)}`],
    ['gender', 'Unknown'],
    ['birthdate', '1990-02-30'],
    ['is_public', 'yes'],
  ])('refuses %s = %j with 400 VALIDATION_FAILED', async (field, value) => {
    const alice = await signedInUser(suite.server);
    const reply = await suite.http.put(`/users/${alice.id}`, { token: alice.accessToken, body: { [field]: value } });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    expect(reply.body.error.details[0].field).toBe(field);
  });

  it('cannot set role, is_admin, is_banned, is_verified, token_version, counters or timestamps', async () => {
    const alice = await signedInUser(suite.server);
    const reply = await suite.http.put(`/users/${alice.id}`, {
      token: alice.accessToken,
      body: {
        role: 'admin',
        is_admin: true,
        is_banned: true,
        is_verified: false,
        token_version: 99,
        login_count: 1000,
        created_at: '2000-01-01T00:00:00.000Z',
        id: 'x',
      },
    });
    expect(reply.status).toBe(200);
    const me = await suite.http.get('/auth/me', { token: alice.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      role: 'user',
      is_admin: false,
      is_banned: false,
      is_verified: true,
      token_version: 0,
      login_count: 1,
    });
  });

  it('only the owner may edit: another user gets 403', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    const reply = await suite.http.put(`/users/${alice.id}`, { token: bob.accessToken, body: { bio: 'hacked' } });
    expect(reply.status).toBe(403);
    expect(reply.body.error.code).toBe('FORBIDDEN');
    const anonymous = await suite.http.put(`/users/${alice.id}`, { body: { bio: 'hacked' } });
    expect(anonymous.status).toBe(401);
  });

  it('usernames are unique ignoring case; a change re-derives the slug and sets username_changed_at', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    const taken = await suite.http.put(`/users/${alice.id}`, {
      token: alice.accessToken,
      body: { username: bob.username.toUpperCase() },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('CONFLICT');

    const fresh = `Fresh.Name_${alice.id.slice(0, 6)}`;
    const renamed = await suite.http.put(`/users/${alice.id}`, { token: alice.accessToken, body: { username: fresh } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.profile.username).toBe(fresh);
    expect(renamed.body.data.profile.slug).toBe(`fresh-name-${alice.id.slice(0, 6)}`);
    expect(Date.parse(renamed.body.data.profile.username_changed_at)).toBeGreaterThan(Date.now() - 60_000);
    const found = await suite.http.get(`/users/by-username/${fresh.toLowerCase()}`);
    expect(found.status).toBe(200);
  });
});

describe('profile completion', () => {
  it('reports the percentage and the missing fields; only to the owner', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    const empty = await suite.http.get(`/users/${alice.id}/completion`, { token: alice.accessToken });
    expect(empty.status).toBe(200);
    expect(empty.body.data.percentage).toBe(0);
    expect(empty.body.data.missing_fields).toContain('bio');
    await suite.http.put('/users/me', {
      token: alice.accessToken,
      body: { bio: 'hi', first_name: 'A', last_name: 'L' },
    });
    const some = await suite.http.get('/users/me/completion', { token: alice.accessToken });
    expect(some.body.data.percentage).toBe(33);
    expect(some.body.data.completed_fields.sort()).toEqual(['bio', 'first_name', 'last_name']);
    expect((await suite.http.get(`/users/${alice.id}/completion`, { token: bob.accessToken })).status).toBe(403);
  });
});

describe('creator upgrade', () => {
  it('sets role creator and promoted_to_creator_at once; it never moves after', async () => {
    const alice = await signedInUser(suite.server);
    const first = await suite.http.post('/users/me/upgrade-creator', { token: alice.accessToken });
    expect(first.status).toBe(200);
    expect(first.body.data.user.role).toBe('creator');
    const promotedAt = first.body.data.user.promoted_to_creator_at;
    expect(Date.parse(promotedAt)).not.toBeNaN();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await suite.http.post('/users/me/upgrade-creator', { token: alice.accessToken });
    expect(again.body.data.user.promoted_to_creator_at).toBe(promotedAt);
    // even if the role went back to user (e.g. by an admin), the first promotion time stays
    await demoteToUser(suite.server, alice.id);
    const third = await suite.http.post('/users/me/upgrade-creator', { token: alice.accessToken });
    expect(third.body.data.user.role).toBe('creator');
    expect(third.body.data.user.promoted_to_creator_at).toBe(promotedAt);
  });
});
