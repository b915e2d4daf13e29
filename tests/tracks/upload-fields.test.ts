import { describe, expect, it } from 'vitest';
import { signedInUser } from '../support/accounts.js';
import { audioForm, makeAudio, uploadForm } from '../support/audio.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer({ UPLOAD_CHUNK_MAX_BYTES: '65536' });

const trackRows = (userId: string) =>
  suite.server.riff.database.db
    .selectFrom('tracks')
    .select(['id', 'is_public'])
    .where('creator_id', '=', userId)
    .execute();

/** A multipart body written by hand, so the order of the parts and the bytes of their headers are exactly as given. */
function rawForm(parts: ({ name: string; value: string } | { name: string; filename: string; bytes: Buffer })[]) {
  const boundary = `riff${Math.random().toString(16).slice(2)}`;
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      'filename' in part
        ? `form-data; name="${part.name}"; filename="${part.filename}"`
        : `form-data; name="${part.name}"`;
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`, 'utf8'));
    pieces.push('bytes' in part ? part.bytes : Buffer.from(part.value, 'utf8'));
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function postRaw(pathname: string, token: string, form: ReturnType<typeof rawForm>) {
  const response = await fetch(`${suite.server.baseUrl}/api/v1${pathname}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
    body: new Uint8Array(form.body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('POST /tracks text fields', () => {
  it.each(['0', 'no', 'FALSE', 'True', '1', '', 'yes'])(
    'is_public=%j is 400 VALIDATION_FAILED naming the field, and creates no track',
    async (value) => {
      const user = await signedInUser(suite.server);
      const reply = await uploadForm(
        suite.server.baseUrl,
        user.accessToken,
        audioForm(await makeAudio('mp3'), 'a.mp3', { is_public: value }),
      );
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
      expect(reply.body.error.details).toEqual([
        expect.objectContaining({ field: 'is_public', message: expect.stringMatching(/true or false/) }),
      ]);
      expect(await trackRows(user.id)).toEqual([]);
    },
  );

  it('is_public=false makes a private track and true a public one', async () => {
    const user = await signedInUser(suite.server);
    const audio = await makeAudio('mp3');
    const hidden = await uploadForm(
      suite.server.baseUrl,
      user.accessToken,
      audioForm(audio, 'a.mp3', { is_public: 'false' }),
    );
    expect(hidden.body.data.track.is_public).toBe(false);
    const shown = await uploadForm(
      suite.server.baseUrl,
      user.accessToken,
      audioForm(audio, 'a.mp3', { is_public: 'true' }),
    );
    expect(shown.body.data.track.is_public).toBe(true);
  });

  it('a title over 255 characters is refused, not truncated; 255 is fine', async () => {
    const user = await signedInUser(suite.server);
    const audio = await makeAudio('mp3');
    const long = await uploadForm(
      suite.server.baseUrl,
      user.accessToken,
      audioForm(audio, 'a.mp3', { title: 'x'.repeat(256) }),
    );
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('VALIDATION_FAILED');
    expect(long.body.error.details[0].field).toBe('title');
    expect(await trackRows(user.id)).toEqual([]);
    const fits = await uploadForm(
      suite.server.baseUrl,
      user.accessToken,
      audioForm(audio, 'a.mp3', { title: 'y'.repeat(255) }),
    );
    expect(fits.status).toBe(201);
    expect(fits.body.data.track.title).toBe('y'.repeat(255));
  });

  it('fields may come after the file', async () => {
    const user = await signedInUser(suite.server);
    const form = rawForm([
      { name: 'file', filename: 'late.mp3', bytes: await makeAudio('mp3') },
      { name: 'title', value: 'Fields last' },
      { name: 'is_public', value: 'false' },
    ]);
    const reply = await postRaw('/tracks', user.accessToken, form);
    expect(reply.status).toBe(201);
    expect(reply.body.data.track).toMatchObject({ title: 'Fields last', is_public: false });
  });

  it('a UTF-8 file name (as curl and browsers send it) becomes the title as written', async () => {
    const user = await signedInUser(suite.server);
    const form = rawForm([
      { name: 'file', filename: 'Björk – Jóga 東京.wav', bytes: await makeAudio('wav', { seconds: 1 }) },
    ]);
    const reply = await postRaw('/tracks', user.accessToken, form);
    expect(reply.status).toBe(201);
    expect(reply.body.data.track.title).toBe('Björk – Jóga 東京');
  });
});

describe('POST /tracks/chunk fields', () => {
  async function session(token: string, bytes: Buffer) {
    const reply = await suite.http.post('/tracks/initiate', {
      token,
      body: { filename: 'c.wav', total_chunks: 1, total_size: bytes.length },
    });
    expect(reply.status).toBe(200);
    return reply.body.data.upload_id as string;
  }
  const fields = (uploadId: string, bytes: Buffer, overrides: Record<string, string> = {}) => ({
    upload_id: uploadId,
    chunk_number: '0',
    total_chunks: '1',
    total_size: String(bytes.length),
    filename: 'c.wav',
    ...overrides,
  });
  const parts = (values: Record<string, string>) => Object.entries(values).map(([name, value]) => ({ name, value }));

  it('accepts the chunk before its fields', async () => {
    const user = await signedInUser(suite.server);
    const bytes = await makeAudio('wav', { seconds: 0.3 });
    const uploadId = await session(user.accessToken, bytes);
    const reply = await postRaw(
      '/tracks/chunk',
      user.accessToken,
      rawForm([{ name: 'chunk', filename: 'blob', bytes }, ...parts(fields(uploadId, bytes))]),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ upload_id: uploadId, chunk_number: 0, received_chunks: 1, progress: 100 });
    const done = await suite.http.post('/tracks/complete', { token: user.accessToken, body: { upload_id: uploadId } });
    expect(done.status).toBe(201);
  });

  it.each([
    ['chunk_number', ''],
    ['chunk_number', '0x0'],
    ['chunk_number', '0.0'],
    ['chunk_number', ' 0'],
    ['chunk_number', '-0'],
    ['total_chunks', '1e0'],
    ['total_size', 'abc'],
  ])('%s=%j is 400 VALIDATION_FAILED naming the field, and stores nothing', async (field, value) => {
    const user = await signedInUser(suite.server);
    const bytes = await makeAudio('wav', { seconds: 0.3 });
    const uploadId = await session(user.accessToken, bytes);
    const reply = await postRaw(
      '/tracks/chunk',
      user.accessToken,
      rawForm([{ name: 'chunk', filename: 'blob', bytes }, ...parts(fields(uploadId, bytes, { [field]: value }))]),
    );
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    expect(reply.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([field]);
    const resume = await suite.http.get(`/tracks/resume/${uploadId}`, { token: user.accessToken });
    expect(resume.body.data.chunks_received).toBe(0);
  });

  it('a missing field is named in the reply', async () => {
    const user = await signedInUser(suite.server);
    const bytes = await makeAudio('wav', { seconds: 0.3 });
    const uploadId = await session(user.accessToken, bytes);
    const { total_size: _dropped, ...rest } = fields(uploadId, bytes);
    const reply = await postRaw(
      '/tracks/chunk',
      user.accessToken,
      rawForm([...parts(rest), { name: 'chunk', filename: 'blob', bytes }]),
    );
    expect(reply.status).toBe(400);
    expect(reply.body.error.details.map((detail: { field: string }) => detail.field)).toEqual(['total_size']);
  });
});
