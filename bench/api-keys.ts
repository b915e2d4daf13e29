/**
 * What authenticating with a developer API key costs (issue 16): `npm run bench:keys`
 * (`-- --quick` for a short run; DATABASE_URL and REDIS_URL are used when set).
 *
 * The same GET /tracks/{id} through one Riff, in turns: with a bearer token, then with an API
 * key (X-API-Key). The key path adds a hash lookup, the owner's row and the per-key counter
 * (Redis when configured). A key may make 1,000 reads an hour, so the requests rotate over
 * 20 users × 25 keys; the bearer side rotates over the same 20 users' tokens. Goal: the key
 * side keeps ≥ 80 % of the bearer side's requests per second.
 */
import autocannon from 'autocannon';
import { rm } from 'node:fs/promises';
import { makeWav, MiB, multipartBody, signInUser, startRiff, type BenchUser } from './bench-support.js';
import path from 'node:path';
import { tmpdir } from 'node:os';

const quick = process.argv.includes('--quick');
const seconds = quick ? 3 : 10;
const rounds = quick ? 1 : 3;
const USERS = 20;
const KEYS_PER_USER = 25;
const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';

const riff = await startRiff(18_341);
try {
  const users: BenchUser[] = [];
  for (let i = 0; i < USERS; i++) users.push(await signInUser(riff));
  const keys: string[] = [];
  for (const user of users) {
    for (let k = 0; k < KEYS_PER_USER; k++) {
      const reply = await fetch(`${riff.baseUrl}/api/v1/developer/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `bench ${k}`, scopes: ['read'] }),
      });
      if (reply.status !== 201) throw new Error(`key: ${reply.status} ${await reply.text()}`);
      keys.push((await reply.json()).data.key);
    }
  }
  const file = path.join(tmpdir(), 'riff-bench-keys.wav');
  await makeWav(file, MiB);
  const { body, contentType } = multipartBody({ title: 'bench keys', is_public: 'true' }, 'file', file);
  const uploaded = await fetch(`${riff.baseUrl}/api/v1/tracks`, {
    method: 'POST',
    body,
    headers: { authorization: `Bearer ${users[0]!.accessToken}`, 'content-type': contentType },
    duplex: 'half',
  } as RequestInit);
  if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status}`);
  const trackUrl = `${riff.baseUrl}/api/v1/tracks/${(await uploaded.json()).data.track.id}`;

  const rotating = (headersOf: (i: number) => Record<string, string>) => {
    let next = 0;
    return [
      {
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          headers: { ...request.headers, ...headersOf(next++) },
        }),
      },
    ];
  };
  const bearer = () => rotating((i) => ({ authorization: `Bearer ${users[i % USERS]!.accessToken}` }));
  const apiKey = () => rotating((i) => ({ 'x-api-key': keys[i % keys.length]! }));
  const load = async (requests: autocannon.Request[], duration: number) => {
    const result = await autocannon({ url: trackUrl, connections: 32, duration, requests });
    return { rate: result.requests.average, p99: result.latency.p99, bad: result.non2xx + result.errors };
  };

  await load(bearer(), quick ? 1 : 5);
  await load(apiKey(), quick ? 1 : 5);
  const figures = { bearer: [] as Awaited<ReturnType<typeof load>>[], key: [] as Awaited<ReturnType<typeof load>>[] };
  for (let round = 0; round < rounds; round++) {
    figures.bearer.push(await load(bearer(), seconds));
    figures.key.push(await load(apiKey(), seconds));
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const rate = { bearer: mean(figures.bearer.map((run) => run.rate)), key: mean(figures.key.map((run) => run.rate)) };
  const bad = [...figures.bearer, ...figures.key].reduce((sum, run) => sum + run.bad, 0);
  const ratio = rate.key / rate.bearer;
  console.log(`| GET /tracks/{id} (${database}${process.env.REDIS_URL ? ' + Redis' : ''}) | req/s | p99 |`);
  console.log('|---|---|---|');
  console.log(
    `| bearer token | ${rate.bearer.toFixed(0)} | ${mean(figures.bearer.map((run) => run.p99)).toFixed(0)} ms |`,
  );
  console.log(`| API key | ${rate.key.toFixed(0)} | ${mean(figures.key.map((run) => run.p99)).toFixed(0)} ms |`);
  console.log(
    `\nratio key/bearer ${ratio.toFixed(2)} (goal ≥ 0.80: ${ratio >= 0.8 && bad === 0 ? 'met' : 'NOT met'}); non-2xx or errors: ${bad}; ${rounds} round(s) of ${seconds} s each, alternated.`,
  );
} finally {
  await riff.stop();
  await rm(riff.dataDir, { recursive: true, force: true });
}
