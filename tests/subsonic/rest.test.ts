import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { createAppPassword, jsonReply, restCall, subsonicClient } from '../support/subsonic.js';
import { expectValidSubsonicXml } from '../support/subsonic-xsd.js';

// The Subsonic interface at /rest/, driven by a real third-party client (the npm package
// subsonic-api) and by hand for what that client does not send (p, enc:, XML, form POST): signing in
// with app passwords and API keys, the replies of the system, browsing and user methods (every XML
// reply validated against the Subsonic XSD as OpenSubsonic extends it), and every refusal.
const suite = useTestServer();

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const SERVED = ['ping', 'getLicense', 'getOpenSubsonicExtensions', 'tokenInfo', 'getMusicFolders', 'getUser'];

/** Every method the interface promises player apps (the OpenSubsonic methods Riff serves). */
const PROMISED = [
  ...SERVED,
  ...['getIndexes', 'getArtists', 'getArtist', 'getArtistInfo2', 'getAlbum', 'getAlbumInfo2', 'getSong', 'getGenres'],
  ...['getMusicDirectory', 'getAlbumList2', 'getRandomSongs', 'getSongsByGenre', 'getStarred2', 'getTopSongs'],
  ...['getSimilarSongs2', 'search3', 'stream', 'download', 'getCoverArt', 'getAvatar', 'getLyricsBySongId', 'star'],
  ...['unstar', 'setRating', 'scrobble', 'getPlaylists', 'getPlaylist', 'createPlaylist', 'updatePlaylist'],
  ...['deletePlaylist', 'getPlayQueue', 'savePlayQueue', 'getNowPlaying', 'getShares', 'createShare', 'deleteShare'],
];

async function apiKey(owner: TestUser, scopes: string[]) {
  const reply = await suite.http.post('/developer/api-keys', { token: owner.accessToken, body: { name: 'k', scopes } });
  expect(reply.status).toBe(201);
  return reply.body.data.key as string;
}

/** A user with an app password, and the parameters a hand-written call signs with (p in clear). */
async function player() {
  const user = await createUser(suite.server);
  const { id, password } = await createAppPassword(suite.server, user, 'Test player');
  const sign = { u: user.username, p: password, v: '1.16.1', c: 'riff-tests' };
  return { user, appPasswordId: id, password, sign };
}

describe('a Subsonic client signed in with an app password', () => {
  it('token and salt (subsonic-api): ping, license, extensions, token info, music folders, the user', async () => {
    const { user, password } = await player();
    const client = subsonicClient(suite.server, { username: user.username, password });
    const root = { status: 'ok', version: '1.16.1', type: 'riff', serverVersion: '1.2.0', openSubsonic: true };
    expect(await client.ping()).toEqual(root);
    expect(await client.getLicense()).toEqual({ ...root, license: { valid: true } });
    expect((await client.getOpenSubsonicExtensions()).openSubsonicExtensions).toEqual([
      { name: 'apiKeyAuthentication', versions: [1] },
      { name: 'formPost', versions: [1] },
      { name: 'songLyrics', versions: [1] },
      { name: 'transcodeOffset', versions: [1] },
    ]);
    // the client has no method of its own for tokenInfo (OpenSubsonic's addition): its generic call
    expect(await client.customJSON('tokenInfo', {})).toEqual({ ...root, tokenInfo: { username: user.username } });
    expect((await client.getMusicFolders()).musicFolders).toEqual({ musicFolder: [{ id: 1, name: 'Riff' }] });
    expect((await client.getUser({ username: user.username })).user).toEqual({
      username: user.username,
      email: user.email,
      scrobblingEnabled: true,
      adminRole: false,
      settingsRole: false,
      downloadRole: true,
      uploadRole: false,
      playlistRole: true,
      coverArtRole: true,
      commentRole: false,
      podcastRole: false,
      streamRole: true,
      jukeboxRole: false,
      shareRole: true,
      videoConversionRole: false,
      folder: [1],
    });
    // another user's details are not the caller's to read
    const other = await createUser(suite.server);
    expect(await client.getUser({ username: other.username })).toMatchObject({
      status: 'failed',
      error: { code: 50 },
    });
  });

  it('by form POST (OpenSubsonic formPost), as the client sends it', async () => {
    const { user, password } = await player();
    const client = subsonicClient(suite.server, { username: user.username, password }, { post: true });
    expect((await client.ping()).status).toBe('ok');
    expect((await client.customJSON<{ tokenInfo: unknown }>('tokenInfo', {})).tokenInfo).toEqual({
      username: user.username,
    });
  });

  it('p in clear and as enc: hex, at /rest/<method> and /rest/<method>.view; the use is recorded', async () => {
    const { user, password, sign } = await player();
    const enc = { ...sign, p: `enc:${Buffer.from(password).toString('hex')}` };
    for (const [params, suffix] of [
      [sign, ''],
      [sign, '.view'],
      [enc, ''],
      [enc, '.view'],
    ] as const) {
      const reply = await restCall(suite.server, 'ping', { ...params, f: 'json' }, { suffix });
      expect(reply.status).toBe(200);
      expect(jsonReply(reply.text)).toMatchObject({ status: 'ok' });
    }
    const listed = await suite.http.get('/users/me/app-passwords', { token: user.accessToken });
    expect(listed.body.data.app_passwords[0].last_used_at).not.toBeNull();
  });

  it('serves every method it promises: none answers "not supported", called bare each says what it misses', async () => {
    const { sign } = await player();
    for (const method of PROMISED) {
      const reply = await restCall(suite.server, method, { ...sign, f: 'json' });
      expect(reply.status, method).toBe(200);
      // bytes (a stream, a cover) are answered only to a call naming its item: bare, every method answers JSON
      const body = JSON.parse(reply.text)['subsonic-response'];
      expect(body.error?.message ?? '', method).not.toContain('not supported');
      if (body.status === 'failed') expect([10, 70], method).toContain(body.error.code);
    }
  });

  it('an unsupported method answers error 0 "not supported" in the standard reply, never a 404 page', async () => {
    const { user, password, sign } = await player();
    const client = subsonicClient(suite.server, { username: user.username, password });
    const reply = await client.customJSON<Record<string, unknown>>('jukeboxControl', { action: 'status' });
    expect(reply).toMatchObject({ status: 'failed', openSubsonic: true, error: { code: 0 } });
    expect(String((reply.error as { message: string }).message)).toContain('not supported');
    for (const path of ['noSuchMethod', 'noSuchMethod.view', 'a/b', '']) {
      const raw = await restCall(suite.server, path, sign);
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect(raw.text).toContain('<error code="0"');
      await expectValidSubsonicXml(raw.text);
    }
  });
});

