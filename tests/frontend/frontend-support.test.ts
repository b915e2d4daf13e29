import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { api } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createLogger } from '../../server/src/platform/logging/logger.js';
import { WebRtcConfigService } from '../../server/src/modules/frontend/webrtc-config.service.js';
import { anonymousActor } from '../../server/src/platform/access/actor.js';

const TURN_SECRET = 'coturn static auth secret';
const logLines: string[] = [];
let server: TestServer;
let http: ReturnType<typeof api>;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  server = await startTestServer(
    {
      STUN_URLS: 'stun:stun.example.org:3478, stun:stun2.example.org',
      TURN_URLS: 'turn:turn.example.org:3478',
      TURN_SECRET,
      TURN_TTL_SECONDS: '3600',
    },
    { logger: createLogger('debug', sink) },
  );
  http = api(server.baseUrl);
});
afterAll(async () => {
  await server?.close();
});

const bytes = (text: string) => [...Buffer.from(text, 'utf8')];
const frontendLines = () => logLines.map((line) => JSON.parse(line)).filter((line) => line.source === 'frontend');

describe('POST /logs/frontend', () => {
  it('writes one pino line with source frontend, the request id and the caller’s user id', async () => {
    const user = await createUser(server);
    const reply = await http.post('/logs/frontend', {
      token: user.accessToken,
      headers: { 'x-request-id': 'frontend-log-test-1' },
      body: {
        level: 'error',
        message: 'Playback failed',
        timestamp: '2026-11-25T07:00:00.000Z',
        context: { page: '/tracks/1' },
        data: { code: 4 },
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true, data: { received: true } });
    const line = frontendLines().find((entry) => entry.msg === 'Playback failed');
    expect(line).toMatchObject({
      level: 50,
      source: 'frontend',
      request_id: 'frontend-log-test-1',
      user_id: user.id,
      client_timestamp: '2026-11-25T07:00:00.000Z',
      context: { page: '/tracks/1' },
      data: { code: 4 },
    });
  });

  it('an expired or bad token does not stop the entry: it is logged without a user', async () => {
    const reply = await http.post('/logs/frontend', {
      token: 'not.a.token',
      body: { level: 'warn', message: 'stale session' },
    });
    expect(reply.status).toBe(200);
    expect(frontendLines().find((entry) => entry.msg === 'stale session')).toMatchObject({ level: 40, user_id: null });
  });

  it.each([
    ['an unknown level', { level: 'fatal', message: 'x' }, 'level'],
    ['an empty message', { level: 'info', message: '' }, 'message'],
    ['a message over 2000 characters', { level: 'info', message: 'x'.repeat(2001) }, 'message'],
  ])('%s is 400 VALIDATION_FAILED and nothing is logged', async (_name, body, field) => {
    const before = frontendLines().length;
    const reply = await http.post('/logs/frontend', { body });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details.map((issue: { field: string }) => issue.field)).toContain(field);
    expect(frontendLines()).toHaveLength(before);
  });

  it('a body over 16 KiB is 413', async () => {
    const reply = await http.post('/logs/frontend', {
      body: { level: 'info', message: 'big', data: 'x'.repeat(17 * 1024) },
    });
    expect(reply.status).toBe(413);
    expect(reply.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('an address may send 60 entries a minute; the next is 429 with Retry-After', async () => {
    const own = await startTestServer({ RIFF_TEST_PRISM_PROXY: '0' });
    try {
      const direct = api(own.baseUrl);
      const replies = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          direct.post('/logs/frontend', { body: { level: 'debug', message: `entry ${i}` } }),
        ),
      );
      expect(replies.every((reply) => reply.status === 200)).toBe(true);
      const over = await direct.post('/logs/frontend', { body: { level: 'debug', message: 'one too many' } });
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  });
});

describe('POST /validate', () => {
  it('a valid body: valid true, no errors', async () => {
    const reply = await http.post('/validate', {
      body: { type: 'CreatePlaylistRequest', data: bytes(JSON.stringify({ title: 'Road trip', is_public: true })) },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ valid: true, message: 'Valid CreatePlaylistRequest', errors: [] });
  });

  it('an invalid body gives the very messages the endpoint itself gives', async () => {
    const user = await createUser(server);
    const body = { title: '', is_public: 'yes', description: 'd'.repeat(1001) };
    const endpoint = await http.post('/playlists', { token: user.accessToken, body });
    expect(endpoint.status).toBe(400);
    const reply = await http.post('/validate', {
      body: { type: 'CreatePlaylistRequest', data: bytes(JSON.stringify(body)) },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.valid).toBe(false);
    expect(reply.body.errors).toEqual(endpoint.body.error.details);
    expect(reply.body.message).toBe(endpoint.body.error.message);
  });

  it('knows the register and login bodies too, and accepts UTF-8 text', async () => {
    const register = await http.post('/validate', {
      body: {
        type: 'RegisterRequest',
        data: bytes(JSON.stringify({ username: 'Björk Guðmundsdóttir', email: 'nope' })),
      },
    });
    expect(register.status).toBe(200);
    expect(register.body.valid).toBe(false);
    expect(register.body.errors.map((issue: { field: string }) => issue.field)).toEqual(
      expect.arrayContaining(['email', 'password']),
    );
    const login = await http.post('/validate', {
      body: {
        type: 'LoginRequest',
        data: bytes(JSON.stringify({ email: 'mira@example.org', password: 'correct horse battery staple' })),
      },
    });
    expect(login.body.valid).toBe(true);
  });

  it.each([
    ['an unknown type', { type: 'DropTablesRequest', data: bytes('{}') }, 'type'],
    ['a byte over 255', { type: 'LoginRequest', data: [123, 256, 125] }, 'data.1'],
    ['a negative byte', { type: 'LoginRequest', data: [-1] }, 'data.0'],
    ['bytes that are not JSON', { type: 'LoginRequest', data: bytes('{"email":') }, 'data'],
    ['bytes that are not UTF-8', { type: 'LoginRequest', data: [0x22, 0xff, 0xfe, 0x22] }, 'data'],
    ['more than 65,536 bytes', { type: 'LoginRequest', data: new Array(65_537).fill(32) }, 'data'],
  ])('%s is 400 in the error envelope', async (_name, body, field) => {
    const reply = await http.post('/validate', { body });
    expect(reply.status).toBe(400);
    expect(reply.body.success).toBe(false);
    expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    expect(reply.body.error.details.map((issue: { field: string }) => issue.field)).toContain(field);
  });
});

describe('GET /config/webrtc', () => {
  it('STUN from STUN_URLS; TURN with time-limited credentials from TURN_SECRET (coturn use-auth-secret)', async () => {
    const anonymous = await http.get('/config/webrtc');
    expect(anonymous.status).toBe(200);
    const [stun, turn] = anonymous.body.iceServers;
    expect(stun).toEqual({ urls: ['stun:stun.example.org:3478', 'stun:stun2.example.org'] });
    expect(turn.urls).toEqual(['turn:turn.example.org:3478']);
    const [expiry, who] = turn.username.split(':');
    expect(who).toBe('anon');
    expect(Number(expiry) - Date.now() / 1000).toBeGreaterThan(3590);
    expect(Number(expiry) - Date.now() / 1000).toBeLessThanOrEqual(3601);
    expect(turn.credential).toBe(createHmac('sha1', TURN_SECRET).update(turn.username).digest('base64'));

    const user = await createUser(server);
    const signedIn = await http.get('/config/webrtc', { token: user.accessToken });
    expect(signedIn.body.iceServers[1].username).toMatch(new RegExp(`^\\d+:${user.id}$`));
  });

  it('static TURN credentials; TURN only with both URLs and credentials; nothing without STUN', () => {
    const settings = {
      stunUrls: ['stun:s.example.org'],
      turnUrls: ['turn:t.example.org'],
      turnUsername: 'u',
      turnCredential: 'c',
      turnSecret: undefined,
      turnTtlSeconds: 86_400,
    };
    const clock = { now: () => new Date() };
    const config = (overrides: Partial<typeof settings>) =>
      new WebRtcConfigService({ settings: { ...settings, ...overrides }, clock }).forCaller(anonymousActor());
    expect(config({})).toEqual({
      iceServers: [{ urls: ['stun:s.example.org'] }, { urls: ['turn:t.example.org'], username: 'u', credential: 'c' }],
    });
    expect(config({ turnCredential: undefined })).toEqual({ iceServers: [{ urls: ['stun:s.example.org'] }] });
    expect(config({ turnUrls: [] })).toEqual({ iceServers: [{ urls: ['stun:s.example.org'] }] });
    expect(config({ stunUrls: [], turnUrls: [] })).toEqual({ iceServers: [] });
  });
});
