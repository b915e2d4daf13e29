import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { api } from '../support/http.js';
import { signedInUser } from '../support/accounts.js';
import { audioForm, makeAudio, md5, uploadForm, uploadFormStreamed, uploadTrack } from '../support/audio.js';
import { intentKeys, newIntents } from '../support/storage-intents.js';
import { startTestServer } from '../support/test-server.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

async function listFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

/** Files uploads left (the media pipeline's derived files, under media/, are not theirs). */
const filesOf = async (testServer: { dataDir: string }, trackId?: string) => {
  const root = path.join(testServer.dataDir, 'files');
  const files = await listFiles(path.join(root, ...(trackId ? ['tracks', trackId] : [])));
  return files.filter((file) => !file.startsWith(path.join(root, 'media') + path.sep));
};

describe('one-request upload', () => {
  it.each(['mp3', 'wav', 'flac', 'ogg'] as const)(
    'accepts %s by its content and reads its metadata',
    async (format) => {
      const user = await signedInUser(suite.server);
      const bytes = await makeAudio(format, {
        title: `Tone ${format}`,
        artist: 'The Sines',
        album: 'Waves',
        genre: 'Ambient',
        year: 2024,
      });
      const reply = await uploadForm(suite.server.baseUrl, user.accessToken, audioForm(bytes, `whatever.bin`));
      expect(reply.status).toBe(201);
      const track = reply.body.data.track;
      expect(track).toMatchObject({
        creator_id: user.id,
        title: `Tone ${format}`,
        artist: 'The Sines',
        album: 'Waves',
        format,
        duration: 3,
        sample_rate: 44100,
        file_size: bytes.length,
        status: 'completed',
        is_public: true,
        play_count: 0,
        like_count: 0,
      });
      expect(track.bitrate).toBeGreaterThan(0);
      expect(track.file_path).toBe(`/api/v1/tracks/${track.id}/stream`);

      const stored = await filesOf(suite.server, track.id);
      expect(stored).toHaveLength(1);
      expect(path.basename(stored[0]!)).toBe('original');
    },
  );

  it('falls back to the file name for the title; the name never becomes a storage key', async () => {
    const user = await signedInUser(suite.server);
    const bytes = await makeAudio('wav');
    const track = await uploadTrack(suite.server.baseUrl, user.accessToken, bytes, '../../etc/My Song.final.wav');
    expect(track.title).toBe('My Song.final');
    const stored = await filesOf(suite.server, track.id);
    expect(stored.map((file) => path.relative(suite.server.dataDir, file))).toEqual([
      path.join('files', 'tracks', track.id, 'original'),
    ]);
    const explicit = await uploadTrack(suite.server.baseUrl, user.accessToken, bytes, 'x.wav', {
      title: 'Chosen title',
      is_public: 'false',
    });
    expect(explicit).toMatchObject({ title: 'Chosen title', is_public: false });
  });

  it.each([
    ['text', Buffer.from('this is not audio at all, just some words to fill the space')],
    ['png', Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')],
    ['truncated mp3 header', Buffer.from('ID3')],
    ['random bytes that start like wav', Buffer.concat([Buffer.from('RIFF\0\0\0\0WAVE'), Buffer.alloc(2000, 1)])],
  ])('refuses %s with 400 INVALID_AUDIO and keeps nothing', async (_name, bytes) => {
    const user = await signedInUser(suite.server);
    const intentsBefore = await intentKeys(suite.server);
    const reply = await uploadForm(suite.server.baseUrl, user.accessToken, audioForm(bytes, 'song.mp3'));
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('INVALID_AUDIO');
    const rows = await suite.server.riff.database.db
      .selectFrom('tracks')
      .select('id')
      .where('creator_id', '=', user.id)
      .execute();
    expect(rows).toEqual([]);
    expect(await newIntents(suite.server, intentsBefore)).toEqual([]);
    for (const file of await filesOf(suite.server)) expect(file).not.toMatch(/partial/);
  });

  it('needs a file, multipart and authentication', async () => {
    const user = await signedInUser(suite.server);
    const noFile = new FormData();
    noFile.append('title', 'x');
    const missing = await uploadForm(suite.server.baseUrl, user.accessToken, noFile);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_FAILED');
    const wrongField = await uploadForm(
      suite.server.baseUrl,
      user.accessToken,
      audioForm(await makeAudio('mp3'), 'a.mp3', {}, 'audio'),
    );
    expect(wrongField.status).toBe(400);
    const json = await suite.http.post('/tracks', { token: user.accessToken, body: { file: 'abc' } });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const anonymous = await uploadForm(suite.server.baseUrl, undefined, audioForm(await makeAudio('mp3'), 'a.mp3'));
    expect(anonymous.status).toBe(401);
    const broken = await suite.http.post('/tracks', {
      token: user.accessToken,
      rawBody: '--x\r\nnonsense',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(broken.status).toBe(400);
  });
});

describe('limits and quota', () => {
  it('a file over UPLOAD_MAX_BYTES is 413, with or without Content-Length, and leaves nothing', async () => {
    const small = await startTestServer({ UPLOAD_MAX_BYTES: '60000' });
    try {
      const user = await signedInUser(small);
      const intentsBefore = await intentKeys(small);
      const big = await makeAudio('wav', { seconds: 1 });
      const declared = await uploadForm(small.baseUrl, user.accessToken, audioForm(big, 'big.wav'));
      expect(declared.status).toBe(413);
      expect(declared.body.error.code).toBe('PAYLOAD_TOO_LARGE');

      // streamed without a length: the limit trips while reading
      const streamed = await uploadFormStreamed(small.baseUrl, user.accessToken, audioForm(big, 'big.wav'));
      expect(streamed.status).toBe(413);
      expect(streamed.body.error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(await filesOf(small)).toEqual([]);
      expect(await newIntents(small, intentsBefore)).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('an upload past the quota is 403 QUOTA_EXCEEDED; the quota reports bytes and tracks', async () => {
    const tiny = await startTestServer({ QUOTA_BYTES: '100000' });
    try {
      const user = await signedInUser(tiny);
      const other = await signedInUser(tiny);
      const mp3 = await makeAudio('mp3');
      await uploadTrack(tiny.baseUrl, user.accessToken, mp3);
      const quota = await api(tiny.baseUrl).get('/tracks/quota/me', { token: user.accessToken });
      expect(quota.body.data.quota).toEqual({
        used_bytes: mp3.length,
        cloud_bytes: 0,
        reserved_bytes: 0,
        limit_bytes: 100000,
        remaining_bytes: 100000 - mp3.length,
        track_count: 1,
      });
      expect(
        (await api(tiny.baseUrl).get(`/tracks/quota/${user.id}`, { token: user.accessToken })).body.data.quota
          .used_bytes,
      ).toBe(mp3.length);

      const wav = await makeAudio('wav', { seconds: 1 });
      const over = await uploadForm(tiny.baseUrl, user.accessToken, audioForm(wav, 'big.wav'));
      expect(over.status).toBe(403);
      expect(over.body.error.code).toBe('QUOTA_EXCEEDED');
      expect((await filesOf(tiny)).length).toBe(1);

      // streamed without a length, the quota trips while reading
      const streamed = await uploadFormStreamed(tiny.baseUrl, user.accessToken, audioForm(wav, 'big.wav'));
      expect(streamed.status).toBe(403);
      expect(streamed.body.error.code).toBe('QUOTA_EXCEEDED');
      expect((await filesOf(tiny)).length).toBe(1);

      const forbidden = await api(tiny.baseUrl).get(`/tracks/quota/${user.id}`, { token: other.accessToken });
      expect(forbidden.status).toBe(403);

      // deleting a track gives its bytes back
      const [track] = (await api(tiny.baseUrl).get(`/tracks?creator_id=${user.id}`)).body.data.tracks;
      await api(tiny.baseUrl).delete(`/tracks/${track.id}`, { token: user.accessToken });
      const after = await api(tiny.baseUrl).get('/tracks/quota/me', { token: user.accessToken });
      expect(after.body.data.quota).toMatchObject({ used_bytes: 0, track_count: 0 });
      expect(await filesOf(tiny)).toEqual([]);
    } finally {
      await tiny.close();
    }
  });
});

describe('the stored file', () => {
  it('is byte for byte what was sent', async () => {
    const user = await signedInUser(suite.server);
    const bytes = await makeAudio('flac', { seconds: 2 });
    const track = await uploadTrack(suite.server.baseUrl, user.accessToken, bytes, 'a.flac');
    const download = await fetch(`${suite.server.baseUrl}/api/v1/tracks/${track.id}/download`);
    const received = Buffer.from(await download.arrayBuffer());
    expect(md5(received)).toBe(md5(bytes));
    expect(download.headers.get('etag')).toBe(`"${md5(bytes)}"`);
  });
});

describe('an interrupted upload', () => {
  it('leaves no file, no row and no storage intent behind', async () => {
    const user = await signedInUser(suite.server);
    const intentsBefore = await intentKeys(suite.server);
    const wav = await makeAudio('wav', { seconds: 1 });
    const boundary = 'riffinterrupted';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.wav"\r\n\r\n`;
    const { request } = await import('node:http');
    const url = new URL(`${suite.server.directUrl}/api/v1/tracks`);
    await new Promise<void>((resolve) => {
      const req = request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${user.accessToken}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + wav.length + 100),
        },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(head);
      req.write(wav.subarray(0, 30_000));
      setTimeout(() => req.destroy(), 300);
    });
    // the server notices the abort and cleans up
    for (let i = 0; i < 50; i++) {
      if ((await newIntents(suite.server, intentsBefore)).length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await newIntents(suite.server, intentsBefore)).toEqual([]);
    expect(
      await suite.server.riff.database.db.selectFrom('tracks').select('id').where('creator_id', '=', user.id).execute(),
    ).toEqual([]);
    const leftovers = (await filesOf(suite.server)).filter(
      (file) => !file.includes(`${path.sep}tracks${path.sep}`) || file.includes('partial'),
    );
    expect(leftovers.filter((file) => file.includes('partial'))).toEqual([]);
  });
});