describe('a Subsonic client signed in with an API key (OpenSubsonic apiKeyAuthentication)', () => {
  it('reads as the key’s owner; tokenInfo tells the username', async () => {
    const owner = await createUser(suite.server);
    const client = subsonicClient(suite.server, { apiKey: await apiKey(owner, ['read']) });
    expect((await client.ping()).status).toBe('ok');
    expect((await client.customJSON<{ tokenInfo: unknown }>('tokenInfo', {})).tokenInfo).toEqual({
      username: owner.username,
    });
    expect((await client.getUser({ username: owner.username })).user).toMatchObject({ username: owner.username });
  });

  it('counts against the key’s hourly budget, the one it has on the API', async () => {
    const owner = await createUser(suite.server);
    const key = await apiKey(owner, ['read']);
    const first = await restCall(suite.server, 'ping', { apiKey: key, v: '1.16.1', c: 'riff-tests' });
    // one budget for the key wherever it is used: a read on the API counts too
    expect((await suite.http.get('/auth/me', { headers: { 'x-api-key': key } })).status).toBe(200);
    const second = await restCall(suite.server, 'ping', { apiKey: key, v: '1.16.1', c: 'riff-tests' });
    expect(second.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
      Number(first.headers.get('x-ratelimit-remaining')) - 2,
    );
  });
});

