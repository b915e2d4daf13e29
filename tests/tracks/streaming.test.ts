import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/http.js';
import { signedInUser } from '../support/accounts.js';
import { makeAudio, md5, uploadTrack } from '../support/audio.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let http: ReturnType<typeof api>;
let bytes: Buffer;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let publicTrack: { id: string };
let privateTrack: { id: string };

beforeAll(async () => {
  server = await startTestServer();
  http = api(server.baseUrl);
  bytes = await makeAudio('mp3', { seconds: 4, title: 'Stream me' });
  owner = await signedInUser(server);
  publicTrack = await uploadTrack(server.baseUrl, owner.accessToken, bytes, 'a.mp3');
  privateTrack = await uploadTrack(server.baseUrl, owner.accessToken, bytes, 'b.mp3', { is_public: 'false' });
});
afterAll(async () => {
  await server?.close();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, { headers });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

describe('streaming', () => {
  it('serves the whole file with its type, length, ETag and Accept-Ranges', async () => {
    const { response, body } = await get(`/tracks/${publicTrack.id}/stream`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('etag')).toBe(`"${md5(bytes)}"`);
    expect(body.equals(bytes)).toBe(true);
  });

  it('answers ranges with 206 and Content-Range', async () => {
    const first = await get(`/tracks/${publicTrack.id}/stream`, { range: 'bytes=0-99' });
    expect(first.response.status).toBe(206);
    expect(first.response.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`);
    expect(first.response.headers.get('content-length')).toBe('100');
    expect(first.body.equals(bytes.subarray(0, 100))).toBe(true);

    const open = await get(`/tracks/${publicTrack.id}/stream`, { range: `bytes=${bytes.length - 10}-` });
    expect(open.response.status).toBe(206);
    expect(open.body.equals(bytes.subarray(bytes.length - 10))).toBe(true);

    const suffix = await get(`/tracks/${publicTrack.id}/stream`, { range: 'bytes=-500' });
    expect(suffix.response.headers.get('content-range')).toBe(
      `bytes ${bytes.length - 500}-${bytes.length - 1}/${bytes.length}`,
    );
    expect(suffix.body.equals(bytes.subarray(bytes.length - 500))).toBe(true);

    const beyondEnd = await get(`/tracks/${publicTrack.id}/stream`, { range: `bytes=1000-${bytes.length * 2}` });
    expect(beyondEnd.response.status).toBe(206);
    expect(beyondEnd.body.equals(bytes.subarray(1000))).toBe(true);
  });

  it('answers 416 for a range past the end, and ignores malformed or multiple ranges', async () => {
    const past = await get(`/tracks/${publicTrack.id}/stream`, { range: `bytes=${bytes.length}-` });
    expect(past.response.status).toBe(416);
    expect(past.response.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    expect(JSON.parse(past.body.toString()).error.code).toBe('RANGE_NOT_SATISFIABLE');
    for (const range of ['bytes=abc', 'bytes=0-1,5-6', 'items=0-1', 'bytes=10-5']) {
      const reply = await get(`/tracks/${publicTrack.id}/stream`, { range });
      expect(reply.response.status, range).toBe(200);
      expect(reply.body.length).toBe(bytes.length);
    }
  });

  it('honours If-None-Match (304) and If-Range', async () => {
    const etag = `"${md5(bytes)}"`;
    const cached = await get(`/tracks/${publicTrack.id}/stream`, { 'if-none-match': etag });
    expect(cached.response.status).toBe(304);
    expect(cached.body.length).toBe(0);
    const changed = await get(`/tracks/${publicTrack.id}/stream`, { 'if-none-match': '"other"' });
    expect(changed.response.status).toBe(200);
    const staleRange = await get(`/tracks/${publicTrack.id}/stream`, { range: 'bytes=0-9', 'if-range': '"old"' });
    expect(staleRange.response.status).toBe(200);
    const freshRange = await get(`/tracks/${publicTrack.id}/stream`, { range: 'bytes=0-9', 'if-range': etag });
    expect(freshRange.response.status).toBe(206);
  });

  it('download sends the file as an attachment named after the title', async () => {
    const { response, body } = await get(`/tracks/${publicTrack.id}/download`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Stream me.mp3"; filename*=UTF-8''Stream%20me.mp3`,
    );
    expect(body.equals(bytes)).toBe(true);
    const ranged = await get(`/tracks/${publicTrack.id}/download`, { range: 'bytes=5-9' });
    expect(ranged.response.status).toBe(206);
  });

  it('a private track streams only for its owner, by bearer or stream token', async () => {
    const other = await signedInUser(server);
    expect((await get(`/tracks/${privateTrack.id}/stream`)).response.status).toBe(404);
    expect(
      (await get(`/tracks/${privateTrack.id}/stream`, { authorization: `Bearer ${other.accessToken}` })).response
        .status,
    ).toBe(404);
    expect(
      (await get(`/tracks/${privateTrack.id}/stream`, { authorization: `Bearer ${owner.accessToken}` })).response
        .status,
    ).toBe(200);

    const streamToken = (await http.post('/auth/stream-token', { token: owner.accessToken })).body.token;
    const byQuery = await get(`/tracks/${privateTrack.id}/stream?token=${encodeURIComponent(streamToken)}`);
    expect(byQuery.response.status).toBe(200);
    expect(byQuery.body.equals(bytes)).toBe(true);
    const byBearer = await get(`/tracks/${privateTrack.id}/download`, { authorization: `Bearer ${streamToken}` });
    expect(byBearer.response.status).toBe(200);

    // an access token is not accepted in the URL, and a stream token is accepted nowhere else
    expect((await get(`/tracks/${privateTrack.id}/stream?token=${owner.accessToken}`)).response.status).toBe(401);
    expect((await http.get(`/tracks/${privateTrack.id}`, { token: streamToken })).status).toBe(401);
    expect((await http.get('/auth/me', { token: streamToken })).status).toBe(401);
  });
});
