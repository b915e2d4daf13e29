import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { createModerator } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';
import { restCall, signedInPlayer } from '../support/subsonic.js';
import { expectValidSubsonicXml } from '../support/subsonic-xsd.js';

// The catalogue as a Subsonic player browses it (getArtists → getArtist → getAlbum → getSong, the
// folder-style getIndexes and getMusicDirectory, getGenres), through the real client subsonic-api:
// artists are creators, albums their album tags (a track without one a single), and the caller sees
// exactly what Riff lets them see: public tracks and their own private ones, nothing hidden by
// moderation, nothing of a user they blocked. Every XML reply validates against the XSD.
// A database of its own on PostgreSQL: the album lists' order (the newest first) is the whole library's,
// which other files' uploads at the same time would change.
const suite = useTestServer({}, {}, { ownDatabase: true });

type Json = Record<string, any>;

const listener = (user?: TestUser) => signedInPlayer(suite.server, user);

const track = (owner: TestUser, title: string, album?: string, extra: { isPublic?: boolean; genre?: string } = {}) =>
  createTrack(suite.server, owner, {
    title,
    ...(extra.isPublic !== undefined ? { isPublic: extra.isPublic } : {}),
    tags: { title, ...(album ? { album } : {}), ...(extra.genre ? { genre: extra.genre } : {}), year: 2024 },
  });

/** Two creators, two albums and a single, a private and a hidden track, a creator the listener blocked. */
async function world() {
  // genres of this world alone (the server is shared by the file's tests)
  const tag = Math.random().toString(36).slice(2, 8);
  const synthwave = `Synthwave ${tag}`;
  const ambient = `Ambient ${tag}`;
  const creator = await createUser(suite.server);
  const other = await createUser(suite.server);
  const blocked = await createUser(suite.server);
  const night1 = await track(creator, 'Night One', 'Night Drive', { genre: synthwave });
  // the same album, tagged with other spacing and case
  const night2 = await track(creator, 'Night Two', '  night   DRIVE ', { genre: synthwave });
  const privateTrack = await track(creator, 'Night Secret', 'Night Drive', { isPublic: false });
  const dawn = await track(creator, 'Dawn Chorus', 'Dawn', { genre: ambient });
  const hidden = await track(creator, 'Dawn Hidden', 'Dawn', { genre: ambient });
  const single = await track(creator, 'Lone Single');
  const farAway = `Far Away ${tag}`;
  const otherTrack = await track(other, 'Elsewhere', farAway, { genre: ambient });
  const blockedTrack = await track(blocked, 'Blocked Song', 'Nope');
  const moderator = await createModerator(suite.server);
  const hide = await suite.http.post(`/moderation/content/track/${hidden.id}/hide`, {
    token: moderator.accessToken,
    body: { note: 'Hidden for the test' },
  });
  expect(hide.status).toBe(200);
  const me = await listener();
  expect((await suite.http.post(`/users/${blocked.id}/block`, { token: me.user.accessToken })).status).toBe(200);
  return {
    tag,
    farAway,
    synthwave,
    ambient,
    creator,
    other,
    blocked,
    me,
    night1,
    night2,
    privateTrack,
    dawn,
    hidden,
    single,
    otherTrack,
    blockedTrack,
  };
}

const titles = (songs: Json[] | undefined) => (songs ?? []).map((song) => song.title);