describe('XML replies', () => {
  it('every served method answers XML by default, valid against the XSD as OpenSubsonic extends it', async () => {
    const { sign } = await player();
    for (const method of SERVED) {
      const reply = await restCall(suite.server, method, sign);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect(reply.text).toMatch(
        /^<\?xml version="1.0" encoding="UTF-8"\?><subsonic-response xmlns="http:\/\/subsonic.org\/restapi" status="ok" version="1.16.1" type="riff" serverVersion="1.2.0" openSubsonic="true"/,
      );
      await expectValidSubsonicXml(reply.text);
    }
    const extensions = await restCall(suite.server, 'getOpenSubsonicExtensions', {});
    expect(extensions.text).toContain(
      '<openSubsonicExtensions name="apiKeyAuthentication"><versions>1</versions></openSubsonicExtensions>',
    );
    const user = await restCall(suite.server, 'getUser', { ...sign, f: 'xml' });
    expect(user.text).toContain('<folder>1</folder></user>');
  });

  it('error replies are valid XML too, with the Subsonic code', async () => {
    const { sign } = await player();
    for (const [params, code] of [
      [{ ...sign, p: 'wrong' }, 40],
      [{ ...sign, v: '2.0.0' }, 30],
      [{ ...sign, u: '' }, 10],
    ] as const) {
      const reply = await restCall(suite.server, 'ping', params);
      expect(reply.text).toContain('status="failed"');
      expect(reply.text).toContain(`<error code="${code}" message="`);
      await expectValidSubsonicXml(reply.text);
    }
  });

  it('replies carry no cache and may be read by any page (credentials travel in the URL, never in cookies)', async () => {
    const { sign } = await player();
    const reply = await restCall(suite.server, 'ping', sign);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    expect(reply.headers.get('x-request-id')).toBeTruthy();
  });

  it('a web player on another origin passes its preflight (a Range header on audio)', async () => {
    const reply = await fetch(`${suite.server.baseUrl}/rest/stream.view?id=x`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://player.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'range',
      },
    });
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    expect(reply.headers.get('access-control-allow-methods')).toContain('GET');
    expect(reply.headers.get('access-control-allow-headers')).toBe('range');
    expect(await reply.text()).toBe('');
  });
});

describe('refusals', () => {
  const code = async (params: Record<string, string>, method = 'ping') =>
    jsonReply((await restCall(suite.server, method, { f: 'json', ...params })).text).error?.code;

  it('wrong, account and revoked passwords are error 40', async () => {
    const { user, appPasswordId, password, sign } = await player();
    expect(await code({ ...sign, p: 'not-the-password' })).toBe(40);
    expect(await code({ ...sign, p: user.password })).toBe(40);
    const salt = 'a1b2c3';
    const { p: _p, ...byName } = sign;
    expect(await code({ ...byName, t: md5(user.password + salt), s: salt })).toBe(40);
    expect(await code({ ...sign, u: 'nobody-here' })).toBe(40);
    expect(await code(sign)).toBeUndefined();
    expect(
      (await suite.http.delete(`/users/me/app-passwords/${appPasswordId}`, { token: user.accessToken })).status,
    ).toBe(200);
    expect(await code(sign)).toBe(40);
    const client = subsonicClient(suite.server, { username: user.username, password });
    expect(await client.ping()).toMatchObject({ status: 'failed', error: { code: 40 } });
  });

  it('after 10 failed attempts for one username from one address, the eleventh fails even with the right password', async () => {
    const { sign } = await player();
    for (let attempt = 0; attempt < 10; attempt++) expect(await code({ ...sign, p: `guess-${attempt}` })).toBe(40);
    expect(await code(sign)).toBe(40);
  });

  it('a version above 1.x is error 30, below it error 20; no version or no client name error 10', async () => {
    const { sign } = await player();
    expect(await code({ ...sign, v: '2.0.0' })).toBe(30);
    expect(await code({ ...sign, v: '0.9.0' })).toBe(20);
    expect(await code({ ...sign, v: '1.13.0' })).toBeUndefined();
    const { v: _v, ...noVersion } = sign;
    expect(await code(noVersion)).toBe(10);
    const { c: _c, ...noClient } = sign;
    expect(await code(noClient)).toBe(10);
  });

  it('u, p and apiKey together are error 43; an unknown key is error 44', async () => {
    const { user, sign } = await player();
    const key = await apiKey(user, ['read']);
    expect(await code({ ...sign, apiKey: key })).toBe(43);
    expect(await code({ apiKey: `${key}0`, v: '1.16.1', c: 'riff-tests' })).toBe(44);
    expect(await code({ apiKey: 'whatever', v: '1.16.1', c: 'riff-tests' })).toBe(44);
  });

  it('getOpenSubsonicExtensions answers without credentials; every other method wants them (10)', async () => {
    expect(jsonReply((await restCall(suite.server, 'getOpenSubsonicExtensions', { f: 'json' })).text).status).toBe(
      'ok',
    );
    expect(await code({ v: '1.16.1', c: 'riff-tests' })).toBe(10);
  });

  it('a NUL in a parameter and a form too large are refused as Subsonic errors', async () => {
    const { sign } = await player();
    expect(await code({ ...sign, u: 'a\u0000b' })).toBe(0);
    const big = await fetch(`${suite.server.directUrl}/rest/ping?f=json`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `x=${'a'.repeat(2 * 1024 * 1024)}`,
    });
    expect(big.status).toBe(200);
    expect(jsonReply(await big.text()).error.code).toBe(0);
  });
});
