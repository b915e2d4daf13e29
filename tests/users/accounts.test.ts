import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { api } from '../support/http.js';
import { login, signedInUser } from '../support/accounts.js';
import { startTestServer } from '../support/test-server.js';
import { silentWav, uploadTrack } from '../support/audio.js';
import { useTestServer } from '../support/suite.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

const suite = useTestServer();

describe('account deletion (DELETE /users/me)', () => {
  it('needs confirm_text DELETE exactly and the right password', async () => {
    const alice = await signedInUser(suite.server);
    const noConfirm = await suite.http.delete('/users/me', {
      token: alice.accessToken,
      body: { confirm_text: 'delete', password: alice.password },
    });
    expect(noConfirm.status).toBe(400);
    expect(noConfirm.body.error.code).toBe('VALIDATION_FAILED');
    expect(noConfirm.body.error.details[0].field).toBe('confirm_text');
    const wrongPassword = await suite.http.delete('/users/me', {
      token: alice.accessToken,
      body: { confirm_text: 'DELETE', password: 'wrong password!' },
    });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.error.code).toBe('INVALID_PASSWORD');
    expect((await suite.http.get('/auth/me', { token: alice.accessToken })).status).toBe(200);
    expect(
      (await suite.http.delete('/users/me', { body: { confirm_text: 'DELETE', password: alice.password } })).status,
    ).toBe(401);
  });

  it('anonymizes the account, revokes every session, bumps token_version and writes an audit entry', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    await suite.http.put('/users/me', {
      token: alice.accessToken,
      body: { first_name: 'Alice', last_name: 'Liddell', bio: 'my bio', location: 'Oxford' },
    });
    await suite.http.post(`/users/${bob.id}/follow`, { token: alice.accessToken });
    await suite.http.post(`/users/${alice.id}/follow`, { token: bob.accessToken });
    // bob's follow reaches alice's inbox (a job makes it), which her erasure then removes
    for (let tries = 0; ; tries++) {
      const inbox = await suite.http.get('/notifications', { token: alice.accessToken });
      if (inbox.body.data.notifications.length === 1) break;
      if (tries > 200) throw new Error('no follow notification for alice');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const reply = await suite.http.delete('/users/me', {
      token: alice.accessToken,
      body: { confirm_text: 'DELETE', password: alice.password, reason: 'moving on', keep_public_tracks: true },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.success).toBe(true);
    // the browser forgets the refresh cookie: same name and path, expired
    const cookie = reply.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^refresh_token=;/);
    expect(cookie).toContain('Path=/api/v1/auth');
    expect(cookie).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(cookie).toContain('HttpOnly');

    expect((await suite.http.get('/auth/me', { token: alice.accessToken })).status).toBe(401);
    expect((await suite.http.post('/auth/refresh', { body: { refresh_token: alice.refreshToken } })).status).toBe(401);
    expect(
      (await suite.http.post('/auth/login', { body: { email: alice.email, password: alice.password } })).status,
    ).toBe(401);
    expect((await suite.http.get(`/users/${alice.id}`)).status).toBe(404);
    expect((await suite.http.get(`/users/${bob.id}`)).body.data.profile.follower_count).toBe(0);

    const row = await suite.server.riff.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      email: null,
      first_name: null,
      last_name: null,
      bio: null,
      location: null,
      password_hash: null,
      is_active: false,
      token_version: 1,
    });
    expect(row.username).toMatch(/^deleted-/);
    expect(row.username).not.toContain(alice.username);
    expect(JSON.stringify(row)).not.toContain(alice.email);
    expect(row.deleted_at).not.toBeNull();

    const entry = await suite.server.riff.database.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('user_id', '=', alice.id)
      .where('action', '=', 'user.deleted')
      .executeTakeFirstOrThrow();
    // removed_avatars: the media module's part of the erasure (issue 12); removed_comments: the comments module's,
    // removed_group_posts: her posts in groups;
    // removed_queue_*, removed_chat_messages: the queue's (issue 14); removed_likes … removed_history: track social's (issue 13);
    // removed_playlist_follows, removed_collaborations: the playlists area's part in others' playlists;
    // removed_products, archived_products: the marketplace's products (sold ones stay archived);
    // removed_notifications: her inbox; pseudonymised_staff_log_entries: what she did as staff (the admin area);
    // anonymised_reports, anonymised_claims, forgotten_counter_notices: her reports and copyright claims stay
    // in their cases without her; deleted_appeals, deleted_strikes: her own standing;
    // removed_app_passwords: the passwords her Subsonic apps signed in with; removed_play_queue_clients: the
    // Subsonic app that last saved her play queue; removed_subsonic_ratings, removed_now_playing: what those
    // apps rated and said was playing; removed_gear, removed_gear_photos: her gear and its photos' files;
    // removed_group_memberships, removed_group_requests, removed_group_invites,
    // transferred_groups, hidden_groups: the groups area's (her groups pass to their oldest admin, else hide);
    // archived_courses, removed_courses, removed_course_enrollments, removed_course_reviews: the education area's
    // (a course with learners is archived for them, the others go; her enrollments, progress and reviews go);
    // removed_cloud_files, removed_cloud_folders: her cloud storage, trash and versions included, with their objects
    expect(entry.metadata).toEqual({
      anonymised_claims: 0,
      anonymised_reports: 0,
      deleted_appeals: 0,
      deleted_strikes: 0,
      forgotten_counter_notices: 0,
      reason: 'moving on',
      keep_public_tracks: true,
      removed_tracks: 0,
      removed_avatars: 0,
      removed_comments: 0,
      removed_group_posts: 0,
      removed_queue_items: 0,
      removed_queue_sessions: 0,
      removed_chat_messages: 0,
      removed_reposts: 0,
      removed_history: 0,
      removed_likes: 0,
      removed_notifications: 1,
      removed_playlists: 0,
      removed_playlist_follows: 0,
      removed_collaborations: 0,
      removed_products: 0,
      archived_products: 0,
      removed_webhooks: 0,
      removed_app_passwords: 0,
      removed_play_queue_clients: 0,
      removed_subsonic_ratings: 0,
      removed_now_playing: 0,
      removed_gear: 0,
      removed_gear_photos: 0,
      removed_group_memberships: 0,
      removed_group_requests: 0,
      removed_group_invites: 0,
      transferred_groups: 0,
      hidden_groups: 0,
      archived_courses: 0,
      removed_courses: 0,
      removed_course_enrollments: 0,
      removed_course_reviews: 0,
      removed_cloud_files: 0,
      removed_cloud_folders: 0,
      pseudonymised_staff_log_entries: 0,
    });

    // the address and the old username are free again
    const again = await suite.http.post('/auth/register', {
      body: {
        email: alice.email,
        username: alice.username,
        password: alice.password,
        password_confirmation: alice.password,
      },
    });
    expect(again.status).toBe(201);
  });
});

