import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Track, UpdateTrackRequest } from '@riff/contract';
import { backdateReposts } from '../support/backdate.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { setPlayCount } from '../support/row-states.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createPlaylist } from '../playlists/playlist-helpers.js';
import { createProduct } from '../marketplace/product-helpers.js';

const suite = useTestServer();

/** A word no other test uses: letters only, long enough that one letter less is still a typo away. */
const uniqueWord = () => `qu${Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('')}`;
/** The word with its fifth letter left out. */
const typoOf = (word: string) => word.slice(0, 4) + word.slice(5);

const search = async (query: string, user?: TestUser) => {
  const reply = await suite.http.get(`/search?${query}`, user ? { token: user.token } : {});
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data as {
    query: string;
    results: {
      tracks: { id: string }[];
      users: { id: string }[];
      playlists: { id: string }[];
      products: { id: string }[];
    };
    totals: Record<'tracks' | 'users' | 'playlists' | 'products', number>;
  };
};
const got200 = <R extends { status: number; text: string }>(reply: R): R => {
  expect(reply.status, reply.text).toBe(200);
  return reply;
};
const ids = (items: { id: string }[]) => items.map((item) => item.id);

async function track(owner: TestUser, title: string, changes: UpdateTrackRequest = {}, seconds = 1): Promise<Track> {
  const created = await createTrack(suite.server, owner, { title, seconds });
  if (Object.keys(changes).length === 0) return created;
  return expectStatus(await owner.api.tracks.update({ params: { id: created.id }, body: changes }), 200).body.data
    .track;
}

