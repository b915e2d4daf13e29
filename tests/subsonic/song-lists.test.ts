import { describe, expect, it } from 'vitest';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { createModerator } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';
import { restCall, signedInPlayer } from '../support/subsonic.js';
import { expectValidSubsonicXml } from '../support/subsonic-xsd.js';

// Song lists through the Subsonic interface, driven by the subsonic-api client: getRandomSongs (genre
// and years), getSongsByGenre (paged), getTopSongs (by plays), getSimilarSongs2 and getArtistInfo2
// (the social area's recommendations). Only songs of the caller's library: nothing private of
// another, hidden by moderation, or of a user blocked either way. Every XML reply validates.
const suite = useTestServer();

type Json = Record<string, any>;

const listener = (user?: TestUser) => signedInPlayer(suite.server, user);

/** A genre of one test alone (the server is shared by the file's tests). */
const uniqueGenre = (name: string) => `${name} ${Math.random().toString(36).slice(2, 8)}`;

const track = (
  owner: TestUser,
  title: string,
  tags: { genre?: string; year?: number; album?: string },
  isPublic = true,
) => createTrack(suite.server, owner, { title, isPublic, tags: { title, ...tags } });

const ids = (songs: Json[] | undefined) => (songs ?? []).map((song) => song.id as string);
const sorted = (values: string[]) => [...values].sort();

async function expectValidXml(method: string, params: Record<string, string>) {
  const reply = await restCall(suite.server, method, params);
  expect(reply.text).toContain('status="ok"');
  await expectValidSubsonicXml(reply.text);
  return reply.text;
}

describe('getRandomSongs', () => {
  it('picks among the library’s songs of the genre and years asked, never one the caller may not see', async () => {
    const genre = uniqueGenre('Krautrock');
    const [creator, blocked, blocker] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const [old, middle, recent] = await Promise.all([
      track(creator, 'Old', { genre, year: 2001 }),
      track(creator, 'Middle', { genre, year: 2010 }),
      track(creator, 'Recent', { genre, year: 2020 }),
    ]);
    const [privateTrack, hidden, blockedTrack, blockerTrack] = await Promise.all([
      track(creator, 'Private', { genre, year: 2010 }, false),
      track(creator, 'Hidden', { genre, year: 2010 }),
      track(blocked, 'Blocked', { genre, year: 2010 }),
      track(blocker, 'Blocker', { genre, year: 2010 }),
      track(creator, 'Other genre', { genre: uniqueGenre('Polka'), year: 2010 }),
    ]);
    const moderator = await createModerator(suite.server);
    expect(
      (
        await suite.http.post(`/moderation/content/track/${hidden.id}/hide`, {
          token: moderator.accessToken,
          body: { note: 'Hidden for the test' },
        })
      ).status,
    ).toBe(200);
    const me = await listener();
    expect((await suite.http.post(`/users/${blocked.id}/block`, { token: me.user.accessToken })).status).toBe(200);
    expect((await suite.http.post(`/users/${me.user.id}/block`, { token: blocker.accessToken })).status).toBe(200);

    const visible = sorted([old.id, middle.id, recent.id]);
    for (let round = 0; round < 3; round++) {
      const { randomSongs } = await me.client.getRandomSongs({ genre, size: 500 });
      expect(sorted(ids(randomSongs.song as Json[]))).toEqual(visible);
    }
    // the genre in any case; a size under the library's: that many, of those
    expect(
      sorted(ids((await me.client.getRandomSongs({ genre: genre.toUpperCase() })).randomSongs.song as Json[])),
    ).toEqual(visible);
    const two = ids((await me.client.getRandomSongs({ genre, size: 2 })).randomSongs.song as Json[]);
    expect(two).toHaveLength(2);
    expect(new Set(two).size).toBe(2);
    for (const id of two) expect(visible).toContain(id);
    // years: both included, a range written backwards the same
    expect(
      ids((await me.client.getRandomSongs({ genre, fromYear: 2005, toYear: 2015 })).randomSongs.song as Json[]),
    ).toEqual([middle.id]);
    expect(
      ids((await me.client.getRandomSongs({ genre, fromYear: 2015, toYear: 2005 })).randomSongs.song as Json[]),
    ).toEqual([middle.id]);
    expect(sorted(ids((await me.client.getRandomSongs({ genre, fromYear: 2010 })).randomSongs.song as Json[]))).toEqual(
      sorted([middle.id, recent.id]),
    );
    expect(sorted(ids((await me.client.getRandomSongs({ genre, toYear: 2010 })).randomSongs.song as Json[]))).toEqual(
      sorted([old.id, middle.id]),
    );
    // without a genre, the caller's whole library: none of the others' ever
    const anything = ids((await me.client.getRandomSongs({ size: 500 })).randomSongs.song as Json[]);
    for (const id of [privateTrack.id, hidden.id, blockedTrack.id, blockerTrack.id]) expect(anything).not.toContain(id);
    // a few of the whole library (drawn by index probes, not by reading it): distinct, never the others'
    const invisible = [privateTrack.id, hidden.id, blockedTrack.id, blockerTrack.id];
    const seen = new Set<string>();
    for (let round = 0; round < 20; round++) {
      const few = ids((await me.client.getRandomSongs({ size: 2 })).randomSongs.song as Json[]);
      expect(few).toHaveLength(2);
      expect(new Set(few).size).toBe(2);
      for (const id of few) expect(invisible).not.toContain(id);
      for (const id of few) seen.add(id);
    }
    // not always the same two
    expect(seen.size).toBeGreaterThan(2);
    // the owner's library holds their private and hidden songs (and the others', whom they did not block)
    const owner = await listener(creator);
    expect(sorted(ids((await owner.client.getRandomSongs({ genre, size: 500 })).randomSongs.song as Json[]))).toEqual(
      sorted([...visible, privateTrack.id, hidden.id, blockedTrack.id, blockerTrack.id]),
    );

    const xml = await expectValidXml('getRandomSongs', { ...me.sign, genre, size: '10' });
    expect(xml).toContain(`id="${middle.id}"`);
    await expectValidXml('getRandomSongs', { ...me.sign, genre: uniqueGenre('Nothing') });
    const refused = await restCall(suite.server, 'getRandomSongs', { ...me.sign, fromYear: 'soon' });
    expect(refused.text).toContain('<error code="0"');
    await expectValidSubsonicXml(refused.text);
  });
});

