/**
 * Upload benchmark: a 256 MiB file sent in one request and in 16 MiB chunks, to Riff and to a bare
 * Node server doing the same I/O (body → file) in the same run. Reports throughput, the ratio
 * Riff / bare, and how much Riff's peak RSS grew. Run: npx tsx bench/upload.bench.ts [MiB]
 */
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MiB, makeWav, measure, multipartBody, signIn, sizeOf, startBare, startRiff } from './bench-support.js';

const sizeMiB = Number(process.argv[2] ?? 256);
const file = path.join(tmpdir(), `riff-bench-${sizeMiB}.wav`);
await makeWav(file, sizeMiB * MiB);
const bytes = await sizeOf(file);
const mibps = (seconds: number) => bytes / MiB / seconds;

const riff = await startRiff(18_311, { UPLOAD_MAX_BYTES: String(bytes + MiB) });
const bare = await startBare(18_312, riff.dataDir);
try {
  const token = await signIn(riff);
  const auth = { authorization: `Bearer ${token}` };

  // baseline: the same bytes, streamed to a file by a bare server
  const baseline = await measure(bare.process.pid!, async () => {
    const { body, contentType } = multipartBody({}, 'file', file);
    const response = await fetch(`${bare.baseUrl}/upload`, { method: 'POST', body, headers: { 'content-type': contentType }, duplex: 'half' } as RequestInit);
    await response.text();
  });

  const single = await measure(riff.process.pid!, async () => {
    const { body, contentType } = multipartBody({}, 'file', file);
    const response = await fetch(`${riff.baseUrl}/api/v1/tracks`, { method: 'POST', body, headers: { ...auth, 'content-type': contentType }, duplex: 'half' } as RequestInit);
    const reply = await response.json();
    if (response.status !== 201) throw new Error(`upload failed: ${JSON.stringify(reply)}`);
  });

  const chunkBytes = 16 * MiB;
  const totalChunks = Math.ceil(bytes / chunkBytes);
  const chunked = await measure(riff.process.pid!, async () => {
    const post = (pathname: string, body: unknown) =>
      fetch(`${riff.baseUrl}/api/v1${pathname}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
    const init = await post('/tracks/initiate', { filename: 'bench.wav', total_chunks: totalChunks, total_size: bytes });
    const fields = (n: number) => ({ upload_id: init.data.upload_id, chunk_number: String(n), total_chunks: String(totalChunks), total_size: String(bytes), filename: 'bench.wav' });
    for (let n = 0; n < totalChunks; n++) {
      const range = { start: n * chunkBytes, end: Math.min(bytes, (n + 1) * chunkBytes) - 1 };
      const { body, contentType } = multipartBody(fields(n), 'chunk', file, range);
      const response = await fetch(`${riff.baseUrl}/api/v1/tracks/chunk`, { method: 'POST', body, headers: { ...auth, 'content-type': contentType }, duplex: 'half' } as RequestInit);
      if (response.status !== 200) throw new Error(`chunk ${n}: ${await response.text()}`);
      await response.text();
    }
    const done = await post('/tracks/complete', { upload_id: init.data.upload_id });
    if (!done.success) throw new Error(JSON.stringify(done));
  });

  const report = {
    file_mib: sizeMiB,
    baseline_mib_per_s: +mibps(baseline.seconds).toFixed(1),
    one_request: {
      mib_per_s: +mibps(single.seconds).toFixed(1),
      ratio_to_baseline: +(baseline.seconds / single.seconds).toFixed(2),
      rss_growth_mib: +(single.growth / MiB).toFixed(1),
    },
    chunked_16mib: {
      mib_per_s: +mibps(chunked.seconds).toFixed(1),
      ratio_to_baseline: +(baseline.seconds / chunked.seconds).toFixed(2),
      rss_growth_mib: +(chunked.growth / MiB).toFixed(1),
    },
    riff_rss_before_mib: +(single.rssBefore / MiB).toFixed(1),
    baseline_rss_growth_mib: +(baseline.growth / MiB).toFixed(1),
  };
  console.log(JSON.stringify(report, null, 2));
  if (report.one_request.rss_growth_mib > 64) {
    console.error('one-request upload grew RSS by more than 64 MiB');
    process.exitCode = 1;
  }
} finally {
  await riff.stop();
  await bare.stop();
  await rm(riff.dataDir, { recursive: true, force: true });
}
