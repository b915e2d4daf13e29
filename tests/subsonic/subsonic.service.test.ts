import { createHash } from 'node:crypto';
import { APP_PASSWORDS_PER_USER_MAX } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { userActor, type RequestOrigin } from '../../server/src/platform/access/actor.js';
import { SubsonicError } from '../../server/src/modules/subsonic/rest-error.js';
import { SubsonicParams } from '../../server/src/modules/subsonic/rest-params.js';
import { refusal } from '../support/refusal.js';
import { serviceApiKey, serviceUnverifiedUser, serviceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of app passwords and of signing in at /rest/, on the services: what an app password is,
// whose it is, how many a user holds, which credentials open the Subsonic interface and for what.
// rest.test.ts drives the same through HTTP with a real Subsonic client.
const suite = useServices();

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const origin = (ip = '203.0.113.7'): RequestOrigin => ({ ip, userAgent: 'a player', requestId: null });
const noHeaders = { setHeader: () => undefined };
const params = (values: Record<string, string>) => SubsonicParams.parse(new URLSearchParams(values).toString());

/** The Subsonic error code a sign-in is refused with (fails the test when it succeeds or throws anything else). */
async function subsonicCode(call: Promise<unknown>): Promise<number> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SubsonicError)) throw new Error(`expected a Subsonic error, got ${String(error)}`);
  return error.code;
}

