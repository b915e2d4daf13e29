import { describe, expect, it } from 'vitest';
import { register, signedInUser } from '../support/accounts.js';
import { useTestServer } from '../support/suite.js';
import { createAdmin } from '../support/admin-factory.js';

const suite = useTestServer();

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('profile rules (ADDENDUM "Envelope, errors, formats")', () => {
  it.each([
    ['birthdate', '0000-01-01'],
    ['birthdate', '1899-12-31'],
    ['birthdate', isoDay(2)],
    ['banner_url', 'javascript:alert(document.cookie)'],
    ['banner_url', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['banner_url', 'file:///etc/passwd'],
    ['banner_url', '/relative/banner.png'],
    ['avatar', 'javascript:alert(1)'],
    ['avatar', 'data:image/png;base64,AAAA'],
    ['social_links', { site: 'javascript:alert(1)' }],
    ['social_links', { site: 'data:text/html,<script>alert(1)</script>' }],
    ['social_links', { site: 'file:///etc/passwd' }],
  ])('refuses %s = %j with 400 VALIDATION_FAILED naming the field, and stores nothing', async (field, value) => {
    const alice = await signedInUser(suite.server);
    const reply = await suite.http.put('/users/me', {
      token: alice.accessToken,
      body: { [field]: value, bio: 'should not be stored' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    expect(reply.body.error.details[0].field).toMatch(new RegExp(`^${field}`));
    const row = await suite.server.riff.database.db
      .selectFrom('users')
      .select(['bio', 'birthdate'])
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ bio: null, birthdate: null });
  });

  it('accepts the edges: 1900-01-01 and today; http and https URLs, avatar included', async () => {
    const alice = await signedInUser(suite.server);
    for (const birthdate of ['1900-01-01', isoDay(0)]) {
      const reply = await suite.http.put('/users/me', { token: alice.accessToken, body: { birthdate } });
      expect(reply.status, birthdate).toBe(200);
      expect(reply.body.data.profile.birthdate).toBe(birthdate);
    }
    const body = {
      avatar: 'https://cdn.example/a.png',
      banner_url: 'http://cdn.example/b.png',
      social_links: { web: 'https://alice.example/' },
    };
    const reply = await suite.http.put('/users/me', { token: alice.accessToken, body });
    expect(reply.status).toBe(200);
    expect(reply.body.data.profile).toMatchObject(body);
  });
});

describe('search never matches what the caller may not see', () => {
  it('a private profile’s first and last names are not searchable by others, only by the owner and admins', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    const marker = `Zq${alice.id.slice(0, 8)}`;
    await suite.http.put('/users/me', {
      token: alice.accessToken,
      body: { first_name: `${marker}first`, last_name: `${marker}last`, is_public: false },
    });

    for (const path of [`/users?search=${marker}`, `/users/search?q=${marker}`, `/users?search=${marker}last`]) {
      const anonymous = await suite.http.get(path);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body.data.users, path).toEqual([]);
      expect(anonymous.body.data.pagination.total).toBe(0);
      const other = await suite.http.get(path, { token: bob.accessToken });
      expect(other.body.data.users, path).toEqual([]);
      const own = await suite.http.get(path, { token: alice.accessToken });
      expect(
        own.body.data.users.map((user: { id: string }) => user.id),
        path,
      ).toEqual([alice.id]);
    }

    // public again: the names are shown, so they may be matched
    await suite.http.put('/users/me', { token: alice.accessToken, body: { is_public: true } });
    const shown = await suite.http.get(`/users/search?q=${marker}`);
    expect(shown.body.data.users.map((user: { id: string }) => user.id)).toEqual([alice.id]);
  });

  it('an admin’s search matches private names', async () => {
    const alice = await signedInUser(suite.server);
    const admin = await createAdmin(suite.server);
    const marker = `Zk${alice.id.slice(0, 8)}`;
    await suite.http.put('/users/me', { token: alice.accessToken, body: { last_name: marker, is_public: false } });
    const found = await suite.http.get(`/users?search=${marker}`, { token: admin.accessToken });
    expect(found.body.data.users.map((user: { id: string }) => user.id)).toEqual([alice.id]);
  });
});

describe('unverified accounts', () => {
  it('are neither listed nor visible to others (404), and cannot be followed', async () => {
    const pending = await register(suite.server);
    const bob = await signedInUser(suite.server);
    for (const token of [undefined, bob.accessToken]) {
      const options = token ? { token } : {};
      expect((await suite.http.get(`/users/${pending.id}`, options)).status).toBe(404);
      expect((await suite.http.get(`/users/by-username/${pending.username}`, options)).status).toBe(404);
      // search may find others a typo away from the name, never the unverified account
      const found = (await suite.http.get(`/users/search?q=${pending.username}`, options)).body.data.users as {
        id: string;
      }[];
      expect(found.map((user) => user.id)).not.toContain(pending.id);
      expect((await suite.http.get(`/users?search=${pending.username}`, options)).body.data.users).toEqual([]);
      expect(
        (await suite.http.get(`/users?is_verified=false&search=${pending.username}`, options)).body.data.pagination
          .total,
      ).toBe(0);
    }
    expect((await suite.http.post(`/users/${pending.id}/follow`, { token: bob.accessToken })).status).toBe(404);
  });
});
