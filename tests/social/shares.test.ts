import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { uploadTrack } from '../support/audio.js';
import { createTrack, createUser } from '../support/factories.js';
import { runDueJobs } from '../support/jobs.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus, typedApi } from '../support/typed-api.js';
import { mp3WithCover } from './social-support.js';

// no workers: the media jobs run when the test says
const suite = useTestServer({ WORKERS: '0' });

const get = (url: string) => fetch(url, { redirect: 'manual' });

describe('shares and the secret link', () => {
  it('a public track’s share is counted and its link needs no secret; anyone may share it', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const shared = expectStatus(
      await suite.api.social.share({ params: { id: track.id }, body: { platform: 'twitter' } }),
      200,
    ).body.data;
    expect(shared.share_url).toBe(`${suite.server.riff.platform.config.publicBaseUrl}/api/v1/tracks/${track.id}`);
    expectStatus(await owner.api.social.share({ params: { id: track.id }, body: { platform: 'link' } }), 200);
    const stats = expectStatus(await owner.api.social.stats({ params: { id: track.id }, query: {} }), 200).body.data
      .stats;
    expect(stats.share_count).toBe(2);
    const bad = await suite.http.post(`/tracks/${track.id}/share`, { body: { platform: 'myspace' } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const logs = expectStatus(await owner.api.audit.logs({ query: { resource: 'track' } }), 200).body.data.logs;
    expect(logs.filter((log) => log.action === 'track.shared')).toHaveLength(1);
  });

  it('a private track’s secret link opens the track, stream, download, HLS, waveform and cover to anyone, until revoked', async () => {
    const owner = await createUser(suite.server);
    const track = await uploadTrack(suite.server.baseUrl, owner.token, await mp3WithCover(), 'secret.mp3', {
      is_public: 'false',
    });
    await runDueJobs(suite.server);
    const base = `${suite.server.baseUrl}/api/v1/tracks/${track.id}`;
    expect((await get(base)).status).toBe(404);

    const shared = expectStatus(
      await owner.api.social.share({ params: { id: track.id }, body: { platform: 'email' } }),
      200,
    ).body.data;
    const secret = new URL(shared.share_url).searchParams.get('secret')!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    // sharing again answers the same link; the database holds only its hash
    expect(
      expectStatus(await owner.api.social.share({ params: { id: track.id }, body: { platform: 'link' } }), 200).body
        .data.share_url,
    ).toBe(shared.share_url);
    const stored = await suite.server.riff.platform.scope.db
      .selectFrom('tracks')
      .select(['share_secret_hash'])
      .where('id', '=', track.id)
      .executeTakeFirstOrThrow();
    expect(stored.share_secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.share_secret_hash).not.toContain(secret);

    const q = `?secret=${encodeURIComponent(secret)}`;
    const read = expectStatus(await suite.api.tracks.get({ params: { id: track.id }, query: { secret } }), 200).body
      .data.track;
    expect(read).toMatchObject({ id: track.id, is_public: false });
    expect(read).not.toHaveProperty('play_count');
    expect((await get(`${base}?secret=wrong`)).status).toBe(404);
    for (const path of ['/stream', '/download', '/waveform', '/cover']) {
      const reply = await get(`${base}${path}${q}`);
      expect([path, reply.status]).toEqual([path, 200]);
      expect((await get(`${base}${path}`)).status).toBe(404);
    }
    // a plain HLS player: every URI of the playlists carries the secret
    const master = await get(`${base}/hls/master.m3u8${q}`);
    expect(master.status).toBe(200);
    const variantUri = (await master.text())
      .split('\n')
      .find((line) => line.endsWith(`secret=${encodeURIComponent(secret)}`) && line.includes('index.m3u8'))!;
    expect(variantUri).toBeDefined();
    const variant = await get(new URL(variantUri, `${base}/hls/master.m3u8`).toString());
    expect(variant.status).toBe(200);
    const segmentUri = (await variant.text()).split('\n').find((line) => line && !line.startsWith('#'))!;
    expect(segmentUri).toContain(`secret=${encodeURIComponent(secret)}`);
    expect((await get(new URL(segmentUri, variant.url).toString())).status).toBe(200);
    // reporting a play through the link works too
    expect(
      expectStatus(
        await suite.api.social.play({ params: { id: track.id }, query: { secret }, body: { duration_listened: 3 } }),
        200,
      ).body.data.counted,
    ).toBe(true);

    // streaming fills the tracks' one-second cache: revocation still takes effect at once
    expect((await get(`${base}/stream${q}`)).status).toBe(200);
    expect(
      expectStatus(await owner.api.social.revokeShare({ params: { id: track.id } }), 200).body.data.message,
    ).toBeTruthy();
    for (const path of ['', '/stream', '/download', '/waveform', '/cover', '/hls/master.m3u8'])
      expect([path, (await get(`${base}${path}${q}`)).status]).toEqual([path, 404]);
    expectStatus(await owner.api.social.revokeShare({ params: { id: track.id } }), 200);

    // a new share makes a new secret: the old one stays dead
    const again = expectStatus(
      await owner.api.social.share({ params: { id: track.id }, body: { platform: 'link' } }),
      200,
    ).body.data.share_url;
    expect(again).not.toBe(shared.share_url);
    expect((await get(`${base}${q}`)).status).toBe(404);
    expect((await get(again)).status).toBe(200);
    const actions = expectStatus(await owner.api.audit.logs({ query: { resource: 'track' } }), 200).body.data.logs.map(
      (log) => log.action,
    );
    expect(actions.filter((action) => action === 'track.share_revoked')).toHaveLength(1);
  });

  it('only the owner shares a private track (others 404, an admin 403); revoking is the owner’s or an admin’s', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const admin = await createAdmin(suite.server);
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    const open = await createTrack(suite.server, owner);
    expectStatus(await other.api.social.share({ params: { id: hidden.id }, body: { platform: 'link' } }), 404);
    expectStatus(await suite.api.social.share({ params: { id: hidden.id }, body: { platform: 'link' } }), 404);
    expect(
      expectStatus(await admin.api.social.share({ params: { id: hidden.id }, body: { platform: 'link' } }), 403).body
        .error.code,
    ).toBe('FORBIDDEN');
    expectStatus(await other.api.social.revokeShare({ params: { id: hidden.id } }), 404);
    expectStatus(await other.api.social.revokeShare({ params: { id: open.id } }), 403);
    expectStatus(await suite.api.social.revokeShare({ params: { id: open.id } }), 401);
    const url = expectStatus(
      await owner.api.social.share({ params: { id: hidden.id }, body: { platform: 'link' } }),
      200,
    ).body.data.share_url;
    expectStatus(await admin.api.social.revokeShare({ params: { id: hidden.id } }), 200);
    expect((await get(url)).status).toBe(404);
  });

  it('at most 30 shares a minute per caller (429)', async () => {
    const owner = await createUser(suite.server);
    const sharer = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    for (let i = 0; i < 30; i++)
      expectStatus(await sharer.api.social.share({ params: { id: track.id }, body: { platform: 'other' } }), 200);
    const refused = expectStatus(
      await sharer.api.social.share({ params: { id: track.id }, body: { platform: 'other' } }),
      429,
    );
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(
      expectStatus(await owner.api.social.stats({ params: { id: track.id }, query: {} }), 200).body.data.stats
        .share_count,
    ).toBe(30);
    expectStatus(
      await typedApi(suite.server, { token: owner.token }).social.share({
        params: { id: track.id },
        body: { platform: 'other' },
      }),
      200,
    );
  });
});
