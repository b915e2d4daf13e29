/**
 * Range-streaming benchmark: autocannon requests 64 KiB ranges of a stored track from Riff and the
 * same ranges of the same file from a bare Node server, in the same run; reports requests/s and
 * throughput with the ratio Riff / bare. Run: npx tsx bench/stream.bench.ts [seconds]
 */
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { MiB, makeWav, memoryOf, multipartBody, signIn, startBare, startRiff } from './bench-support.js';

const seconds = Number(process.argv[2] ?? 10);
const file = path.join(tmpdir(), 'riff-bench-stream-32.wav');
await makeWav(file, 32 * MiB);

const riff = await startRiff(18_321);
const bare = await startBare(18_322, riff.dataDir, file);
try {
  const token = await signIn(riff);
  const { body, contentType } = multipartBody({}, 'file', file);
  const upload = await fetch(`${riff.baseUrl}/api/v1/tracks`, { method: 'POST', body, headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, duplex: 'half' } as RequestInit);
  const trackId = (await upload.json()).data.track.id;

  const run = (url: string) =>
    autocannon({ url, connections: 16, duration: seconds, headers: { range: 'bytes=1048576-1114111' } });
  const baseline = await run(`${bare.baseUrl}/file`);
  const measured = await run(`${riff.baseUrl}/api/v1/tracks/${trackId}/stream`);
  const full = await autocannon({ url: `${riff.baseUrl}/api/v1/tracks/${trackId}/stream`, connections: 4, duration: Math.max(3, seconds / 2) });
  const fullBaseline = await autocannon({ url: `${bare.baseUrl}/file`, connections: 4, duration: Math.max(3, seconds / 2) });

  const report = {
    range_64kib: {
      baseline_req_per_s: Math.round(baseline.requests.average),
      riff_req_per_s: Math.round(measured.requests.average),
      ratio_to_baseline: +(measured.requests.average / baseline.requests.average).toFixed(2),
      riff_p99_ms: measured.latency.p99,
      non_2xx: measured.non2xx,
    },
    whole_32mib_file: {
      baseline_mib_per_s: +(fullBaseline.throughput.average / MiB).toFixed(1),
      riff_mib_per_s: +(full.throughput.average / MiB).toFixed(1),
      ratio_to_baseline: +(full.throughput.average / fullBaseline.throughput.average).toFixed(2),
    },
    riff_rss_mib: +((await memoryOf(riff.process.pid!)).rss / MiB).toFixed(1),
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  await riff.stop();
  await bare.stop();
  await rm(riff.dataDir, { recursive: true, force: true });
}
