import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { mp3WithCover, uploadTrack } from '../support/audio.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { afterJobs } from '../support/jobs.js';
import { createModerator } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';
import { jsonReply, restCall, signedInPlayer } from '../support/subsonic.js';
import { expectValidSubsonicXml } from '../support/subsonic-xsd.js';
import { expectStatus } from '../support/typed-api.js';

// Media retrieval besides audio through the Subsonic interface, driven by the subsonic-api client:
// getCoverArt (a song's cover, an album's, an artist's avatar; `size` fits the image inside a square,
// never enlarging it; ETag and If-None-Match), getAvatar, and OpenSubsonic's getLyricsBySongId (plain
// and LRC-timed). What a listener may not see (private, hidden, blocked, banned) is error 70. Every
// XML reply validates against the XSD.
const suite = useTestServer();

type Json = Record<string, any>;

const listener = (user?: TestUser) => signedInPlayer(suite.server, user);

type Listener = Awaited<ReturnType<typeof listener>>;

/** An MP3 whose tags carry `tags` and whose picture is a width×height PNG of one colour (a new one each time). */
const mp3WithPicture = (width: number, height: number, tags: { album?: string; title?: string }) =>
  mp3WithCover(2, { width, height, tags, background: { r: Math.floor(Math.random() * 255), g: 90, b: 30 } });

