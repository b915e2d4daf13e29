/**
 * A private track's HLS opened with a stream token (5 minutes) keeps playing for the track's
 * duration and a margin: the playlists carry a playback token bound to that track and that
 * stream, good for nothing else, revoked with the user's tokens. The service's clock is moved
 * instead of waiting.
 */
import { describe, expect, it } from 'vitest';
import { login, register, verify } from '../support/accounts.js';
import { createTrack } from '../support/factories.js';
import { runDueJobs } from '../support/jobs.js';
import { parsePlaylist } from '../support/media.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus, typedApi } from '../support/typed-api.js';
import { PLAYBACK_MARGIN_SECONDS } from '../../server/src/modules/media/playback-token.js';

const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
// no workers: the jobs run when the test says (runDueJobs)
const suite = useTestServer({ WORKERS: '0' }, { clock });

async function createUser(server: typeof suite.server) {
  const user = await register(server);
  await runDueJobs(server);
  await verify(server, user.email);
  const { accessToken } = await login(server, user);
  return { ...user, token: accessToken, api: typedApi(server, { token: accessToken }) };
}

/** A stream token of the user that expires after `seconds` of real time (the server checks stream tokens on the real time). */
async function shortStreamToken(userId: string, seconds: number) {
  const { token_version } = await suite.server.riff.database.db
    .selectFrom('users')
    .select('token_version')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return suite.server.riff.platform.signer.sign({ sub: userId, tv: token_version }, 'stream', seconds);
}

async function get(url: string, headers: Record<string, string> = {}) {
  const reply = await fetch(url, { headers });
  const body = Buffer.from(await reply.arrayBuffer());
  const code =
    reply.status >= 400 ? (JSON.parse(body.toString('utf8')) as { error: { code: string } }).error.code : undefined;
  return { status: reply.status, code, body };
}

/** Every URI a player reaches from a master playlist's text: the variant playlists, then their init and media segments. */
async function childUris(masterUrl: string, masterText: string) {
  const variants = (parsePlaylist(masterText).playlists ?? []).map((entry) => new URL(entry.uri, masterUrl).toString());
  const uris = [...variants];
  for (const variant of variants) {
    const reply = await get(variant);
    expect(reply.status, `${variant}: ${reply.body.toString('utf8').slice(0, 200)}`).toBe(200);
    const playlist = parsePlaylist(reply.body.toString('utf8'));
    uris.push(new URL(playlist.segments[0]!.map!.uri, variant).toString());
    for (const segment of playlist.segments) uris.push(new URL(segment.uri, variant).toString());
  }
  return { variants, uris };
}