describe('getSongsByGenre', () => {
  it('pages through the genre’s songs in the order published', async () => {
    const genre = uniqueGenre('Dub');
    const creator = await createUser(suite.server);
    const first = await track(creator, 'Dub One', { genre });
    const second = await track(creator, 'Dub Two', { genre: `  ${genre.toLowerCase()} ` });
    const third = await track(creator, 'Dub Three', { genre });
    await track(creator, 'Dub Private', { genre }, false);
    const me = await listener();

    const page1 = (await me.client.getSongsByGenre({ genre, count: 2 })).songsByGenre.song as Json[];
    const page2 = (await me.client.getSongsByGenre({ genre, count: 2, offset: 2 })).songsByGenre.song as Json[];
    expect(ids(page1)).toEqual([first.id, second.id]);
    expect(ids(page2)).toEqual([third.id]);
    expect(page1[0]).toMatchObject({ title: 'Dub One', artist: creator.username, artistId: creator.id, genre });
    expect(ids((await me.client.getSongsByGenre({ genre, offset: 3 })).songsByGenre.song as Json[])).toEqual([]);

    await expectValidXml('getSongsByGenre', { ...me.sign, genre, count: '2' });
    const missing = await restCall(suite.server, 'getSongsByGenre', me.sign);
    expect(missing.text).toContain('<error code="10"');
    await expectValidSubsonicXml(missing.text);
  });
});

