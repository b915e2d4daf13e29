import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/http.js';
import { signedInUser } from '../support/accounts.js';
import { audioForm, makeAudio, md5, silentWav, uploadForm, uploadTrack } from '../support/audio.js';
import { startTestS3, type TestS3 } from '../support/s3-server.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let s3: TestS3;
let server: TestServer;
let http: ReturnType<typeof api>;
let client: S3Client;
/** Tracks the tests below made: their media jobs may still write (or clean up) while a later test runs. */
const made = new Set<string>();

beforeAll(async () => {
  s3 = await startTestS3();
  server = await startTestServer({ ...s3.env, UPLOAD_CHUNK_MAX_BYTES: '65536' });
  http = api(server.baseUrl);
  client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  // the tracks' media jobs write to the bucket in the background: the stand-in must outlive them,
  // or it loses a file under its feet and throws (a real S3 would not)
  if (server && made.size > 0) {
    const deadline = Date.now() + 60_000;
    const busy = () =>
      server.riff.database.db
        .selectFrom('tracks')
        .select('id')
        .where('id', 'in', [...made])
        .where('deleted_at', 'is', null)
        .where('stream_status', 'in', ['pending', 'processing'])
        .execute();
    while ((await busy()).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server?.close();
  await s3?.close();
});

async function keys(prefix = ''): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((item) => item.Key!).sort();
}

describe('S3 storage', () => {
  it('stores uploads in the bucket under generated keys; stream and download redirect to presigned URLs', async () => {
    const user = await signedInUser(server);
    const bytes = await makeAudio('ogg', { title: 'Cloud' });
    const track = await uploadTrack(server.baseUrl, user.accessToken, bytes, 'my file.ogg');
    made.add(track.id);
    expect(await keys(`tracks/${track.id}/`)).toEqual([`tracks/${track.id}/original`]);

    const stream = await fetch(`${server.baseUrl}/api/v1/tracks/${track.id}/stream`, { redirect: 'manual' });
    expect(stream.status).toBe(302);
    const location = stream.headers.get('location')!;
    expect(location).toContain(s3.endpoint);
    expect(location).toMatch(/X-Amz-Expires=300/);
    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('audio/ogg');
    expect(md5(Buffer.from(await fetched.arrayBuffer()))).toBe(md5(bytes));
    const ranged = await fetch(location, { headers: { range: 'bytes=0-9' } });
    expect(ranged.status).toBe(206);

    const download = await fetch(`${server.baseUrl}/api/v1/tracks/${track.id}/download`, { redirect: 'manual' });
    expect(download.status).toBe(302);
    const file = await fetch(download.headers.get('location')!);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="Cloud\.ogg"/);

    await http.delete(`/tracks/${track.id}`, { token: user.accessToken });
    expect(await keys(`tracks/${track.id}/`)).toEqual([]);
  });

  it('large files go up as S3 multipart uploads and come back whole', async () => {
    const user = await signedInUser(server);
    // 20 MiB of silence behind a WAV header: more than two 8 MiB parts
    const size = 20 * 1024 * 1024;
    const wav = silentWav(size);
    const track = await uploadTrack(server.baseUrl, user.accessToken, wav, 'long.wav');
    made.add(track.id);
    expect(track).toMatchObject({ format: 'wav', file_size: size, duration: Math.round((size - 44) / (44100 * 4)) });
    const location = (
      await fetch(`${server.baseUrl}/api/v1/tracks/${track.id}/stream`, { redirect: 'manual' })
    ).headers.get('location')!;
    expect(md5(Buffer.from(await (await fetch(location)).arrayBuffer()))).toBe(md5(wav));
  });

  it('refused uploads leave nothing in the bucket', async () => {
    const user = await signedInUser(server);
    // Earlier tests' media jobs may still be writing under media/<track>/ (a queued job may not have
    // started yet, and a deleted track's job removes what it wrote only when it ends), so media is
    // checked by whose it is: only tracks that already existed or that those tests made.
    const originals = await keys('tracks/');
    const uploads = await keys('uploads/');
    const reply = await uploadForm(server.baseUrl, user.accessToken, audioForm(Buffer.alloc(5000, 3), 'noise.mp3'));
    expect(reply.status).toBe(400);
    expect(await keys('tracks/')).toEqual(originals);
    expect(await keys('uploads/')).toEqual(uploads);
    const existing = new Set([...originals.map((key) => key.split('/')[1]), ...made]);
    const mediaOwners = new Set((await keys('media/')).map((key) => key.split('/')[1]));
    expect([...mediaOwners].filter((id) => !existing.has(id))).toEqual([]);
  });

  it('chunked uploads assemble in the bucket', async () => {
    const user = await signedInUser(server);
    const bytes = await makeAudio('mp3', { seconds: 6 });
    const size = 30_000;
    const count = Math.ceil(bytes.length / size);
    const init = await http.post('/tracks/initiate', {
      token: user.accessToken,
      body: { filename: 's3.mp3', total_chunks: count, total_size: bytes.length },
    });
    const uploadId = init.body.data.upload_id;
    for (let n = 0; n < count; n++) {
      const form = new FormData();
      for (const [key, value] of Object.entries({
        upload_id: uploadId,
        chunk_number: n,
        total_chunks: count,
        total_size: bytes.length,
        filename: 's3.mp3',
      }))
        form.append(key, String(value));
      form.append('chunk', new Blob([new Uint8Array(bytes.subarray(n * size, (n + 1) * size))]), 'blob');
      expect((await uploadForm(server.baseUrl, user.accessToken, form, '/api/v1/tracks/chunk')).status).toBe(200);
    }
    expect((await keys(`uploads/${uploadId}/`)).length).toBe(count);
    const done = await http.post('/tracks/complete', { token: user.accessToken, body: { upload_id: uploadId } });
    expect(done.status).toBe(201);
    expect(done.body.data.md5).toBe(md5(bytes));
    expect(await keys(`uploads/${uploadId}/`)).toEqual([]);
    expect(await keys(`tracks/${done.body.data.track.id}/`)).toEqual([`tracks/${done.body.data.track.id}/original`]);
  });
});
