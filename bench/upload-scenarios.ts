import { MiB, measure, multipartBody, type Child } from './bench-support.js';

export interface UploadFigures {
  mibPerSecond: number;
  seconds: number;
  /** Largest rise of the server's resident memory during the upload. */
  rssGrowth: number;
}

const figures = (bytes: number, run: { seconds: number; growth: number }): UploadFigures => ({
  mibPerSecond: bytes / MiB / run.seconds,
  seconds: run.seconds,
  rssGrowth: run.growth,
});

/** The baseline: the same multipart body streamed to a file by the bare server. */
export async function bareUpload(bare: Child, file: string, bytes: number): Promise<UploadFigures> {
  return figures(
    bytes,
    await measure(bare.process.pid!, async () => {
      const { body, contentType } = multipartBody({}, 'file', file);
      const response = await fetch(`${bare.baseUrl}/upload`, {
        method: 'POST',
        body,
        headers: { 'content-type': contentType },
        duplex: 'half',
      } as RequestInit);
      await response.text();
    }),
  );
}

/** POST /tracks: the whole file in one request. */
export async function oneRequestUpload(
  riff: Child,
  token: string,
  file: string,
  bytes: number,
): Promise<UploadFigures> {
  return figures(
    bytes,
    await measure(riff.process.pid!, async () => {
      const { body, contentType } = multipartBody({}, 'file', file);
      const response = await fetch(`${riff.baseUrl}/api/v1/tracks`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        duplex: 'half',
      } as RequestInit);
      const reply = await response.text();
      if (response.status !== 201) throw new Error(`upload failed: ${reply}`);
    }),
  );
}

/** initiate, one POST /tracks/chunk per `chunkBytes`, complete. */
export async function chunkedUpload(
  riff: Child,
  token: string,
  file: string,
  bytes: number,
  chunkBytes = 16 * MiB,
): Promise<UploadFigures> {
  const auth = { authorization: `Bearer ${token}` };
  const totalChunks = Math.ceil(bytes / chunkBytes);
  const post = async (pathname: string, body: unknown) => {
    const response = await fetch(`${riff.baseUrl}/api/v1${pathname}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const reply = await response.json();
    if (!reply.success) throw new Error(`${pathname}: ${JSON.stringify(reply)}`);
    return reply;
  };
  return figures(
    bytes,
    await measure(riff.process.pid!, async () => {
      const init = await post('/tracks/initiate', {
        filename: 'bench.wav',
        total_chunks: totalChunks,
        total_size: bytes,
      });
      const fields = (n: number) => ({
        upload_id: init.data.upload_id,
        chunk_number: String(n),
        total_chunks: String(totalChunks),
        total_size: String(bytes),
        filename: 'bench.wav',
      });
      for (let n = 0; n < totalChunks; n++) {
        const range = { start: n * chunkBytes, end: Math.min(bytes, (n + 1) * chunkBytes) - 1 };
        const { body, contentType } = multipartBody(fields(n), 'chunk', file, range);
        const response = await fetch(`${riff.baseUrl}/api/v1/tracks/chunk`, {
          method: 'POST',
          body,
          headers: { ...auth, 'content-type': contentType },
          duplex: 'half',
        } as RequestInit);
        if (response.status !== 200) throw new Error(`chunk ${n}: ${await response.text()}`);
        await response.text();
      }
      const completing = performance.now();
      await post('/tracks/complete', { upload_id: init.data.upload_id });
      console.error(`chunked upload: complete took ${((performance.now() - completing) / 1000).toFixed(2)} s`);
    }),
  );
}