describe('GET /search', () => {
  it('finds tracks, users, playlists and products by their words, with totals, ranked by relevance', async () => {
    const word = uniqueWord();
    const owner = await createUser(suite.server, { username: `${word}_dj` });
    const exact = await track(owner, word);
    const artist = await track(owner, 'Night drive', { artist: `${word} Orchestra` });
    const later = await track(owner, `Songs of ${word}`);
    const playlist = await createPlaylist(owner, { title: `${word} mix`, is_public: true });
    const product = await createProduct(owner, { title: `${word} drum kit` }, 'active');

    const found = await search(`q=${word}`);
    expect(found.query).toBe(word);
    // the title equal to q, then an artist starting with it, then a title holding it
    expect(ids(found.results.tracks)).toEqual([exact.id, artist.id, later.id]);
    expect(ids(found.results.users)).toEqual([owner.id]);
    expect(ids(found.results.playlists)).toEqual([playlist.id]);
    expect(ids(found.results.products)).toEqual([product.id]);
    expect(found.totals).toEqual({ tracks: 3, users: 1, playlists: 1, products: 1 });
    // each list holds what the API shows of it
    expect(found.results.tracks[0]).toMatchObject({ id: exact.id, title: word, creator_id: owner.id });

    // page and limit apply to each list; totals count every match
    const paged = await search(`q=${word}&limit=1&page=2`);
    expect(ids(paged.results.tracks)).toEqual([artist.id]);
    expect(paged.results.users).toEqual([]);
    expect(paged.totals.tracks).toBe(3);

    // type narrows; the other lists come back empty with total 0
    const onlyTracks = await search(`q=${word}&type=tracks,playlists`);
    expect(onlyTracks.results.tracks).toHaveLength(3);
    expect(onlyTracks.results.playlists).toHaveLength(1);
    expect(onlyTracks.results.users).toEqual([]);
    expect(onlyTracks.totals).toEqual({ tracks: 3, users: 0, playlists: 1, products: 0 });
  });

  it('tolerates a typo, ignores accents and case, and finds every word in any field', async () => {
    const word = uniqueWord();
    const owner = await createUser(suite.server);
    const accented = await track(owner, `Café Żubrówka ${word}`, { artist: 'Sigur Rós', album: 'Ágætis byrjun' });

    expect(ids((await search(`q=${typoOf(word)}`)).results.tracks)).toEqual([accented.id]);
    expect(
      ids((await search(`q=${encodeURIComponent(`CAFE zubrowka ${word.toUpperCase()}`)}`)).results.tracks),
    ).toEqual([accented.id]);
    expect(ids((await search(`q=${encodeURIComponent(`sigur ros agaetis ${word}`)}`)).results.tracks)).toEqual([
      accented.id,
    ]);
    // every word must match: one that matches nothing leaves the track out
    expect((await search(`q=${encodeURIComponent(`${word} xylophonezz`)}`)).results.tracks).toEqual([]);
    // web-search syntax: -word excludes
    expect((await search(`q=${encodeURIComponent(`"${word}" -sigur`)}`)).totals.tracks).toBe(0);
  });

  it('never shows private content of others, nor users blocked either way and what they own', async () => {
    const word = uniqueWord();
    const me = await createUser(suite.server);
    const other = await createUser(suite.server, { username: `${word}_other` });
    const hidden = await track(other, `${word} secret`, { is_public: false });
    const mine = await track(me, `${word} mine`, { is_public: false });
    const shown = await track(other, `${word} shown`);
    const privateList = await createPlaylist(other, { title: `${word} private` });

    const seen = await search(`q=${word}`, me);
    expect(ids(seen.results.tracks).sort()).toEqual([mine.id, shown.id].sort());
    expect(ids(seen.results.tracks)).not.toContain(hidden.id);
    expect(ids(seen.results.playlists)).not.toContain(privateList.id);
    expect(ids((await search(`q=${word}`)).results.tracks)).toEqual([shown.id]);

    // a track made private disappears at once
    expectStatus(await other.api.tracks.update({ params: { id: shown.id }, body: { is_public: false } }), 200);
    expect((await search(`q=${word}`, me)).results.tracks.map((t) => t.id)).toEqual([mine.id]);
    expectStatus(await other.api.tracks.update({ params: { id: shown.id }, body: { is_public: true } }), 200);

    // blocked by me: the user and their content are gone for me, not for others
    expectStatus(await me.api.users.block({ params: { id: other.id } }), 200);
    const blocked = await search(`q=${word}`, me);
    expect(ids(blocked.results.tracks)).toEqual([mine.id]);
    expect(blocked.results.users).toEqual([]);
    expect(ids((await search(`q=${word}`)).results.users)).toEqual([other.id]);
    // they blocked me: the same
    expectStatus(await me.api.users.unblock({ params: { id: other.id } }), 200);
    expectStatus(await other.api.users.block({ params: { id: me.id } }), 200);
    const blockedBy = await search(`q=${word}`, me);
    expect(ids(blockedBy.results.tracks)).toEqual([mine.id]);
    expect(blockedBy.results.users).toEqual([]);
  });

  it('refuses a missing or blank q, an unknown type and oversized paging with 400', async () => {
    for (const query of [
      '',
      'q=',
      'q=%20%20',
      'q=x&type=songs',
      'q=x&type=',
      'q=x&limit=101',
      'q=x&page=0',
      `q=${'x'.repeat(201)}`,
    ]) {
      const reply = await suite.http.get(`/search?${query}`);
      expect([reply.status, reply.body.error?.code], query).toEqual([400, 'VALIDATION_FAILED']);
    }
    // punctuation alone finds nothing rather than everything
    expect((await search('q=%25')).totals).toEqual({ tracks: 0, users: 0, playlists: 0, products: 0 });
  });

  it('a query of quotes or exclusions alone has no word to find: every search answers 200 with nothing', async () => {
    // punctuation in names: a query of it alone is no word either
    const user = await createUser(suite.server, { username: `dash-${Date.now().toString(36)}` });
    await createTrack(suite.server, user, { title: 'Not - minus & one' });
    for (const q of ['"', '""', '-1', '-word -other', '" -x "', 'or', '-', '&', '- -', '"-"', '-&']) {
      const encoded = encodeURIComponent(q);
      expect((await search(`q=${encoded}`, user)).totals, q).toEqual({
        tracks: 0,
        users: 0,
        playlists: 0,
        products: 0,
      });
      for (const path of ['/tracks/search', '/users/search', '/playlists/search', '/marketplace/products']) {
        const reply = await suite.http.get(`${path}?q=${encoded}`, { token: user.token });
        expect([reply.status, path, q]).toEqual([200, path, q]);
      }
    }
  });
});

