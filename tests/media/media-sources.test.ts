/**
 * Where the pipeline starts and how it fails, through the API: a chunked upload queues it too, an
 * embedded picture becomes the cover, and without ffmpeg the stream fails in words while the
 * original still streams.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { login, register, verify } from '../support/accounts.js';
import { makeAudio, md5, mp3WithCover, uploadForm, uploadTrack } from '../support/audio.js';
import { runDueJobs } from '../support/jobs.js';
import { useTestServer, type Suite } from '../support/suite.js';
import { expectStatus, typedApi } from '../support/typed-api.js';

async function createUser(suite: Suite) {
  const user = await register(suite.server);
  await runDueJobs(suite.server);
  await verify(suite.server, user.email);
  const { accessToken } = await login(suite.server, user);
  return { ...user, token: accessToken, api: typedApi(suite.server, { token: accessToken }) };
}

describe('with ffmpeg', () => {
  // no workers: the jobs run when the test says (runDueJobs)
  const suite = useTestServer({ WORKERS: '0' });

  it('a chunked upload queues the pipeline with its track', async () => {
    const owner = await createUser(suite);
    const audio = await makeAudio('wav', { seconds: 2 });
    const initiated = expectStatus(
      await owner.api.tracks.initiate({ body: { filename: 'take.wav', total_chunks: 1, total_size: audio.length } }),
      200,
    ).body.data;
    const form = new FormData();
    for (const [name, value] of Object.entries({
      upload_id: initiated.upload_id,
      chunk_number: 0,
      total_chunks: 1,
      total_size: audio.length,
      filename: 'take.wav',
    }))
      form.append(name, String(value));
    form.append('chunk', new Blob([new Uint8Array(audio)]), 'blob');
    expect((await uploadForm(suite.server.baseUrl, owner.token, form, '/api/v1/tracks/chunk')).status).toBe(200);
    const complete = expectStatus(await owner.api.tracks.complete({ body: { upload_id: initiated.upload_id } }), 201)
      .body.data;
    expect(complete.md5).toBe(md5(audio));
    const id = complete.track.id;
    expect(expectStatus(await owner.api.tracks.status({ params: { id } }), 200).body.data.waveform_ready).toBe(false);
    expect(await runDueJobs(suite.server)).toBeGreaterThanOrEqual(2);
    expect(expectStatus(await owner.api.tracks.status({ params: { id } }), 200).body.data).toMatchObject({
      progress: 100,
      stream_status: 'ready',
    });
    const versions = expectStatus(await owner.api.media.versions({ params: { id } }), 200).body.data.versions;
    expect(versions).toMatchObject([{ version_number: 1, format: 'wav', is_current: true, md5: md5(audio) }]);
  });

  it('an embedded picture becomes the cover: GET /cover serves it re-encoded, cover_art_path names it', async () => {
    const owner = await createUser(suite);
    const track = await uploadTrack(suite.server.baseUrl, owner.token, await mp3WithCover(), 'covered.mp3');
    expectStatus(await suite.api.media.cover({ params: { id: track.id } }), 404);
    await runDueJobs(suite.server);
    const shown = expectStatus(await suite.api.tracks.get({ params: { id: track.id } }), 200).body.data.track;
    expect(shown.cover_art_path).toBe(`/api/v1/tracks/${track.id}/cover`);
    const cover = await fetch(`${suite.server.baseUrl}${shown.cover_art_path}`);
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await cover.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 64, 64]);
  });
});

describe('without ffmpeg', () => {
  const suite = useTestServer({ WORKERS: '0', FFMPEG_PATH: '/nonexistent/ffmpeg' });

  it('the stream and the waveform fail with a message a user understands; the original still streams', async () => {
    const owner = await createUser(suite);
    const audio = await makeAudio('mp3', { seconds: 1 });
    const track = await uploadTrack(suite.server.baseUrl, owner.token, audio, 'tone.mp3');
    await runDueJobs(suite.server);
    const status = expectStatus(await owner.api.tracks.status({ params: { id: track.id } }), 200).body.data;
    expect(status).toMatchObject({ status: 'completed', stream_status: 'error', waveform_ready: false });
    expect(status.status_message).toMatch(/\w+ \w+/);
    expect(status.progress).toBeLessThan(100);
    expect(expectStatus(await suite.api.media.hlsMaster({ params: { id: track.id } }), 404).body.error.code).toBe(
      'MEDIA_NOT_READY',
    );
    const stream = await fetch(`${suite.server.baseUrl}/api/v1/tracks/${track.id}/stream`);
    expect(stream.status).toBe(200);
    expect(Buffer.from(await stream.arrayBuffer()).equals(audio)).toBe(true);
  });
});