/** A track with a cover, once the media pipeline has stored it (GET /tracks/{id}/cover answers). */
async function coveredTrack(
  owner: TestUser,
  options: { title: string; album?: string; isPublic?: boolean; width?: number; height?: number },
) {
  const bytes = await mp3WithPicture(options.width ?? 300, options.height ?? 150, {
    title: options.title,
    ...(options.album ? { album: options.album } : {}),
  });
  const track = await uploadTrack(suite.server.baseUrl, owner.token, bytes, 'covered.mp3', {
    title: options.title,
    is_public: options.isPublic === false ? 'false' : 'true',
  });
  const stored = await afterJobs(
    suite.server,
    async () => {
      const reply = await fetch(`${suite.server.baseUrl}/api/v1/tracks/${track.id}/cover`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      return reply.status === 200 ? true : undefined;
    },
    30_000,
  );
  expect(stored).toBe(true);
  return track;
}

/** A getCoverArt or getAvatar by hand (the client sends no headers of its own). */
async function image(
  who: Listener,
  method: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const search = new URLSearchParams({ ...who.sign, ...params });
  return fetch(`${suite.server.directUrl}/rest/${method}?${search}`, { headers });
}

const dimensions = async (response: Response) => {
  const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
  return [meta.width, meta.height];
};

/** The error code of a refused image call, which answers a subsonic-response (JSON, as the client asks). */
async function refusedCode(response: Response): Promise<number> {
  expect(response.headers.get('content-type')).toContain('application/json');
  return jsonReply(await response.text()).error?.code;
}

/** The same call as XML: a refusal, valid against the XSD, with this code. */
async function expectXmlRefusal(who: Listener, method: string, params: Record<string, string>, code: number) {
  const reply = await restCall(suite.server, method, { ...who.sign, ...params });
  expect(reply.text).toContain(`<error code="${code}"`);
  await expectValidSubsonicXml(reply.text);
}

describe('getCoverArt', () => {
  it('answers a song’s cover and its album’s; `size` fits it inside a square, never enlarged; ETag and 304', async () => {
    const creator = await createUser(suite.server);
    const album = `Covers ${Math.random().toString(36).slice(2, 8)}`;
    // the album's first song has no cover: the album shows the next one's
    const plain = await createTrack(suite.server, creator, {
      title: 'No Picture',
      tags: { title: 'No Picture', album },
    });
    const covered = await coveredTrack(creator, { title: 'With Picture', album, width: 300, height: 150 });
    const me = await listener();

    const whole = await me.client.getCoverArt({ id: covered.id });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/jpeg');
    expect(whole.headers.get('cache-control')).toBe('no-store');
    const etag = whole.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(await dimensions(whole)).toEqual([300, 150]);

    expect(await dimensions(await me.client.getCoverArt({ id: covered.id, size: 100 }))).toEqual([100, 50]);
    // asked again: the copy made the first time, the same bytes and tag
    const again = await me.client.getCoverArt({ id: covered.id, size: 100 });
    const sizedTag = again.headers.get('etag');
    expect(sizedTag).not.toBe(etag);
    expect(await dimensions(again)).toEqual([100, 50]);
    // never enlarged; a side under 16 is 16
    expect(await dimensions(await me.client.getCoverArt({ id: covered.id, size: 1000 }))).toEqual([300, 150]);
    expect(await dimensions(await me.client.getCoverArt({ id: covered.id, size: 4 }))).toEqual([16, 8]);

    // an app that has it already: 304 without the bytes
    const unchanged = await image(me, 'getCoverArt', { id: covered.id, size: '100' }, { 'If-None-Match': sizedTag! });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(sizedTag);
    expect((await unchanged.arrayBuffer()).byteLength).toBe(0);

    // the album (its id from getSong): the cover of its first song that has one
    const { song } = await me.client.getSong({ id: plain.id });
    expect(song.albumId).toBe((await me.client.getSong({ id: covered.id })).song.albumId);
    const albumCover = await me.client.getCoverArt({ id: song.albumId! });
    expect(albumCover.status).toBe(200);
    expect(albumCover.headers.get('etag')).toBe(etag);
    expect(await dimensions(await me.client.getCoverArt({ id: song.albumId!, size: 60 }))).toEqual([60, 30]);

    // getAlbumInfo2: the album's cover as the JSON API serves it
    const info = (await me.client.getAlbumInfo2({ id: song.albumId! })).albumInfo as Json;
    expect(info.largeImageUrl).toMatch(new RegExp(`/api/v1/tracks/${covered.id}/cover$`));
    await expectValidSubsonicXml(
      (await restCall(suite.server, 'getAlbumInfo2', { ...me.sign, id: song.albumId! })).text,
    );

    // a song without a cover, an unknown id, a malformed one: 70; no id: 10; a bad size: 0
    expect(await refusedCode(await me.client.getCoverArt({ id: plain.id }))).toBe(70);
    expect(await refusedCode(await me.client.getCoverArt({ id: crypto.randomUUID() }))).toBe(70);
    expect(await refusedCode(await me.client.getCoverArt({ id: 'not-an-id' }))).toBe(70);
    await expectXmlRefusal(me, 'getCoverArt', { id: plain.id }, 70);
    await expectXmlRefusal(me, 'getCoverArt', {}, 10);
    await expectXmlRefusal(me, 'getCoverArt', { id: covered.id, size: 'big' }, 0);
  });

  it('is 70 for a cover the listener may not see: another’s private track, a hidden one, a blocked creator’s', async () => {
    const [creator, blocked] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const [privateTrack, hidden, blockedTrack] = await Promise.all([
      coveredTrack(creator, { title: 'Private Cover', isPublic: false }),
      coveredTrack(creator, { title: 'Hidden Cover' }),
      coveredTrack(blocked, { title: 'Blocked Cover' }),
    ]);
    const moderator = await createModerator(suite.server);
    const hide = await suite.http.post(`/moderation/content/track/${hidden.id}/hide`, {
      token: moderator.accessToken,
      body: { note: 'Hidden for the test' },
    });
    expect(hide.status).toBe(200);
    const me = await listener();
    expect((await me.client.getCoverArt({ id: blockedTrack.id })).status).toBe(200);
    expect((await suite.http.post(`/users/${blocked.id}/block`, { token: me.user.accessToken })).status).toBe(200);

    for (const id of [privateTrack.id, hidden.id, blockedTrack.id]) {
      expect(await refusedCode(await me.client.getCoverArt({ id }))).toBe(70);
      await expectXmlRefusal(me, 'getCoverArt', { id }, 70);
    }
    // staff browse as anyone: the moderator's player does not show the hidden one either
    const staff = await listener(moderator);
    expect(await refusedCode(await staff.client.getCoverArt({ id: hidden.id }))).toBe(70);
    // the owner's library holds their own private and hidden tracks
    const owner = await listener(creator);
    for (const id of [privateTrack.id, hidden.id]) {
      expect((await owner.client.getCoverArt({ id, size: 32 })).status).toBe(200);
    }
  });
});

/** A 900×600 JPEG uploaded as the user's avatar (stored as squares of 512 and 128). */
async function setAvatar(user: TestUser) {
  const photo = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 20, g: 140, b: 200 } } })
    .jpeg()
    .toBuffer();
  expectStatus(await user.api.users.setAvatar({ body: { file: new File([new Uint8Array(photo)], 'me.jpg') } }), 200);
}

