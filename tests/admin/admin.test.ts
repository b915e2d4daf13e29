import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { PASSWORD } from '../support/accounts.js';
import { audioForm, makeAudio, uploadForm } from '../support/audio.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { request } from '../support/http.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

// Administration over HTTP: who may call what, the settings and their effects, roles, quotas,
// sign-outs, the figures and the staff log.
const suite = useTestServer({}, {}, { ownDatabase: true });

/**
 * The settings are one row for the whole database: on PostgreSQL every test file running at the
 * same time shares it, so closing registration or uploads there would refuse the other files'
 * requests. Those effects are proven on the embedded database, where the file is alone.
 */

async function moderator(admin: TestUser): Promise<TestUser> {
  const user = await createUser(suite.server);
  expectStatus(await admin.api.admin.setRole({ params: { id: user.id }, body: { role: 'moderator' } }), 200);
  return user;
}

async function setSettings(admin: TestUser, body: Record<string, unknown>) {
  const reply = await request(suite.server.baseUrl, 'PUT', '/api/v1/admin/settings', {
    token: admin.accessToken,
    body,
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data.settings;
}

async function replaceAudio(token: string, trackId: string, bytes: Buffer) {
  const response = await fetch(`${suite.server.baseUrl}/api/v1/tracks/${trackId}/file`, {
    method: 'PUT',
    body: audioForm(bytes, 'new.mp3'),
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('who may call the admin routes', () => {
  it('the announcement is public', async () => {
    const admin = await createAdmin(suite.server);
    const message = `Maintenance ${randomUUID().slice(0, 8)}`;
    try {
      expect((await setSettings(admin, { announcement: message })).announcement).toBe(message);
      const served = expectStatus(await suite.api.admin.announcement(), 200);
      expect(served.body.data).toEqual({ announcement: message });
      // over 500 characters is refused
      const long = await request(suite.server.baseUrl, 'PUT', '/api/v1/admin/settings', {
        token: admin.accessToken,
        body: { announcement: 'x'.repeat(501) },
      });
      expect([long.status, long.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    } finally {
      await setSettings(admin, { announcement: null });
    }
    expect(expectStatus(await suite.api.admin.announcement(), 200).body.data).toEqual({ announcement: null });
  });
});

describe('the settings take effect at once', () => {
  it('defaults come from the configuration; registration closed is 403 REGISTRATION_CLOSED', async () => {
    const admin = await createAdmin(suite.server);
    const settings = expectStatus(await admin.api.admin.getSettings(), 200).body.data.settings;
    expect(settings).toMatchObject({
      registration_open: true,
      uploads_enabled: true,
      default_quota_bytes: suite.server.riff.platform.config.uploads.quotaBytes,
      max_upload_bytes: suite.server.riff.platform.config.uploads.maxFileBytes,
    });
    try {
      const closed = await setSettings(admin, { registration_open: false });
      expect(closed).toMatchObject({ registration_open: false, updated_by: admin.id });
      const email = `closed-${randomUUID().slice(0, 8)}@example.test`;
      const refused = await suite.http.post('/auth/register', {
        body: { email, password: PASSWORD, password_confirmation: PASSWORD },
      });
      expect([refused.status, refused.body.error.code]).toEqual([403, 'REGISTRATION_CLOSED']);
    } finally {
      await setSettings(admin, { registration_open: true });
    }
    const email = `open-${randomUUID().slice(0, 8)}@example.test`;
    const accepted = await suite.http.post('/auth/register', {
      body: { email, password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(accepted.status).toBe(201);
  });

  it('uploads off: every audio upload is 403 UPLOADS_DISABLED; max_upload_bytes caps a file', async () => {
    const admin = await createAdmin(suite.server);
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const audio = await makeAudio('mp3', { seconds: 1 });
    try {
      await setSettings(admin, { uploads_enabled: false });
      const single = await uploadForm(suite.server.baseUrl, owner.accessToken, audioForm(audio, 'tone.mp3'));
      expect([single.status, single.body.error.code]).toEqual([403, 'UPLOADS_DISABLED']);
      const started = await suite.http.post('/tracks/initiate', {
        token: owner.accessToken,
        body: { filename: 'tone.mp3', total_chunks: 1, total_size: audio.length },
      });
      expect([started.status, started.body.error.code]).toEqual([403, 'UPLOADS_DISABLED']);
      const replaced = await replaceAudio(owner.accessToken, track.id, audio);
      expect([replaced.status, replaced.body.error.code]).toEqual([403, 'UPLOADS_DISABLED']);

      await setSettings(admin, { uploads_enabled: true, max_upload_bytes: 1000 });
      const tooBig = await uploadForm(suite.server.baseUrl, owner.accessToken, audioForm(audio, 'tone.mp3'));
      expect([tooBig.status, tooBig.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
      const bigSession = await suite.http.post('/tracks/initiate', {
        token: owner.accessToken,
        body: { filename: 'tone.mp3', total_chunks: 1, total_size: 1001 },
      });
      expect([bigSession.status, bigSession.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    } finally {
      await setSettings(admin, {
        uploads_enabled: true,
        max_upload_bytes: suite.server.riff.platform.config.uploads.maxFileBytes,
      });
    }
    const uploaded = await uploadForm(suite.server.baseUrl, owner.accessToken, audioForm(audio, 'tone.mp3'));
    expect(uploaded.status).toBe(201);
  });

  it('default_quota_bytes is the quota of an account without its own', async () => {
    const admin = await createAdmin(suite.server);
    const owner = await createUser(suite.server);
    try {
      await setSettings(admin, { default_quota_bytes: 5000 });
      const quota = expectStatus(await owner.api.tracks.quota({ params: { id: 'me' } }), 200).body.data.quota;
      expect(quota.limit_bytes).toBe(5000);
      const audio = await makeAudio('mp3', { seconds: 1 });
      const refused = await uploadForm(suite.server.baseUrl, owner.accessToken, audioForm(audio, 'tone.mp3'));
      expect([refused.status, refused.body.error.code]).toEqual([403, 'QUOTA_EXCEEDED']);
      // the account's own quota wins over the default
      expectStatus(
        await admin.api.admin.setQuota({ params: { id: owner.id }, body: { limit_bytes: 50_000_000 } }),
        200,
      );
      expect((await uploadForm(suite.server.baseUrl, owner.accessToken, audioForm(audio, 'tone.mp3'))).status).toBe(
        201,
      );
    } finally {
      await setSettings(admin, { default_quota_bytes: suite.server.riff.platform.config.uploads.quotaBytes });
    }
  });
});

describe('accounts as staff manage them', () => {
  it('lists and reads full records, filtered and sorted', async () => {
    const admin = await createAdmin(suite.server);
    const mod = await moderator(admin);
    const tag = randomUUID().slice(0, 8);
    const named = await createUser(suite.server, { username: `zz_${tag}`, email: `zz-${tag}@example.test` });
    const list = expectStatus(await mod.api.admin.listUsers({ query: { q: tag } }), 200).body.data;
    expect(list.pagination.total).toBe(1);
    expect(list.users[0]).toMatchObject({
      id: named.id,
      email: named.email,
      role: 'user',
      status: 'active',
      login_count: 1,
      quota_bytes: null,
      effective_quota_bytes: expect.any(Number),
      open_reports: 0,
      sanctions: [],
    });
    expect(list.users[0]!.last_login_at).not.toBeNull();
    const moderators = expectStatus(
      await mod.api.admin.listUsers({ query: { role: 'moderator', sort: 'username', order: 'asc', limit: 100 } }),
      200,
    ).body.data.users;
    expect(moderators.map((user) => user.id)).toContain(mod.id);
    expect(moderators.every((user) => user.role === 'moderator')).toBe(true);
    const byReports = await mod.api.admin.listUsers({ query: { sort: 'reports', status: 'active', limit: 5 } });
    expect(expectStatus(byReports, 200).body.data.users.every((user) => user.status === 'active')).toBe(true);
    const one = expectStatus(await mod.api.admin.getUser({ params: { id: named.id } }), 200).body.data.user;
    expect(one).toEqual(list.users[0]);
    expectStatus(await mod.api.admin.getUser({ params: { id: randomUUID() } }), 404);
    const bad = await suite.http.get('/admin/users?status=sleeping', { token: mod.accessToken });
    expect(bad.status).toBe(400);
  });

  it('roles: is_admin follows role admin, nobody changes their own, every change is in the staff log', async () => {
    const admin = await createAdmin(suite.server);
    const other = await createUser(suite.server);
    const own = await admin.api.admin.setRole({ params: { id: admin.id }, body: { role: 'user' } });
    expect([own.status, expectStatus(own, 400).body.error.code]).toEqual([400, 'BAD_REQUEST']);

    const promoted = expectStatus(
      await admin.api.admin.setRole({ params: { id: other.id }, body: { role: 'admin' } }),
      200,
    );
    expect(promoted.body.data.user).toMatchObject({ role: 'admin', is_admin: true });
    // the new admin's token works for admin routes at once
    expectStatus(await other.api.admin.getSettings(), 200);
    // with two admins, one may demote the other
    const demoted = expectStatus(
      await other.api.admin.setRole({ params: { id: admin.id }, body: { role: 'creator' } }),
      200,
    );
    expect(demoted.body.data.user).toMatchObject({ role: 'creator', is_admin: false });
    expectStatus(await admin.api.admin.getSettings(), 403);

    const log = expectStatus(await other.api.admin.audit({ query: { action: 'user.role', target_id: other.id } }), 200)
      .body.data;
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]).toMatchObject({
      actor_id: admin.id,
      action: 'user.role',
      target_type: 'user',
      target_id: other.id,
      before: { role: 'user', is_admin: false },
      after: { role: 'admin', is_admin: true },
    });
    expect(log.entries[0]!.request_id).toEqual(expect.any(String));
    const byActor = expectStatus(
      await other.api.admin.audit({ query: { actor_id: other.id, target_type: 'user' } }),
      200,
    ).body.data;
    expect(byActor.entries.map((entry) => [entry.target_id, entry.before, entry.after])).toEqual([
      [admin.id, { role: 'admin', is_admin: true }, { role: 'creator', is_admin: false }],
    ]);
    const future = expectStatus(
      await other.api.admin.audit({ query: { actor_id: other.id, from: '2999-01-01T00:00:00Z' } }),
      200,
    );
    expect(future.body.data.entries).toEqual([]);
  });

  it('verify-email lets an unverified account sign in; quota null returns to the default', async () => {
    const admin = await createAdmin(suite.server);
    const email = `unverified-${randomUUID().slice(0, 8)}@example.test`;
    const registered = await suite.http.post('/auth/register', {
      body: { email, password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(registered.status).toBe(201);
    const id = registered.body.user.id as string;
    const login = () => suite.http.post('/auth/login', { body: { email, password: PASSWORD } });
    expect((await login()).body.error.code).toBe('EMAIL_NOT_VERIFIED');
    const unverified = expectStatus(
      await admin.api.admin.listUsers({ query: { q: email, status: 'unverified' } }),
      200,
    );
    expect(unverified.body.data.users.map((user) => user.id)).toEqual([id]);
    const verified = expectStatus(await admin.api.admin.verifyEmail({ params: { id } }), 200);
    expect(verified.body.data.user).toMatchObject({ is_verified: true, status: 'active' });
    expect((await login()).status).toBe(200);

    const quota = expectStatus(await admin.api.admin.setQuota({ params: { id }, body: { limit_bytes: 1234 } }), 200);
    expect(quota.body.data.user).toMatchObject({ quota_bytes: 1234, effective_quota_bytes: 1234 });
    const reset = expectStatus(await admin.api.admin.setQuota({ params: { id }, body: { limit_bytes: null } }), 200);
    expect(reset.body.data.user.quota_bytes).toBeNull();
    expect(reset.body.data.user.effective_quota_bytes).toBe(
      expectStatus(await admin.api.admin.getSettings(), 200).body.data.settings.default_quota_bytes,
    );
    const entries = expectStatus(await admin.api.admin.audit({ query: { target_id: id } }), 200).body.data.entries;
    expect(entries.map((entry) => [entry.action, entry.before, entry.after])).toEqual([
      ['user.quota', { quota_bytes: 1234 }, { quota_bytes: null }],
      ['user.quota', { quota_bytes: null }, { quota_bytes: 1234 }],
      [
        'user.verify_email',
        { is_verified: false, email_verified_at: null, role: 'user', is_admin: false },
        expect.objectContaining({ is_verified: true, role: 'user', is_admin: false }),
      ],
    ]);
  });

  it('an account’s own quota caps its uploads', async () => {
    const admin = await createAdmin(suite.server);
    const owner = await createUser(suite.server);
    expectStatus(await admin.api.admin.setQuota({ params: { id: owner.id }, body: { limit_bytes: 2000 } }), 200);
    const quota = expectStatus(await owner.api.tracks.quota({ params: { id: 'me' } }), 200).body.data.quota;
    expect(quota).toMatchObject({ limit_bytes: 2000, remaining_bytes: 2000 });
    const audio = await makeAudio('mp3', { seconds: 1 });
    const refused = await uploadForm(suite.server.baseUrl, owner.accessToken, audioForm(audio, 'tone.mp3'));
    expect([refused.status, refused.body.error.code]).toEqual([403, 'QUOTA_EXCEEDED']);
  });

  it('revoke-sessions ends every access and refresh token of the account', async () => {
    const admin = await createAdmin(suite.server);
    const user = await createUser(suite.server);
    expectStatus(await user.api.users.get({ params: { id: 'me' } }), 200);
    expectStatus(await admin.api.admin.revokeSessions({ params: { id: user.id } }), 200);
    const stale = await suite.http.get('/users/me', { token: user.accessToken });
    expect(stale.status).toBe(401);
    const refreshed = await suite.http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } });
    expect(refreshed.status).toBe(401);
    const entry = expectStatus(
      await admin.api.admin.audit({ query: { action: 'user.revoke_sessions', target_id: user.id } }),
      200,
    ).body.data.entries;
    expect(entry).toHaveLength(1);
    expect(entry[0]!.after!['token_version']).toBe((entry[0]!.before!['token_version'] as number) + 1);
    expectStatus(await admin.api.admin.revokeSessions({ params: { id: randomUUID() } }), 404);
  });

  it('settings changes are in the staff log with the values before and after', async () => {
    const admin = await createAdmin(suite.server);
    const text = `Hello ${randomUUID().slice(0, 8)}`;
    try {
      await setSettings(admin, { announcement: text });
    } finally {
      await setSettings(admin, { announcement: null });
    }
    const entries = expectStatus(
      await admin.api.admin.audit({ query: { actor_id: admin.id, action: 'settings.update' } }),
      200,
    ).body.data.entries;
    expect(entries.map((entry) => [entry.before!['announcement'], entry.after!['announcement']])).toEqual([
      [text, null],
      [null, text],
    ]);
  });
});

describe('the figures and erasure', () => {
  it('stats move with what happens', async () => {
    const admin = await createAdmin(suite.server);
    const read = async () => expectStatus(await admin.api.admin.stats({ query: { period: '7d' } }), 200).body.data;
    const before = await read();
    expect(before.period).toBe('7d');
    const creator = await createUser(suite.server);
    const reporter = await createUser(suite.server);
    const track = await createTrack(suite.server, creator);
    expect(
      (
        await suite.http.post('/reports', {
          token: reporter.accessToken,
          body: { target_type: 'track', target_id: track.id, reason: 'spam' },
        })
      ).status,
    ).toBe(201);
    expect((await suite.http.post('/playlists', { token: creator.accessToken, body: { title: 'Stats' } })).status).toBe(
      201,
    );
    expect(
      (await suite.http.post(`/tracks/${track.id}/comments`, { token: creator.accessToken, body: { content: 'hi' } }))
        .status,
    ).toBe(201);
    const after = await read();
    expect(after.users.total).toBeGreaterThanOrEqual(before.users.total + 1);
    expect(after.users.new).toBeGreaterThanOrEqual(before.users.new + 1);
    expect(after.users.active_daily).toBeGreaterThanOrEqual(before.users.active_daily + 1);
    expect(after.content.tracks).toBeGreaterThanOrEqual(before.content.tracks + 1);
    expect(after.content.tracks_new).toBeGreaterThanOrEqual(before.content.tracks_new + 1);
    expect(after.content.storage_bytes).toBeGreaterThanOrEqual(before.content.storage_bytes + track.file_size);
    expect(after.content.playlists_new).toBeGreaterThanOrEqual(before.content.playlists_new + 1);
    expect(after.content.comments_new).toBeGreaterThanOrEqual(before.content.comments_new + 1);
    expect(after.moderation.open_reports).toBe(before.moderation.open_reports + 1);
    expect(after.moderation.open_cases).toBe(before.moderation.open_cases + 1);
    const bad = await suite.http.get('/admin/stats?period=1y', { token: admin.accessToken });
    expect(bad.status).toBe(400);
  });

  it('an erased admin’s staff-log entries stay, under a pseudonymous id', async () => {
    const admin = await createAdmin(suite.server);
    const auditor = await createAdmin(suite.server);
    const target = await createUser(suite.server);
    expectStatus(await admin.api.admin.setQuota({ params: { id: target.id }, body: { limit_bytes: 4321 } }), 200);
    expect((await setSettings(admin, { announcement: null })).updated_by).toBe(admin.id);
    const deleted = await suite.http.delete('/users/me', {
      token: admin.accessToken,
      body: { confirm_text: 'DELETE', password: admin.password },
    });
    expect(deleted.status).toBe(200);
    const entries = expectStatus(await auditor.api.admin.audit({ query: { target_id: target.id } }), 200).body.data
      .entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'user.quota', after: { quota_bytes: 4321 } });
    expect(entries[0]!.actor_id).not.toBe(admin.id);
    const byOld = expectStatus(await auditor.api.admin.audit({ query: { actor_id: admin.id } }), 200);
    expect(byOld.body.data.entries).toEqual([]);
    // nor is the erased admin named as the last to change the settings
    const settings = expectStatus(await auditor.api.admin.getSettings(), 200).body.data.settings;
    expect(settings.updated_by).not.toBe(admin.id);
  });
});