describe('app passwords (service)', () => {
  it('a new password is 24 letters and digits, shown once; the list never shows it', async () => {
    const { appPasswords } = suite.areas.subsonic.services;
    const owner = await serviceUser(suite);
    const first = await appPasswords.create(owner, { name: 'Phone' });
    const second = await appPasswords.create(owner, { name: 'Car' });
    expect(first.password).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(second.password).not.toBe(first.password);
    expect(first.app_password).toMatchObject({ name: 'Phone', last_used_at: null });
    const { app_passwords: listed } = await appPasswords.list(owner);
    expect(listed.map((entry) => entry.name)).toEqual(['Car', 'Phone']);
    expect(JSON.stringify(listed)).not.toContain(first.password);
  });

  it('is stored sealed, not in clear', async () => {
    const owner = await serviceUser(suite);
    const { password, app_password } = await suite.areas.subsonic.services.appPasswords.create(owner, { name: 'x' });
    const row = await suite.platform.database.db
      .selectFrom('app_passwords')
      .selectAll()
      .where('id', '=', app_password.id)
      .executeTakeFirstOrThrow();
    expect(row.password_sealed).not.toContain(password);
    expect(Buffer.from(row.password_sealed, 'base64').toString('latin1')).not.toContain(password);
  });

  it(`a user holds at most ${APP_PASSWORDS_PER_USER_MAX}; revoking one makes room`, async () => {
    const { appPasswords } = suite.areas.subsonic.services;
    const owner = await serviceUser(suite);
    const made = [];
    for (let index = 0; index < APP_PASSWORDS_PER_USER_MAX; index++) {
      made.push(await appPasswords.create(owner, { name: `app ${index}` }));
    }
    expect(await refusal(appPasswords.create(owner, { name: 'one more' }))).toMatchObject({
      status: 400,
      code: 'LIMIT_REACHED',
    });
    await appPasswords.revoke(owner, made[0]!.app_password.id);
    await appPasswords.create(owner, { name: 'one more' });
  });

  it('another user, an admin included, cannot revoke one: it does not exist for them', async () => {
    const { appPasswords } = suite.areas.subsonic.services;
    const owner = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const { app_password } = await appPasswords.create(owner, { name: 'Mine' });
    expect(await refusal(appPasswords.revoke(admin, app_password.id))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect((await appPasswords.list(owner)).app_passwords).toHaveLength(1);
  });
});

describe('signing in at /rest/ (service)', () => {
  it('an app password opens the interface by token and salt, in clear and as enc: hex; its use is recorded', async () => {
    const { appPasswords, auth } = suite.areas.subsonic.services;
    const owner = await serviceUser(suite);
    const { password } = await appPasswords.create(owner, { name: 'Phone' });
    const salt = 'c19b2d';
    const byToken = await auth.authenticate(
      params({ u: owner.username, t: md5(password + salt), s: salt }),
      'write',
      origin(),
      noHeaders,
    );
    expect(byToken).toMatchObject({ id: owner.id, via: 'app_password' });
    const enc = `enc:${Buffer.from(password).toString('hex')}`;
    for (const p of [password, enc]) {
      expect(
        (await auth.authenticate(params({ u: owner.username.toUpperCase(), p }), 'read', origin(), noHeaders)).id,
      ).toBe(owner.id);
    }
    expect((await appPasswords.list(owner)).app_passwords[0]!.last_used_at).not.toBeNull();
  });

  it('the account password never opens it', async () => {
    const { appPasswords, auth } = suite.areas.subsonic.services;
    const owner = await serviceUser(suite);
    await appPasswords.create(owner, { name: 'Phone' });
    expect(
      await subsonicCode(
        auth.authenticate(params({ u: owner.username, p: owner.password }), 'read', origin(), noHeaders),
      ),
    ).toBe(40);
  });

  it('a suspended, banned or unverified account is refused with its app password', async () => {
    const { appPasswords, auth } = suite.areas.subsonic.services;
    const { standing } = suite.areas.users;
    const [suspended, banned] = [await serviceUser(suite), await serviceUser(suite)];
    const unverified = await serviceUnverifiedUser(suite);
    const account = await suite.areas.users.people.findAccount(unverified.id);
    const cases = [
      { username: suspended.username, ...(await appPasswords.create(suspended, { name: 'x' })) },
      { username: banned.username, ...(await appPasswords.create(banned, { name: 'x' })) },
      // unverified: no session could make one, the service is asked directly as that account
      { username: unverified.username, ...(await appPasswords.create(userActor(account!, 'bearer'), { name: 'x' })) },
    ];
    await suite.platform.scope.transaction(async () => {
      await standing.suspend(suspended.id, new Date(Date.now() + 86_400_000));
      await standing.ban(banned.id);
    });
    for (const { username, password } of cases) {
      expect(
        await subsonicCode(auth.authenticate(params({ u: username, p: password }), 'read', origin(), noHeaders)),
      ).toBe(40);
    }
  });

  it('an API key reads with scope read, changes only with write or admin (a change with a read key is error 50)', async () => {
    const { auth } = suite.areas.subsonic.services;
    const owner = await serviceUser(suite);
    const read = await serviceApiKey(suite, owner, { scopes: ['read'] });
    const write = await serviceApiKey(suite, owner, { scopes: ['write'] });
    const admin = await serviceApiKey(suite, owner, { scopes: ['admin'] });
    const as = (key: string, needs: 'read' | 'write') =>
      auth.authenticate(params({ apiKey: key }), needs, origin(), noHeaders);
    expect(await as(read.key, 'read')).toMatchObject({ id: owner.id, via: 'api_key', scopes: ['read'] });
    expect(await subsonicCode(as(read.key, 'write'))).toBe(50);
    expect((await as(write.key, 'write')).id).toBe(owner.id);
    expect((await as(admin.key, 'write')).id).toBe(owner.id);
    expect(await subsonicCode(as(`${read.key}x`, 'read'))).toBe(44);
    expect(await subsonicCode(as('not-a-riff-key', 'read'))).toBe(44);
  });

  it('conflicting or incomplete credentials: 43 and 10', async () => {
    const { auth } = suite.areas.subsonic.services;
    const sign = (values: Record<string, string>) =>
      subsonicCode(auth.authenticate(params(values), 'read', origin(), noHeaders));
    expect(await sign({ apiKey: 'riff_x', u: 'someone' })).toBe(43);
    expect(await sign({ apiKey: 'riff_x', u: 'someone', p: 'secret' })).toBe(43);
    expect(await sign({ u: 'someone', p: 'secret', t: 'abc', s: 'def' })).toBe(43);
    expect(await sign({})).toBe(10);
    expect(await sign({ p: 'secret' })).toBe(10);
    expect(await sign({ u: 'someone' })).toBe(10);
    expect(await sign({ u: 'someone', t: 'abc' })).toBe(10);
  });

  it('after 10 failures for one username from one address, even the right password fails until the window passes', async () => {
    const { appPasswords, auth } = suite.areas.subsonic.services;
    const owner = await serviceUser(suite);
    const { password } = await appPasswords.create(owner, { name: 'Phone' });
    const from = origin('198.51.100.23');
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(
        await subsonicCode(auth.authenticate(params({ u: owner.username, p: 'guess' }), 'read', from, noHeaders)),
      ).toBe(40);
    }
    expect(
      await subsonicCode(auth.authenticate(params({ u: owner.username, p: password }), 'read', from, noHeaders)),
    ).toBe(40);
    // another address is counted apart
    expect(
      (await auth.authenticate(params({ u: owner.username, p: password }), 'read', origin('198.51.100.24'), noHeaders))
        .id,
    ).toBe(owner.id);
  });
});