describe('getAvatar, and an artist’s cover art', () => {
  it('answers the avatar (sized when asked); an artist id’s cover art is their avatar', async () => {
    const creator = await createUser(suite.server);
    await setAvatar(creator);
    await createTrack(suite.server, creator, { title: 'Avatar Song' });
    const me = await listener();

    const avatar = await me.client.getAvatar({ username: creator.username });
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/jpeg');
    expect(await dimensions(avatar)).toEqual([512, 512]);
    expect(await dimensions(await me.client.getAvatar({ username: creator.username, size: 64 }))).toEqual([64, 64]);
    expect(await dimensions(await me.client.getAvatar({ username: creator.username, size: 128 }))).toEqual([128, 128]);

    // getArtist's artist id names the creator: their avatar is the artist's image
    expect(await dimensions(await me.client.getCoverArt({ id: creator.id }))).toEqual([512, 512]);
    expect(await dimensions(await me.client.getCoverArt({ id: creator.id, size: 100 }))).toEqual([100, 100]);
    // and getArtistInfo2 gives the JSON API's public avatar URLs
    const info = (await me.client.getArtistInfo2({ id: creator.id })).artistInfo2 as Json;
    expect(info.smallImageUrl).toMatch(new RegExp(`/api/v1/users/${creator.id}/avatar\\?size=128$`));
    expect(info.largeImageUrl).toMatch(new RegExp(`/api/v1/users/${creator.id}/avatar\\?size=512$`));

    // one's own avatar, too
    const own = await listener(creator);
    expect((await own.client.getAvatar({ username: creator.username })).status).toBe(200);
  });

  it('is 70 without an avatar, for nobody of that name, for a user blocked either way or banned', async () => {
    const [plain, blocker, blockedByMe, banned] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    await Promise.all([blocker, blockedByMe, banned].map((user) => setAvatar(user)));
    const me = await listener();
    expect((await me.client.getAvatar({ username: banned.username })).status).toBe(200);
    expect((await suite.http.post(`/users/${me.user.id}/block`, { token: blocker.accessToken })).status).toBe(200);
    expect((await suite.http.post(`/users/${blockedByMe.id}/block`, { token: me.user.accessToken })).status).toBe(200);
    const admin = await createAdmin(suite.server);
    expectStatus(await admin.api.sanctions.ban({ params: { id: banned.id }, body: { reason: 'Spam' } }), 201);

    for (const username of [
      plain.username,
      `nobody-${Date.now()}`,
      blocker.username,
      blockedByMe.username,
      banned.username,
    ]) {
      expect([username, await refusedCode(await me.client.getAvatar({ username }))]).toEqual([username, 70]);
    }
    await expectXmlRefusal(me, 'getAvatar', { username: blocker.username }, 70);
    await expectXmlRefusal(me, 'getAvatar', {}, 10);
  });
});

describe('getLyricsBySongId (OpenSubsonic songLyrics)', () => {
  const setLyrics = async (owner: TestUser, trackId: string, content: string) =>
    expect(
      (await suite.http.put(`/tracks/${trackId}/lyrics`, { token: owner.accessToken, body: { content } })).status,
    ).toBe(200);

  it('answers LRC as timed lines, plain text line by line, nothing as an empty list', async () => {
    const creator = await createUser(suite.server);
    const [timed, plain, none, secret] = await Promise.all([
      createTrack(suite.server, creator, { title: 'Timed Song' }),
      createTrack(suite.server, creator, { title: 'Plain Song' }),
      createTrack(suite.server, creator, { title: 'Silent Song' }),
      createTrack(suite.server, creator, { title: 'Secret Song', isPublic: false }),
    ]);
    await setLyrics(
      creator,
      timed.id,
      '[ar:Someone]\n[00:01.00]First line\n[00:02.50]Second line\n[01:00.25]Last line\n',
    );
    await setLyrics(creator, plain.id, 'Verse one\nVerse two\n\nChorus\n');
    await setLyrics(creator, secret.id, 'Hush');
    const me = await listener();

    const synced = (await me.client.getLyricsBySongId({ id: timed.id })).lyricsList as unknown as Json;
    expect(synced).toEqual({
      structuredLyrics: [
        {
          displayArtist: creator.username,
          displayTitle: 'Timed Song',
          lang: 'und',
          synced: true,
          line: [
            { start: 1000, value: 'First line' },
            { start: 2500, value: 'Second line' },
            { start: 60250, value: 'Last line' },
          ],
        },
      ],
    });
    const text = (await me.client.getLyricsBySongId({ id: plain.id })).lyricsList as unknown as Json;
    expect(text.structuredLyrics).toHaveLength(1);
    expect(text.structuredLyrics[0]).toMatchObject({ lang: 'und', synced: false, displayTitle: 'Plain Song' });
    expect(text.structuredLyrics[0].line).toEqual([
      { value: 'Verse one' },
      { value: 'Verse two' },
      { value: '' },
      { value: 'Chorus' },
    ]);
    expect((await me.client.getLyricsBySongId({ id: none.id })).lyricsList).toEqual({});

    for (const id of [timed.id, plain.id, none.id]) {
      await expectValidSubsonicXml((await restCall(suite.server, 'getLyricsBySongId', { ...me.sign, id })).text);
    }
    const xml = (await restCall(suite.server, 'getLyricsBySongId', { ...me.sign, id: timed.id })).text;
    expect(xml).toContain('<line start="2500">Second line</line>');

    // another's private song is not in the listener's library; the owner reads theirs
    await expectXmlRefusal(me, 'getLyricsBySongId', { id: secret.id }, 70);
    await expectXmlRefusal(me, 'getLyricsBySongId', {}, 10);
    const owner = await listener(creator);
    const own = (await owner.client.getLyricsBySongId({ id: secret.id })).lyricsList as unknown as Json;
    expect(own.structuredLyrics[0].line).toEqual([{ value: 'Hush' }]);
  });
});