describe('soft delete (DELETE /users/{id})', () => {
  it('the owner may deactivate their account; it is hidden and its sessions end', async () => {
    const alice = await signedInUser(suite.server);
    const reply = await suite.http.delete(`/users/${alice.id}`, { token: alice.accessToken });
    expect(reply.status).toBe(200);
    expect((await suite.http.get(`/users/${alice.id}`)).status).toBe(404);
    expect((await suite.http.get('/auth/me', { token: alice.accessToken })).status).toBe(401);
    expect((await suite.http.post('/auth/refresh', { body: { refresh_token: alice.refreshToken } })).status).toBe(401);
  });

  it('another user gets 403; an unknown id 404 for an admin', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    const reply = await suite.http.delete(`/users/${alice.id}`, { token: bob.accessToken });
    expect(reply.status).toBe(403);
    expect((await suite.http.get(`/users/${alice.id}`)).status).toBe(200);
  });

  // two app starts and two CLI runs, each opening the embedded database: slow on a busy machine
  it('an admin made with `npm run make-admin` may deactivate other users', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-admin-'));
    try {
      const first = await startTestServer({ DATA_DIR: dataDir });
      const admin = await signedInUser(first);
      const victim = await signedInUser(first);
      await first.close();

      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
      const { stdout } = await run('npm', ['run', '--silent', 'make-admin', '--', admin.email], { cwd: root, env });
      expect(stdout).toContain('is now an admin');
      await expect(
        run('npm', ['run', '--silent', 'make-admin', '--', 'nobody@example.test'], { cwd: root, env }),
      ).rejects.toThrow(/no account/);

      const second = await startTestServer({ DATA_DIR: dataDir });
      try {
        const session = await login(second, admin);
        const adminHttp = api(second.baseUrl);
        const me = await adminHttp.get('/auth/me', { token: session.accessToken });
        expect(me.body.data.is_admin).toBe(true);
        const seesEmail = await adminHttp.get(`/users/${victim.id}`, { token: session.accessToken });
        expect(seesEmail.body.data.profile.email).toBe(victim.email);
        const removed = await adminHttp.delete(`/users/${victim.id}`, { token: session.accessToken });
        expect(removed.status).toBe(200);
        expect((await adminHttp.get(`/users/${victim.id}`)).status).toBe(404);
        const unknown = await adminHttp.delete('/users/00000000-0000-4000-8000-000000000000', {
          token: session.accessToken,
        });
        expect(unknown.status).toBe(404);
        const log = await adminHttp.get(`/audit/logs?action=user.deactivated&resource_id=${victim.id}`, {
          token: session.accessToken,
        });
        expect(log.body.data.logs).toHaveLength(1);
        expect(log.body.data.logs[0].user_id).toBe(admin.id);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('preferences, privacy opt-out and export', () => {
  it('preferences have defaults, merge partial updates, and are validated', async () => {
    const alice = await signedInUser(suite.server);
    const defaults = await suite.http.get('/users/me/preferences', { token: alice.accessToken });
    expect(defaults.status).toBe(200);
    expect(defaults.body.data.preferences.playback).toEqual({
      autoplay: true,
      crossfade_seconds: 0,
      audio_quality: 'high',
      normalize_volume: true,
    });

    const updated = await suite.http.put('/users/me/preferences', {
      token: alice.accessToken,
      body: { playback: { crossfade_seconds: 6 }, privacy: { allow_messages_from: 'followers' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.preferences.playback).toEqual({
      autoplay: true,
      crossfade_seconds: 6,
      audio_quality: 'high',
      normalize_volume: true,
    });
    expect(updated.body.data.preferences.privacy.allow_messages_from).toBe('followers');
    const reread = await suite.http.get('/users/me/preferences', { token: alice.accessToken });
    expect(reread.body.data.preferences).toEqual(updated.body.data.preferences);

    for (const body of [
      { playback: { crossfade_seconds: 13 } },
      { playback: { audio_quality: 'ultra' } },
      { notifications: { push_enabled: 'yes' } },
    ]) {
      const bad = await suite.http.put('/users/me/preferences', { token: alice.accessToken, body });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    }
    // do_not_sell is set only by the opt-out operation
    await suite.http.put('/users/me/preferences', {
      token: alice.accessToken,
      body: { privacy: { do_not_sell: true } },
    });
    expect(
      (await suite.http.get('/users/me/preferences', { token: alice.accessToken })).body.data.preferences.privacy
        .do_not_sell,
    ).toBe(false);
  });

  it('the do-not-sell opt-out is saved once and shown in the preferences', async () => {
    const alice = await signedInUser(suite.server);
    const first = await suite.http.post('/users/me/privacy/opt-out', { token: alice.accessToken });
    expect(first.status).toBe(200);
    expect(first.body.data.do_not_sell).toBe(true);
    const again = await suite.http.post('/users/me/privacy/opt-out', { token: alice.accessToken });
    expect(again.body.data.opted_out_at).toBe(first.body.data.opted_out_at);
    expect(
      (await suite.http.get('/users/me/preferences', { token: alice.accessToken })).body.data.preferences.privacy
        .do_not_sell,
    ).toBe(true);
    expect((await suite.http.post('/users/me/privacy/opt-out')).status).toBe(401);
  });

  it('the export holds everything about the caller as one JSON attachment, and nothing secret', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    const carol = await signedInUser(suite.server);
    await suite.http.post(`/users/${bob.id}/follow`, { token: alice.accessToken });
    await suite.http.post(`/users/${alice.id}/follow`, { token: carol.accessToken });
    await suite.http.post(`/users/${carol.id}/block`, { token: alice.accessToken });
    await suite.http.put('/users/me/preferences', {
      token: alice.accessToken,
      body: { playback: { autoplay: false } },
    });

    const reply = await suite.http.get('/users/me/export', { token: alice.accessToken });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-disposition')).toMatch(
      /^attachment; filename="riff-export-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const document = reply.body;
    expect(document.profile).toMatchObject({ id: alice.id, email: alice.email });
    expect(document.following.map((f: { user_id: string }) => f.user_id)).toEqual([bob.id]);
    expect(document.followers).toEqual([]);
    expect(document.blocks.map((b: { user_id: string }) => b.user_id)).toEqual([carol.id]);
    expect(document.preferences.playback.autoplay).toBe(false);
    const actions = document.audit_logs.map((entry: { action: string }) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining(['auth.register', 'auth.login', 'user.followed', 'user.blocked', 'user.data_exported']),
    );
    expect(reply.text).not.toMatch(/password_hash|\$argon2|secret_hash|token_hash/);
    expect(reply.text).not.toContain(alice.refreshToken);
  });

  it('the export includes the lyrics of the caller’s tracks, and no one else’s', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    const track = await uploadTrack(suite.server.baseUrl, alice.accessToken, silentWav(8_044), 'song.wav');
    const bare = await uploadTrack(suite.server.baseUrl, alice.accessToken, silentWav(8_044), 'bare.wav');
    const bobs = await uploadTrack(suite.server.baseUrl, bob.accessToken, silentWav(8_044), 'bob.wav');
    const lrc = '[00:01.00]first line\n[00:02.50]second line';
    expect(
      (await suite.http.put(`/tracks/${track.id}/lyrics`, { token: alice.accessToken, body: { content: lrc } })).status,
    ).toBe(200);
    await suite.http.put(`/tracks/${bobs.id}/lyrics`, { token: bob.accessToken, body: { content: 'bob sings' } });

    const reply = await suite.http.get('/users/me/export', { token: alice.accessToken });
    expect(reply.status).toBe(200);
    expect(reply.body.tracks.map((t: { id: string }) => t.id).sort()).toEqual([track.id, bare.id].sort());
    expect(reply.body.lyrics).toEqual([
      {
        track_id: track.id,
        content: lrc,
        is_synced: true,
        lines: [
          { time_ms: 1000, text: 'first line' },
          { time_ms: 2500, text: 'second line' },
        ],
        updated_at: expect.any(String),
      },
    ]);
    expect(reply.text).not.toContain('bob sings');
  });
});
