import { describe, expect, it } from 'vitest';
import { createRiffClient, memoryTokenStore } from '@riff/client';
import { signedInUser } from '../support/accounts.js';
import { makeAudio, md5 } from '../support/audio.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer({ UPLOAD_CHUNK_MAX_BYTES: '65536' });

describe('client multipart bodies', () => {
  it('sends plain-object uploads as FormData with text fields as they are, before the file', async () => {
    const user = await signedInUser(suite.server);
    const client = createRiffClient({
      baseUrl: suite.server.baseUrl,
      tokens: memoryTokenStore({ accessToken: user.accessToken }),
    });
    const bytes = await makeAudio('mp3', { seconds: 1 });
    const reply = await client.tracks.upload({
      body: { title: 'My Song', is_public: 'false', file: new Blob([new Uint8Array(bytes)]) },
    });
    expect(reply.status).toBe(201);
    if (reply.status !== 201) return;
    expect(reply.body.data.track).toMatchObject({ title: 'My Song', is_public: false });
  });

  it('sends chunk fields as text, so a chunked upload works through the typed client', async () => {
    const user = await signedInUser(suite.server);
    const client = createRiffClient({
      baseUrl: suite.server.baseUrl,
      tokens: memoryTokenStore({ accessToken: user.accessToken }),
    });
    const bytes = await makeAudio('wav', { seconds: 1 });
    const size = 40_000;
    const total_chunks = Math.ceil(bytes.length / size);
    const init = await client.tracks.initiate({ body: { filename: 'c.wav', total_chunks, total_size: bytes.length } });
    if (init.status !== 200) throw new Error(`initiate: ${init.status}`);
    for (let n = 0; n < total_chunks; n++) {
      const chunk = await client.tracks.chunk({
        body: {
          upload_id: init.body.data.upload_id,
          chunk_number: n,
          total_chunks,
          total_size: bytes.length,
          filename: 'c.wav',
          chunk: new Blob([new Uint8Array(bytes.subarray(n * size, (n + 1) * size))]),
        },
      });
      expect(chunk.status).toBe(200);
    }
    const done = await client.tracks.complete({ body: { upload_id: init.body.data.upload_id } });
    expect(done.status).toBe(201);
    if (done.status === 201) expect(done.body.data.md5).toBe(md5(bytes));
  });

  it('types a file part as a Blob (or File), so a string there does not compile', () => {
    const client = createRiffClient({ baseUrl: suite.server.baseUrl });
    const upload = (file: Blob) => client.tracks.upload({ body: { title: 'typed', file } });
    // never called: what is checked here is that `npm run typecheck` refuses the line below
    const wrong = () =>
      // @ts-expect-error a file part is a Blob or File, not a string
      client.tracks.upload({ body: { title: 'typed', file: 'tone.mp3' } });
    expect(typeof upload).toBe('function');
    expect(typeof wrong).toBe('function');
  });
});