describe('getTopSongs', () => {
  it('lists the artist’s songs most played first; an unknown or invisible artist has none', async () => {
    const creator = await createUser(suite.server);
    const [once, thrice, twice, never] = await Promise.all([
      track(creator, 'Played Once', {}),
      track(creator, 'Played Thrice', {}),
      track(creator, 'Played Twice', {}),
      track(creator, 'Never Played', {}),
    ]);
    const fans = await Promise.all([createUser(suite.server), createUser(suite.server), createUser(suite.server)]);
    const plays: [TestUser, string][] = [
      [fans[0]!, thrice.id],
      [fans[1]!, thrice.id],
      [fans[2]!, thrice.id],
      [fans[0]!, twice.id],
      [fans[1]!, twice.id],
      [fans[0]!, once.id],
    ];
    for (const [fan, id] of plays) {
      const reply = await suite.http.post(`/tracks/${id}/play`, {
        token: fan.accessToken,
        body: { duration_listened: 60 },
      });
      expect(reply.status).toBe(200);
      expect(reply.body.data.counted).toBe(true);
    }
    const me = await listener();

    const top = (await me.client.getTopSongs({ artist: creator.username })).topSongs.song as Json[];
    expect(ids(top)).toEqual([thrice.id, twice.id, once.id, never.id]);
    expect(ids((await me.client.getTopSongs({ artist: creator.username, count: 2 })).topSongs.song as Json[])).toEqual([
      thrice.id,
      twice.id,
    ]);
    expect(ids((await me.client.getTopSongs({ artist: `nobody-${Date.now()}` })).topSongs.song as Json[])).toEqual([]);
    // a creator who blocked the caller is nobody to them
    expect((await suite.http.post(`/users/${me.user.id}/block`, { token: creator.accessToken })).status).toBe(200);
    expect(ids((await me.client.getTopSongs({ artist: creator.username })).topSongs.song as Json[])).toEqual([]);

    const other = await listener();
    await expectValidXml('getTopSongs', { ...other.sign, artist: creator.username });
  });
});

describe('getSimilarSongs2 and getArtistInfo2', () => {
  it('find songs like the artist’s and the artists who made them; the biography is the creator’s bio', async () => {
    const genre = uniqueGenre('Shoegaze');
    const [artist, alike, unlike] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    expect(
      (await suite.http.put(`/users/${artist.id}`, { token: artist.accessToken, body: { bio: 'Walls of guitar.' } }))
        .status,
    ).toBe(200);
    const own = await track(artist, 'Own Song', { genre });
    const similar = await track(alike, 'Alike Song', { genre });
    const different = await track(unlike, 'Unlike Song', { genre: uniqueGenre('Gabber') });
    const me = await listener();

    const songs = (await me.client.getSimilarSongs2({ id: artist.id })).similarSongs2.song as Json[];
    expect(ids(songs)).toContain(similar.id);
    expect(ids(songs)).not.toContain(different.id);
    // the artist's own songs follow the similar ones
    expect(ids(songs).indexOf(similar.id)).toBeLessThan(ids(songs).indexOf(own.id));
    expect(ids((await me.client.getSimilarSongs2({ id: artist.id, count: 1 })).similarSongs2.song as Json[])).toEqual([
      similar.id,
    ]);

    const info = (await me.client.getArtistInfo2({ id: artist.id })).artistInfo2 as Json;
    expect(info.biography).toBe('Walls of guitar.');
    expect(info.smallImageUrl).toBeUndefined();
    expect(info.similarArtist).toEqual([{ id: alike.id, name: alike.username, albumCount: 1 }]);
    expect(
      ((await me.client.getArtistInfo2({ id: artist.id, count: 0 })).artistInfo2 as Json).similarArtist,
    ).toBeUndefined();

    const xml = await expectValidXml('getArtistInfo2', { ...me.sign, id: artist.id });
    expect(xml).toContain('<biography>Walls of guitar.</biography>');
    expect(xml).toContain(`<similarArtist id="${alike.id}"`);
    await expectValidXml('getSimilarSongs2', { ...me.sign, id: artist.id });
    await expectValidXml('getAlbumInfo2', { ...me.sign, id: own.id });

    // a blocked artist, or an id that names nobody, is not found
    expect((await suite.http.post(`/users/${alike.id}/block`, { token: me.user.accessToken })).status).toBe(200);
    expect(ids((await me.client.getSimilarSongs2({ id: artist.id })).similarSongs2.song as Json[])).not.toContain(
      similar.id,
    );
    for (const [method, id] of [
      ['getSimilarSongs2', alike.id],
      ['getArtistInfo2', alike.id],
      ['getArtistInfo2', crypto.randomUUID()],
      ['getAlbumInfo2', 'nope'],
    ] as const) {
      const refused = await restCall(suite.server, method, { ...me.sign, id });
      expect([method, refused.text]).toEqual([method, expect.stringContaining('<error code="70"')]);
      await expectValidSubsonicXml(refused.text);
    }
  });
});