describe('browsing the catalogue (subsonic-api)', () => {
  it('artist → album → song shows what the caller may see, with stable album ids', async () => {
    const w = await world();
    const { client } = w.me;

    const artists = (await client.getArtists()).artists as Json;
    expect(artists.ignoredArticles).toBe('The El La Los Las Le Les');
    const listed = (artists.index as Json[]).flatMap((index) => index.artist as Json[]);
    const ids = listed.map((artist) => artist.id);
    expect(ids).toContain(w.creator.id);
    expect(ids).toContain(w.other.id);
    expect(ids).not.toContain(w.blocked.id);
    const creatorEntry = listed.find((artist) => artist.id === w.creator.id)!;
    expect(creatorEntry).toEqual({ id: w.creator.id, name: w.creator.username, albumCount: 3 });
    const letter = (artists.index as Json[]).find((index) => (index.artist as Json[]).includes(creatorEntry))!;
    expect(letter.name).toBe(w.creator.username[0]!.toUpperCase());

    const artist = (await client.getArtist({ id: w.creator.id })).artist as Json;
    expect(artist).toMatchObject({ id: w.creator.id, name: w.creator.username, albumCount: 3 });
    const albums = artist.album as Json[];
    expect(albums.map((album) => [album.name, album.songCount])).toEqual([
      ['Night Drive', 2],
      ['Dawn', 1],
      ['Lone Single', 1],
    ]);
    for (const album of albums) {
      expect(album).toMatchObject({ artist: w.creator.username, artistId: w.creator.id, coverArt: album.id });
      expect(album.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    // the same ids on the next call
    const again = ((await client.getArtist({ id: w.creator.id })).artist as Json).album as Json[];
    expect(again.map((album) => album.id)).toEqual(albums.map((album) => album.id));

    const night = (await client.getAlbum({ id: albums[0]!.id })).album as Json;
    expect(titles(night.song)).toEqual(['Night One', 'Night Two']);
    expect(night).toMatchObject({ name: 'Night Drive', songCount: 2, year: 2024, genre: w.synthwave });
    const first = (night.song as Json[])[0]!;
    expect(first).toMatchObject({
      id: w.night1.id,
      parent: night.id,
      isDir: false,
      title: 'Night One',
      album: 'Night Drive',
      artist: w.creator.username,
      track: 1,
      year: 2024,
      genre: w.synthwave,
      coverArt: w.night1.id,
      size: w.night1.file_size,
      contentType: 'audio/mpeg',
      suffix: 'mp3',
      duration: w.night1.duration,
      albumId: night.id,
      artistId: w.creator.id,
      type: 'music',
      mediaType: 'song',
      genres: [{ name: w.synthwave }],
    });
    expect(night.genres).toEqual([{ name: w.synthwave }]);
    // play counts are the owner's; the caller has not liked it
    expect(first.playCount).toBeUndefined();
    expect(first.starred).toBeUndefined();
    expect(titles(((await client.getAlbum({ id: albums[1]!.id })).album as Json).song)).toEqual(['Dawn Chorus']);
    expect(titles(((await client.getAlbum({ id: albums[2]!.id })).album as Json).song)).toEqual(['Lone Single']);

    const song = (await client.getSong({ id: w.night2.id })).song as Json;
    expect(song).toMatchObject({ id: w.night2.id, albumId: night.id, album: 'Night Drive' });
    // a like shows as starred
    expect((await suite.http.post(`/tracks/${w.night2.id}/like`, { token: w.me.user.accessToken })).status).toBe(200);
    const starred = ((await client.getSong({ id: w.night2.id })).song as Json).starred;
    expect(starred).toBeDefined();
    expect(Math.abs(new Date(starred).getTime() - Date.now())).toBeLessThan(60_000);

    // what the caller may not see is not found (70)
    for (const id of [w.privateTrack.id, w.hidden.id, w.blockedTrack.id, 'not-an-id']) {
      expect(await client.getSong({ id })).toMatchObject({ status: 'failed', error: { code: 70 } });
    }
    expect(await client.getArtist({ id: w.blocked.id })).toMatchObject({ status: 'failed', error: { code: 70 } });
    expect(await client.getAlbum({ id: w.creator.id })).toMatchObject({ status: 'failed', error: { code: 70 } });
  });

  it('the owner sees their private and hidden tracks, with play counts; the blocked user sees nothing of the blocker', async () => {
    const w = await world();
    const owner = await listener(w.creator);
    const albums = ((await owner.client.getArtist({ id: w.creator.id })).artist as Json).album as Json[];
    expect(albums.map((album) => [album.name, album.songCount])).toEqual([
      ['Night Drive', 3],
      ['Dawn', 2],
      ['Lone Single', 1],
    ]);
    const night = (await owner.client.getAlbum({ id: albums[0]!.id })).album as Json;
    expect(titles(night.song)).toEqual(['Night One', 'Night Two', 'Night Secret']);
    expect((night.song as Json[])[0]!.playCount).toBe(0);

    // the album's id is the one others see, though they see fewer of its songs
    const others = ((await w.me.client.getArtist({ id: w.creator.id })).artist as Json).album as Json[];
    expect(others[0]!.id).toBe(albums[0]!.id);

    const blockedPlayer = await listener(w.blocked);
    const seen = ((await blockedPlayer.client.getArtists()).artists as Json).index as Json[];
    expect(seen.flatMap((index) => (index.artist as Json[]).map((artist) => artist.id))).not.toContain(w.me.user.id);
    expect(await w.me.client.getSong({ id: w.blockedTrack.id })).toMatchObject({ error: { code: 70 } });
  });

  it('a banned creator is gone from the catalogue; staff browse it as any listener', async () => {
    const w = await world();
    const admin = await createAdmin(suite.server);
    const ban = await suite.http.post(`/admin/users/${w.other.id}/ban`, {
      token: admin.accessToken,
      body: { reason: 'spam' },
    });
    expect(ban.status).toBe(201);
    const artists = ((await w.me.client.getArtists()).artists as Json).index as Json[];
    expect(artists.flatMap((index) => (index.artist as Json[]).map((artist) => artist.id))).not.toContain(w.other.id);
    expect(await w.me.client.getSong({ id: w.otherTrack.id })).toMatchObject({ error: { code: 70 } });
    expect(await w.me.client.getArtist({ id: w.other.id })).toMatchObject({ error: { code: 70 } });

    // the admin sees neither the creator's private track nor the hidden one in a player
    const staff = await listener(admin);
    const albums = ((await staff.client.getArtist({ id: w.creator.id })).artist as Json).album as Json[];
    expect(albums.map((album) => [album.name, album.songCount])).toEqual([
      ['Night Drive', 2],
      ['Dawn', 1],
      ['Lone Single', 1],
    ]);
    expect(await staff.client.getSong({ id: w.privateTrack.id })).toMatchObject({ error: { code: 70 } });
  });

  it('folders (getIndexes, getMusicDirectory) and genres', async () => {
    const w = await world();
    const { client } = w.me;
    const indexes = (await client.getIndexes()).indexes as Json;
    expect(indexes.lastModified).toBeGreaterThan(0);
    const artists = (indexes.index as Json[]).flatMap((index) => index.artist as Json[]);
    expect(artists).toContainEqual({ id: w.creator.id, name: w.creator.username });
    expect(artists.map((artist) => artist.id)).not.toContain(w.blocked.id);
    // nothing changed since the app's copy: it keeps it (a time after every change: the media jobs of
    // other tests' tracks may still touch them meanwhile)
    const unchanged = (await client.getIndexes({ ifModifiedSince: Date.now() + 60_000 })).indexes as Json;
    expect(unchanged.lastModified).toBeGreaterThanOrEqual(indexes.lastModified);
    expect(unchanged.index).toBeUndefined();

    const artistDir = (await client.getMusicDirectory({ id: w.creator.id })).directory as Json;
    expect(artistDir.name).toBe(w.creator.username);
    const children = artistDir.child as Json[];
    expect(children.map((child) => [child.title, child.isDir])).toEqual([
      ['Night Drive', true],
      ['Dawn', true],
      ['Lone Single', true],
    ]);
    const albumDir = (await client.getMusicDirectory({ id: children[0]!.id })).directory as Json;
    expect(albumDir).toMatchObject({ id: children[0]!.id, parent: w.creator.id, name: 'Night Drive' });
    expect(titles(albumDir.child)).toEqual(['Night One', 'Night Two']);
    expect(await client.getMusicDirectory({ id: w.privateTrack.id })).toMatchObject({ error: { code: 70 } });

    const genres = ((await client.getGenres()).genres as Json).genre as Json[];
    // the hidden Ambient track counts for nobody but its owner
    expect(genres.find((genre) => genre.value === w.ambient)).toEqual({
      songCount: 2,
      albumCount: 2,
      value: w.ambient,
    });
    expect(genres.find((genre) => genre.value === w.synthwave)).toEqual({
      songCount: 2,
      albumCount: 1,
      value: w.synthwave,
    });
  });

  it('album lists (getAlbumList2): newest, by name, by artist, by genre, by year, starred, random; size and offset', async () => {
    const w = await world();
    const { client } = w.me;
    const list = async (args: Record<string, unknown>) =>
      ((await client.getAlbumList2(args as never)).albumList2 as Json).album as Json[] | undefined;
    // this world's albums are the newest (the blocked user's left out)
    expect((await list({ type: 'newest', size: 4 }))!.map((album) => album.name)).toEqual([
      w.farAway,
      'Lone Single',
      'Dawn',
      'Night Drive',
    ]);
    expect((await list({ type: 'newest', size: 2, offset: 1 }))!.map((album) => album.name)).toEqual([
      'Lone Single',
      'Dawn',
    ]);
    expect((await list({ type: 'byGenre', genre: w.ambient.toUpperCase() }))!.map((album) => album.name)).toEqual([
      'Dawn',
      w.farAway,
    ]);
    const mine = (albums: Json[] | undefined) =>
      (albums ?? []).filter((album) => album.artistId === w.creator.id).map((album) => album.name);
    expect(mine(await list({ type: 'alphabeticalByName', size: 500 }))).toEqual(['Dawn', 'Lone Single', 'Night Drive']);
    expect(mine(await list({ type: 'byYear', fromYear: 2024, toYear: 2024, size: 500 }))).toHaveLength(3);
    expect(mine(await list({ type: 'byYear', fromYear: 1990, toYear: 2000, size: 500 }))).toEqual([]);
    expect(mine(await list({ type: 'random', size: 500 })).sort()).toEqual(['Dawn', 'Lone Single', 'Night Drive']);
    expect((await list({ type: 'starred' })) ?? []).toEqual([]);
    expect((await suite.http.post(`/tracks/${w.dawn.id}/like`, { token: w.me.user.accessToken })).status).toBe(200);
    expect((await list({ type: 'starred' }))!.map((album) => album.name)).toEqual(['Dawn']);
    const byArtist = (await list({ type: 'alphabeticalByArtist', size: 500 }))!;
    expect(byArtist.map((album) => album.artistId)).not.toContain(w.blocked.id);
    // bad input is error 0 or 10, never a 500
    expect(await client.getAlbumList2({ type: 'nonsense' } as never)).toMatchObject({ error: { code: 0 } });
    expect(await client.getAlbumList2({ type: 'newest', size: 501 })).toMatchObject({ error: { code: 0 } });
    expect(await client.getAlbumList2({ type: 'byGenre' } as never)).toMatchObject({ error: { code: 10 } });
    const xml = await restCall(suite.server, 'getAlbumList2', { ...w.me.sign, type: 'newest', size: '3' });
    await expectValidSubsonicXml(xml.text);
  });

  it('search3: artists, albums and songs by query; an empty query pages through everything', async () => {
    const w = await world();
    const { client } = w.me;
    const search = async (args: Record<string, unknown>) => (await client.search3(args as never)).searchResult3 as Json;
    const found = await search({ query: 'night', songCount: 500 });
    const mine = (items: Json[] | undefined, key = 'artistId') =>
      (items ?? []).filter((item) => item[key] === w.creator.id);
    expect(
      mine(found.song)
        .map((song) => song.title)
        .sort(),
    ).toEqual(['Night One', 'Night Two']);
    // (the database may hold many a Night Drive of other tests: this world's own album name is unique)
    expect(
      ((await search({ query: w.tag.toUpperCase(), albumCount: 5 })).album as Json[]).map((album) => album.name),
    ).toEqual([w.farAway]);
    const byName = await search({ query: w.creator.username.toUpperCase() });
    expect((byName.artist as Json[]).map((artist) => artist.id)).toEqual([w.creator.id]);
    // (other tests' worlds hold tracks of these titles too: this world's are the ones that must not show)
    const ids = (songs: Json[] | undefined) => (songs ?? []).map((song) => song.id);
    expect(ids((await search({ query: 'Blocked Song', songCount: 500 })).song)).not.toContain(w.blockedTrack.id);
    expect(ids((await search({ query: 'Dawn Hidden', songCount: 500 })).song)).not.toContain(w.hidden.id);
    expect(ids((await search({ query: 'Night Secret', songCount: 500 })).song)).not.toContain(w.privateTrack.id);

    // everything, two songs at a time: each once, in the order published, none the caller may not see
    const seen: string[] = [];
    for (let offset = 0; ; offset += 2) {
      const page = await search({ query: '', songCount: 2, songOffset: offset, artistCount: 0, albumCount: 0 });
      expect(page.artist ?? []).toEqual([]);
      const songs = (page.song ?? []) as Json[];
      seen.push(...songs.map((song) => song.id));
      if (songs.length < 2) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining([w.night1.id, w.night2.id, w.dawn.id, w.single.id, w.otherTrack.id]));
    for (const id of [w.privateTrack.id, w.hidden.id, w.blockedTrack.id]) expect(seen).not.toContain(id);
    expect(seen.indexOf(w.night1.id)).toBeLessThan(seen.indexOf(w.otherTrack.id));
    const everything = await search({ query: '""', artistCount: 500, albumCount: 500, songCount: 0 });
    expect((everything.artist as Json[]).map((artist) => artist.id)).toEqual(
      expect.arrayContaining([w.creator.id, w.other.id]),
    );
    expect(
      mine(everything.album)
        .map((album) => album.name)
        .sort(),
    ).toEqual(['Dawn', 'Lone Single', 'Night Drive']);
    expect(everything.song ?? []).toEqual([]);
    expect(await client.search3({ query: '', songCount: 501 })).toMatchObject({ error: { code: 0 } });
    const xml = await restCall(suite.server, 'search3', { ...w.me.sign, query: 'night' });
    await expectValidSubsonicXml(xml.text);
  });

  it('every browsing reply is valid XML against the XSD as OpenSubsonic extends it', async () => {
    const w = await world();
    const albums = ((await w.me.client.getArtist({ id: w.creator.id })).artist as Json).album as Json[];
    const calls: [string, Record<string, string>][] = [
      ['getArtists', {}],
      ['getIndexes', {}],
      ['getArtist', { id: w.creator.id }],
      ['getAlbum', { id: albums[0]!.id }],
      ['getSong', { id: w.night1.id }],
      ['getMusicDirectory', { id: w.creator.id }],
      ['getMusicDirectory', { id: albums[0]!.id }],
      ['getGenres', {}],
      ['getSong', { id: w.hidden.id }],
    ];
    for (const [name, params] of calls) {
      const reply = await restCall(suite.server, name, { ...w.me.sign, ...params });
      expect(reply.status).toBe(200);
      await expectValidSubsonicXml(reply.text);
    }
    const album = await restCall(suite.server, 'getAlbum', { ...w.me.sign, id: albums[0]!.id });
    expect(album.text).toContain(`<genres name="${w.synthwave}"/><song `);
    const genres = await restCall(suite.server, 'getGenres', w.me.sign);
    expect(genres.text).toContain(`<genre songCount="2" albumCount="1">${w.synthwave}</genre>`);
  });
});
