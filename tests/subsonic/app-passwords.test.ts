import { APP_PASSWORDS_PER_USER_MAX } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { createAppPassword, jsonReply, restCall } from '../support/subsonic.js';

// The routes that manage app passwords (bearer only), and their part in the account's export.
const suite = useTestServer();

async function apiKey(owner: { accessToken: string }, scopes: string[]) {
  const reply = await suite.http.post('/developer/api-keys', { token: owner.accessToken, body: { name: 'k', scopes } });
  expect(reply.status).toBe(201);
  return reply.body.data.key as string;
}

describe('app passwords over HTTP', () => {
  it('creates (the password shown once), lists newest first without it, and revokes', async () => {
    const owner = await createUser(suite.server);
    const created = await suite.http.post('/users/me/app-passwords', {
      token: owner.accessToken,
      body: { name: '  Symfonium  ' },
    });
    expect(created.status).toBe(201);
    const { app_password, password } = created.body.data;
    expect(password).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(app_password).toEqual({
      id: expect.any(String),
      name: 'Symfonium',
      created_at: expect.any(String),
      last_used_at: null,
    });
    const second = await createAppPassword(suite.server, owner, 'Feishin');
    const listed = await suite.http.get('/users/me/app-passwords', { token: owner.accessToken });
    expect(listed.status).toBe(200);
    expect(listed.body.data.app_passwords.map((entry: { id: string }) => entry.id)).toEqual([
      second.id,
      app_password.id,
    ]);
    expect(listed.text).not.toContain(password);
    expect(listed.text).not.toContain(second.password);

    const revoked = await suite.http.delete(`/users/me/app-passwords/${app_password.id}`, { token: owner.accessToken });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.message).toBe('App password revoked');
    const after = await suite.http.get('/users/me/app-passwords', { token: owner.accessToken });
    expect(after.body.data.app_passwords.map((entry: { id: string }) => entry.id)).toEqual([second.id]);
    expect(
      (await suite.http.delete(`/users/me/app-passwords/${app_password.id}`, { token: owner.accessToken })).status,
    ).toBe(404);
  });

  it('refuses an empty or long name, and an eleventh password', async () => {
    const owner = await createUser(suite.server);
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const reply = await suite.http.post('/users/me/app-passwords', { token: owner.accessToken, body: { name } });
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    }
    for (let index = 0; index < APP_PASSWORDS_PER_USER_MAX; index++) await createAppPassword(suite.server, owner);
    const eleventh = await suite.http.post('/users/me/app-passwords', {
      token: owner.accessToken,
      body: { name: 'x' },
    });
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.error.code).toBe('LIMIT_REACHED');
  });

  it('an API key, even admin, manages none (403 INSUFFICIENT_SCOPE); without credentials 401', async () => {
    const owner = await createUser(suite.server);
    const { id } = await createAppPassword(suite.server, owner);
    const key = await apiKey(owner, ['admin']);
    const headers = { 'x-api-key': key };
    for (const reply of [
      await suite.http.get('/users/me/app-passwords', { headers }),
      await suite.http.post('/users/me/app-passwords', { headers, body: { name: 'by key' } }),
      await suite.http.delete(`/users/me/app-passwords/${id}`, { headers }),
    ]) {
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('INSUFFICIENT_SCOPE');
    }
    expect((await suite.http.get('/users/me/app-passwords')).status).toBe(401);
    expect(
      (await suite.http.get('/users/me/app-passwords', { token: owner.accessToken })).body.data.app_passwords,
    ).toHaveLength(1);
  });

  it('another user’s is 404 and stays', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const { id } = await createAppPassword(suite.server, owner);
    const reply = await suite.http.delete(`/users/me/app-passwords/${id}`, { token: other.accessToken });
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe('NOT_FOUND');
    expect(
      (await suite.http.get('/users/me/app-passwords', { token: other.accessToken })).body.data.app_passwords,
    ).toEqual([]);
    expect(
      (await suite.http.get('/users/me/app-passwords', { token: owner.accessToken })).body.data.app_passwords,
    ).toHaveLength(1);
  });

  it('the account export lists them by name and dates, never the password; creation and revocation are audited', async () => {
    const owner = await createUser(suite.server);
    const { id, password } = await createAppPassword(suite.server, owner, 'DSub');
    const gone = await createAppPassword(suite.server, owner, 'Old phone');
    expect((await suite.http.delete(`/users/me/app-passwords/${gone.id}`, { token: owner.accessToken })).status).toBe(
      200,
    );
    const exported = await suite.http.get('/users/me/export', { token: owner.accessToken });
    expect(exported.status).toBe(200);
    expect(exported.body.app_passwords).toEqual([
      { id, name: 'DSub', created_at: expect.any(String), last_used_at: null },
    ]);
    expect(exported.text).not.toContain(password);
    const audit = exported.body.audit_logs as { action: string; resource: string; resource_id: string }[];
    expect(
      audit.filter((entry) => entry.resource === 'app_password').map((entry) => [entry.action, entry.resource_id]),
    ).toEqual(
      expect.arrayContaining([
        ['app_password.created', id],
        ['app_password.created', gone.id],
        ['app_password.revoked', gone.id],
      ]),
    );
  });

  it('deleting the account erases them: the audit entry counts them and no app signs in any more', async () => {
    const owner = await createUser(suite.server);
    const { password } = await createAppPassword(suite.server, owner, 'Phone');
    await createAppPassword(suite.server, owner, 'Car');
    const sign = { u: owner.username, p: password, v: '1.16.1', c: 'riff-tests', f: 'json' };
    expect(jsonReply((await restCall(suite.server, 'ping', sign)).text).status).toBe('ok');
    const deleted = await suite.http.delete('/users/me', {
      token: owner.accessToken,
      body: { confirm_text: 'DELETE', password: owner.password, keep_public_tracks: false },
    });
    expect(deleted.status).toBe(200);
    const entry = await suite.server.riff.database.db
      .selectFrom('audit_logs')
      .select('metadata')
      .where('user_id', '=', owner.id)
      .where('action', '=', 'user.deleted')
      .executeTakeFirstOrThrow();
    expect(entry.metadata).toMatchObject({ removed_app_passwords: 2 });
    const rows = await suite.server.riff.database.db
      .selectFrom('app_passwords')
      .select('id')
      .where('user_id', '=', owner.id)
      .execute();
    expect(rows).toEqual([]);
    expect(jsonReply((await restCall(suite.server, 'ping', sign)).text).error.code).toBe(40);
  });
});