describe('GET /tracks/search', () => {
  it('filters by genre, tempo, key and duration, and sorts by relevance, newest or popular', async () => {
    const word = uniqueWord();
    const owner = await createUser(suite.server);
    const slow = await track(owner, `${word} slow`, { genre: 'Ambient', bpm: 70, musical_key: 'Am' }, 2);
    const fast = await track(owner, `${word} fast`, { genres: ['techno'], bpm: 140, musical_key: 'C#m' }, 1);
    const plain = await track(owner, word, { bpm: 120 }, 1);
    const page = async (query: string) => {
      const reply = got200(await suite.http.get(`/tracks/search?${query}`));
      return (reply.body.data.tracks as Track[]).map((t) => t.id);
    };

    // relevance: the title equal to q first
    const relevant = await page(`q=${word}`);
    expect(relevant[0]).toBe(plain.id);
    expect(relevant.slice(1).sort()).toEqual([fast.id, slow.id].sort());
    expect(await page(`q=${word}&genre=ambient`)).toEqual([slow.id]);
    expect(await page(`q=${word}&genre=TECHNO`)).toEqual([fast.id]);
    expect(await page(`q=${word}&bpm_min=100&bpm_max=130`)).toEqual([plain.id]);
    expect(await page(`q=${word}&musical_key=c%23m`)).toEqual([fast.id]);
    expect(await page(`q=${word}&duration_min=1.5`)).toEqual([slow.id]);
    expect(await page(`q=${word}&duration_max=1.5&sort=newest`)).toEqual([plain.id, fast.id]);
    // without q, filters alone (newest first)
    expect(await page(`bpm_min=139&bpm_max=141&genre=techno`)).toContain(fast.id);

    // popular: by play count
    await setPlayCount(suite.server, slow.id, 50);
    expect((await page(`q=${word}&sort=popular`))[0]).toBe(slow.id);

    const refused = await suite.http.get('/tracks/search?bpm_min=130&bpm_max=120');
    expect([refused.status, refused.body.error.code, refused.body.error.details[0].field]).toEqual([
      400,
      'VALIDATION_FAILED',
      'bpm_min',
    ]);
    expect((await suite.http.get('/tracks/search?duration_min=9&duration_max=3')).status).toBe(400);
    expect((await suite.http.get('/tracks/search?sort=loudest')).status).toBe(400);
    expect((await suite.http.get('/tracks/search?bpm_max=301')).status).toBe(400);
  });
});

describe('GET /search/suggestions', () => {
  it('suggests public track titles, artists, usernames and playlist titles starting with q, the closest first', async () => {
    const word = uniqueWord();
    const owner = await createUser(suite.server, { username: `${word}_maker` });
    const titled = await track(owner, `${word} Théme`);
    const byArtist = await track(owner, 'Untitled', { artist: `${word.toUpperCase()}` });
    const alsoByArtist = await track(owner, 'Another', { artist: word.toUpperCase() });
    await track(owner, `${word} hidden`, { is_public: false });
    const playlist = await createPlaylist(owner, { title: `${word} for the road`, is_public: true });
    await createPlaylist(owner, { title: `${word} private list` });

    const reply = got200(await suite.http.get(`/search/suggestions?q=${word.slice(0, 6).toUpperCase()}`));
    const suggestions = reply.body.data.suggestions as { type: string; id: string; text: string }[];
    // the artist once (it equals the typed word least far), then the shortest
    expect(suggestions.map((s) => [s.type, s.text])).toEqual([
      ['artist', word.toUpperCase()],
      ['track', `${word} Théme`],
      ['user', `${word}_maker`],
      ['playlist', `${word} for the road`],
    ]);
    expect([byArtist.id, alsoByArtist.id]).toContain(suggestions.find((s) => s.type === 'artist')!.id);
    expect(suggestions.find((s) => s.type === 'track')!.id).toBe(titled.id);
    expect(suggestions.find((s) => s.type === 'user')!.id).toBe(owner.id);
    expect(suggestions.find((s) => s.type === 'playlist')!.id).toBe(playlist.id);

    // accents ignored in what is typed; an exact match ranks first
    const exact = got200(await suite.http.get(`/search/suggestions?q=${encodeURIComponent(`${word} thé`)}`));
    expect(exact.body.data.suggestions.map((s: { id: string }) => s.id)).toEqual([titled.id]);
    const limited = got200(await suite.http.get(`/search/suggestions?q=${word}&limit=2`));
    expect(limited.body.data.suggestions).toHaveLength(2);

    for (const query of ['', 'q=', `q=${'a'.repeat(101)}`, 'q=a&limit=11', 'q=a&limit=0']) {
      expect((await suite.http.get(`/search/suggestions?${query}`)).status, query).toBe(400);
    }
  });
});