/** Waits (on the real time, a few seconds at most) until the server refuses the stream token as expired. */
async function untilExpired(url: string) {
  const started = Date.now();
  for (;;) {
    const reply = await get(url);
    if (reply.status === 401) return reply;
    if (Date.now() - started > 10_000) throw new Error(`the stream token did not expire: ${reply.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('playback of a private track’s HLS', () => {
  it('outlasts the stream token: the child URIs load after 5 minutes, stop after the duration and the margin', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 8, isPublic: false });
    await runDueJobs(suite.server);
    const masterUrl = `${suite.server.baseUrl}/api/v1/tracks/${track.id}/hls/master.m3u8`;
    try {
      // three seconds, not one: the token's times are whole seconds from a floored issue time, so a one-second
      // token minted late in a second may already be expired when the master is fetched on a loaded machine
      const streamToken = await shortStreamToken(owner.id, 3);
      const master = await get(`${masterUrl}?token=${streamToken}`);
      expect(master.status).toBe(200);
      const masterText = master.body.toString('utf8');

      // the stream token expires (seconds here, five minutes in life) and the clock moves past five minutes
      expect((await untilExpired(`${masterUrl}?token=${streamToken}`)).code).toBe('TOKEN_EXPIRED');
      clock.offsetMs = 6 * 60_000;
      const { uris } = await childUris(masterUrl, masterText);
      expect(uris.length).toBeGreaterThanOrEqual(6); // two variants, two inits, at least one segment each
      // the stream token itself is not what the playlists hand on
      expect(masterText).not.toContain(streamToken);
      for (const uri of uris) {
        const reply = await get(uri);
        expect(reply.status, uri).toBe(200);
        expect(reply.body.length).toBeGreaterThan(0);
        expect(new URL(uri).searchParams.get('token')).toBeNull();
        expect(new URL(uri).searchParams.get('playback')).toEqual(expect.any(String));
      }

      // a player paused for most of the margin still resumes
      clock.offsetMs = (8 + PLAYBACK_MARGIN_SECONDS - 60) * 1000;
      for (const uri of uris) expect((await get(uri)).status, uri).toBe(200);
      // past the track's duration and the margin: the playback token has expired
      clock.offsetMs = (8 + PLAYBACK_MARGIN_SECONDS + 60) * 1000;
      for (const uri of uris)
        expect(await get(uri).then((reply) => [reply.status, reply.code]), uri).toEqual([401, 'TOKEN_EXPIRED']);
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('is good only for that track’s child playlists and segments: not another track, not the stream, download or any other route', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 3, isPublic: false });
    const other = await createTrack(suite.server, owner, { seconds: 3, isPublic: false });
    await runDueJobs(suite.server);
    const streamToken = expectStatus(await owner.api.auth.streamToken(), 200).body.token;
    const masterUrl = `${suite.server.baseUrl}/api/v1/tracks/${track.id}/hls/master.m3u8`;
    const master = await get(`${masterUrl}?token=${streamToken}`);
    const { variants, uris } = await childUris(masterUrl, master.body.toString('utf8'));
    const playback = new URL(variants[0]!).searchParams.get('playback')!;
    expect(playback).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    for (const uri of uris) expect((await get(uri)).status, uri).toBe(200);

    // the same URIs with the other track's id: refused, though the other track is the same owner's
    for (const uri of uris) {
      const elsewhere = uri.replace(track.id, other.id);
      expect(await get(elsewhere).then((reply) => [reply.status, reply.code]), elsewhere).toEqual([
        401,
        'UNAUTHENTICATED',
      ]);
    }
    const base = `${suite.server.baseUrl}/api/v1/tracks/${track.id}`;
    // as a stream token, on the routes a stream token opens (the master included) and as a bearer on any route
    for (const path of ['/stream', '/download', '/hls/master.m3u8', '/waveform', '/cover', '/hls/160k/index.m3u8']) {
      expect(await get(`${base}${path}?token=${playback}`).then((reply) => [reply.status, reply.code]), path).toEqual([
        401,
        'UNAUTHENTICATED',
      ]);
    }
    for (const path of ['', '/stream', '/download', '/hls/master.m3u8']) {
      expect(
        await get(`${base}${path}`, { authorization: `Bearer ${playback}` }).then((reply) => [
          reply.status,
          reply.code,
        ]),
        path,
      ).toEqual([401, 'UNAUTHENTICATED']);
    }
    // where it is not read, it opens nothing: the private track stays hidden
    for (const path of ['/stream', '/download', '/hls/master.m3u8', '/waveform']) {
      expect((await get(`${base}${path}?playback=${playback}`)).status, path).toBe(404);
    }
  });

  it('is revoked with the user’s tokens (a password change) and stops when the track is deleted', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 3, isPublic: false });
    const kept = await createTrack(suite.server, owner, { seconds: 3, isPublic: false });
    await runDueJobs(suite.server);
    const streamToken = expectStatus(await owner.api.auth.streamToken(), 200).body.token;
    const open = async (id: string) => {
      const url = `${suite.server.baseUrl}/api/v1/tracks/${id}/hls/master.m3u8`;
      return childUris(url, (await get(`${url}?token=${streamToken}`)).body.toString('utf8'));
    };
    const deleted = await open(track.id);
    const revoked = await open(kept.id);

    expectStatus(await owner.api.tracks.remove({ params: { id: track.id } }), 200);
    for (const uri of deleted.uris) expect((await get(uri)).status, uri).toBe(404);

    expectStatus(
      await owner.api.auth.passwordChange({
        body: {
          current_password: owner.password,
          password: 'another horse battery staple',
          password_confirmation: 'another horse battery staple',
        },
      }),
      200,
    );
    for (const uri of revoked.uris)
      expect(await get(uri).then((reply) => [reply.status, reply.code]), uri).toEqual([401, 'UNAUTHENTICATED']);
  });

  it('opened with a stream token minted by an API key, dies with the key: revoking it refuses the child URIs', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 3, isPublic: false });
    await runDueJobs(suite.server);
    const created = expectStatus(
      await owner.api.developer.createApiKey({ body: { name: 'player', scopes: ['read', 'write'] } }),
      201,
    ).body.data;
    const minted = await fetch(`${suite.server.baseUrl}/api/v1/auth/stream-token`, {
      method: 'POST',
      headers: { 'x-api-key': created.key },
    });
    expect(minted.status).toBe(200);
    const streamToken = ((await minted.json()) as { token: string }).token;
    const masterUrl = `${suite.server.baseUrl}/api/v1/tracks/${track.id}/hls/master.m3u8`;
    const master = await get(`${masterUrl}?token=${streamToken}`);
    expect(master.status).toBe(200);
    const { uris } = await childUris(masterUrl, master.body.toString('utf8'));
    for (const uri of uris) expect((await get(uri)).status, uri).toBe(200);

    expectStatus(await owner.api.developer.revokeApiKey({ params: { id: created.api_key.id } }), 200);
    for (const uri of uris)
      expect(await get(uri).then((reply) => [reply.status, reply.code]), uri).toEqual([401, 'UNAUTHENTICATED']);
    // the user's own stream token still opens the track
    const own = expectStatus(await owner.api.auth.streamToken(), 200).body.token;
    const reopened = await get(`${masterUrl}?token=${own}`);
    expect(reopened.status).toBe(200);
    for (const uri of (await childUris(masterUrl, reopened.body.toString('utf8'))).uris)
      expect((await get(uri)).status, uri).toBe(200);
  });
});
