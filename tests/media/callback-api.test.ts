/**
 * POST /tracks/{id}/hls/callback through the API (ADDENDUM "Media pipeline"): with
 * MEDIA_TRANSCODER=external the HLS job waits; the external transcoder reports, signed with
 * Standard Webhooks headers and MEDIA_CALLBACK_SECRET.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signCallback } from '../../server/src/modules/media/callback-signature.js';
import { createTrack, createUser } from '../support/factories.js';
import { runDueJobs } from '../support/jobs.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const SECRET = `whsec_${Buffer.from('the transcoder and riff share this').toString('base64')}`;
const suite = useTestServer({ WORKERS: '0', MEDIA_TRANSCODER: 'external', MEDIA_CALLBACK_SECRET: SECRET });

/** The callback as the transcoder sends it; `sign: false` leaves the signature out, a string signs with that secret. */
function callback(trackId: string, body: object, sign: boolean | string = true) {
  const text = JSON.stringify(body);
  const id = `msg_${randomUUID()}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
  };
  if (sign !== false)
    headers['webhook-signature'] = signCallback(typeof sign === 'string' ? sign : SECRET, id, timestamp, text);
  return fetch(`${suite.server.baseUrl}/api/v1/tracks/${trackId}/hls/callback`, {
    method: 'POST',
    headers,
    body: text,
  });
}

describe('the external transcoder’s callback', () => {
  it('the HLS job waits (processing); a signed "ready" makes the stream ready, after which nothing waits (409)', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 2 });
    await runDueJobs(suite.server);
    const waiting = expectStatus(await owner.api.tracks.status({ params: { id: track.id } }), 200).body.data;
    expect(waiting).toMatchObject({ stream_status: 'processing', waveform_ready: true });
    expect(waiting.progress).toBeLessThan(100);

    const done = await callback(track.id, { status: 'ready' });
    expect(done.status).toBe(200);
    expect(((await done.json()) as { data: { message: string } }).data.message).toBe('Stream ready');
    expect(expectStatus(await owner.api.tracks.status({ params: { id: track.id } }), 200).body.data).toMatchObject({
      progress: 100,
      stream_status: 'ready',
    });

    const again = await callback(track.id, { status: 'ready' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('CONFLICT');
  });

  it('a signed "error" fails the stream with its message; the original still streams', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 2 });
    await runDueJobs(suite.server);
    expect((await callback(track.id, { status: 'error', message: 'The source could not be decoded' })).status).toBe(
      200,
    );
    const status = expectStatus(await owner.api.tracks.status({ params: { id: track.id } }), 200).body.data;
    expect(status).toMatchObject({ stream_status: 'error', status_message: 'The source could not be decoded' });
    const stream = await fetch(`${suite.server.baseUrl}/api/v1/tracks/${track.id}/stream`);
    expect(stream.status).toBe(200);
    expect((await stream.arrayBuffer()).byteLength).toBe(track.file_size);
  });

  it('a missing or wrong signature is 401 and changes nothing', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 2 });
    await runDueJobs(suite.server);
    for (const sign of [false, 'whsec_' + Buffer.from('someone else').toString('base64')] as const) {
      const reply = await callback(track.id, { status: 'ready' }, sign);
      expect(reply.status).toBe(401);
      expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
    }
    expect(expectStatus(await owner.api.tracks.status({ params: { id: track.id } }), 200).body.data.stream_status).toBe(
      'processing',
    );
  });
});