describe('GET /social/trending', () => {
  const trending = async (query = '', user?: TestUser) => {
    const reply = got200(
      await suite.http.get(`/social/trending${query ? `?${query}` : ''}`, user ? { token: user.token } : {}),
    );
    return reply.body.data.tracks as { track: Track; score: number }[];
  };
  const play = (user: TestUser, id: string) =>
    suite.http.post(`/tracks/${id}/play`, { token: user.token, body: { duration_listened: 40 } });

  it('ranks public tracks by plays, likes, reposts and comments of the period, halved every third of it', async () => {
    const genre = uniqueWord();
    const owner = await createUser(suite.server);
    const fans = await Promise.all([0, 1, 2].map(() => createUser(suite.server)));
    const liked = await track(owner, 'Liked', { genre });
    const played = await track(owner, 'Played', { genre });
    const reposted = await track(owner, 'Reposted', { genre });
    const commented = await track(owner, 'Commented', { genre });
    const old = await track(owner, 'Old news', { genre });
    const secret = await track(owner, 'Private', { genre, is_public: false });
    await track(owner, 'Quiet', { genre });

    for (const fan of fans.slice(0, 2))
      expect((await suite.http.post(`/tracks/${liked.id}/like`, { token: fan.token })).status).toBe(200);
    for (const fan of fans) expect((await play(fan, played.id)).status).toBe(200);
    expect((await suite.http.post(`/tracks/${reposted.id}/repost`, { token: fans[1]!.token })).status).toBe(200);
    expect(
      (
        await suite.http.post(`/tracks/${commented.id}/comments`, {
          token: fans[2]!.token,
          body: { content: 'Lovely' },
        })
      ).status,
    ).toBe(201);
    expect((await suite.http.post(`/tracks/${secret.id}/like`, { token: owner.token })).status).toBe(200);
    // three reposts five days ago: 12 at the time, less than a quarter of it now over 7 days (half-life 56 h)
    for (const fan of fans)
      expect((await suite.http.post(`/tracks/${old.id}/repost`, { token: fan.token })).status).toBe(200);
    await backdateReposts(suite.server, old.id, 5);

    const week = await trending(`genre=${genre.toUpperCase()}`);
    // likes 2 × 3, repost 4, plays 3 × 1, the old reposts 12 × 0.5^(120/56) ≈ 2.72, comment 2 (each a little less for the seconds since)
    expect(week.map((entry) => entry.track.title)).toEqual(['Liked', 'Reposted', 'Played', 'Old news', 'Commented']);
    const score = (title: string) => week.find((entry) => entry.track.title === title)!.score;
    expect(score('Reposted')).toBeCloseTo(4, 1);
    expect(score('Liked')).toBeCloseTo(6, 1);
    expect(score('Played')).toBeCloseTo(3, 1);
    expect(score('Commented')).toBeCloseTo(2, 1);
    expect(score('Old news')).toBeCloseTo(12 * 0.5 ** (120 / 56), 1);
    expect(week[0]!.track).toMatchObject({ id: liked.id, is_public: true });

    // 24 hours: the old reposts are out of the period
    expect((await trending(`genre=${genre}&period=24h`)).map((entry) => entry.track.title)).not.toContain('Old news');
    expect((await trending(`genre=${genre}&limit=2`)).map((entry) => entry.track.title)).toEqual(['Liked', 'Reposted']);

    // a fan who blocked the owner sees none of it
    expectStatus(await fans[0]!.api.users.block({ params: { id: owner.id } }), 200);
    expect(await trending(`genre=${genre}`, fans[0])).toEqual([]);

    for (const query of ['period=1y', 'limit=0', 'limit=51'])
      expect((await suite.http.get(`/social/trending?${query}`)).status, query).toBe(400);
  });
});
