import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Playlist } from '@riff/contract';
import { createUser, type TestUser } from '../support/factories.js';
import { setPlaylistFigures } from '../support/row-states.js';
import { seedEntries, seedNamedTracks } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createPlaylist, errorOf } from './playlist-helpers.js';

const suite = useTestServer();

/** A word no other playlist holds (the PostgreSQL database is shared by every test file). */
const uniqueWord = () => `zq${randomBytes(5).toString('hex')}`;

async function search(user: TestUser, q: string, page = 1, limit = 20) {
  return expectStatus(await user.api.playlists.search({ query: { q, page, limit } }), 200).body.data;
}

const setFigures = (id: string, figures: { follower_count?: number; is_editorial?: boolean }) =>
  setPlaylistFigures(suite.server, id, figures);

/** Every recommendation for the user, page after page (other test files' playlists are in the shared database too). */
async function allRecommendations(user: TestUser): Promise<Playlist[]> {
  const found: Playlist[] = [];
  for (let page = 1; ; page += 1) {
    const data = expectStatus(await user.api.playlists.recommendations({ query: { page, limit: 100 } }), 200).body.data;
    found.push(...data.playlists);
    if (page >= data.pagination.total_pages) return found;
  }
}

const idsAmong = (playlists: Playlist[], ids: string[]) =>
  playlists.map((playlist) => playlist.id).filter((id) => ids.includes(id));

describe('playlists: search', () => {
  it('finds public playlists and the caller’s own by title or description, best match first', async () => {
    const me = await createUser(suite.server);
    const other = await createUser(suite.server);
    const word = uniqueWord();
    const exact = await createPlaylist(other, { title: word.toUpperCase(), is_public: true });
    const prefix = await createPlaylist(other, { title: `${word} nights`, is_public: true });
    const contains = await createPlaylist(other, { title: `Summer ${word}`, is_public: true });
    const mine = await createPlaylist(me, { title: `My ${word} mix` });
    const described = await createPlaylist(other, {
      title: 'Plain',
      description: `songs for ${word} lovers`,
      is_public: true,
    });
    await createPlaylist(other, { title: word, description: 'hidden from others' });
    await setFigures(contains.id, { follower_count: 5 });

    const found = await search(me, word);
    expect(found.playlists.map((playlist) => playlist.id)).toEqual([
      exact.id,
      prefix.id,
      contains.id,
      mine.id,
      described.id,
    ]);
    expect(found.pagination).toEqual({ page: 1, limit: 20, total: 5, total_pages: 1 });
    // lists carry no tracks
    expect(
      found.playlists.every((playlist) => playlist.tracks === undefined && playlist.collaborators === undefined),
    ).toBe(true);
    expect(found.playlists[3]).toMatchObject({ id: mine.id, user_id: me.id, is_public: false, track_count: 0 });

    // every word must appear; a title holding all of them ranks before a description, words next to each other before words apart
    const scattered = await createPlaylist(other, { title: `nights of ${word}`, is_public: true });
    const half = await createPlaylist(other, { title: `${word} mornings`, description: 'and nights', is_public: true });
    expect((await search(me, `nights ${word}`)).playlists.map((playlist) => playlist.id)).toEqual([
      prefix.id,
      scattered.id,
      half.id,
    ]);
    expect((await search(me, `${word} nights`)).playlists.map((playlist) => playlist.id)).toEqual([
      prefix.id,
      scattered.id,
      half.id,
    ]);

    // pages
    const second = await search(me, word, 2, 2);
    expect(second.pagination).toEqual({ page: 2, limit: 2, total: 7, total_pages: 4 });
    expect(second.playlists).toHaveLength(2);
  });

  it('ignores case and accents; % and _ are never wildcards, and punctuation separates words', async () => {
    const me = await createUser(suite.server);
    const word = uniqueWord();
    const accented = await createPlaylist(me, { title: `Été à Reykjavík ${word}` });
    const percent = await createPlaylist(me, { title: `100% ${word}` });
    const thousand = await createPlaylist(me, { title: `1000 ${word}` });
    const underscore = await createPlaylist(me, { title: `a_b ${word}` });
    await createPlaylist(me, { title: `axb ${word}` });
    expect((await search(me, `ETE REYKJAVIK ${word}`)).playlists.map((playlist) => playlist.id)).toEqual([accented.id]);
    expect((await search(me, `été ${word.toUpperCase()}`)).playlists.map((playlist) => playlist.id)).toEqual([
      accented.id,
    ]);
    // a typo still finds
    expect((await search(me, `reykavik ${word}`)).playlists.map((playlist) => playlist.id)).toEqual([accented.id]);
    // "100%" is found as written; 1000 is only a typo away from 100, so it comes when nothing matches as written
    expect((await search(me, `100% ${word}`)).playlists.map((playlist) => playlist.id)).toEqual([percent.id]);
    expect((await search(me, `1001 ${word}`)).playlists.map((playlist) => playlist.id)).toContain(thousand.id);
    expect((await search(me, `a_b ${word}`)).playlists.map((playlist) => playlist.id)).toEqual([underscore.id]);
  });

  it('needs q (400) and a signed-in caller (401)', async () => {
    const me = await createUser(suite.server);
    expect(errorOf(await suite.http.get('/playlists/search', { token: me.token }))).toEqual([400, 'VALIDATION_FAILED']);
    expect(errorOf(await suite.http.get('/playlists/search?q=%20%20', { token: me.token }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect(errorOf(await suite.http.get('/playlists/search?q=x&limit=101', { token: me.token }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect((await suite.http.get('/playlists/search?q=x', {})).status).toBe(401);
  });
});

describe('playlists: recommendations', () => {
  it('ranks public playlists of others by overlap with the caller’s likes and plays, then followers, editorial first among equals', async () => {
    const me = await createUser(suite.server);
    const curator = await createUser(suite.server);
    const [liked1, liked2, played, unrelated] = await seedNamedTracks(suite.server, curator.id, [
      { title: 'Liked one' },
      { title: 'Liked two' },
      { title: 'Played' },
      { title: 'Unrelated' },
    ]);
    for (const id of [liked1!, liked2!]) expectStatus(await me.api.social.like({ params: { id } }), 200);
    expect(
      expectStatus(
        await me.api.social.play({ params: { id: played! }, query: {}, body: { duration_listened: 120 } }),
        200,
      ).body.data.counted,
    ).toBe(true);

    const make = async (trackIds: string[], figures: { follower_count?: number; is_editorial?: boolean } = {}) => {
      const playlist = await createPlaylist(curator, { title: 'Rec', is_public: true });
      await seedEntries(suite.server, playlist.id, trackIds, curator.id);
      await setFigures(playlist.id, figures);
      return playlist.id;
    };
    const three = await make([liked1!, unrelated!, liked2!, played!]);
    const two = await make([played!, liked2!], { follower_count: 1 });
    const oneMoreFollowers = await make([liked1!, unrelated!], { follower_count: 9 });
    const oneEditorial = await make([liked2!], { follower_count: 3, is_editorial: true });
    const onePlain = await make([played!], { follower_count: 3 });
    const none = await make([unrelated!], { follower_count: 50 });

    const found = await allRecommendations(me);
    const ids = [three, two, oneMoreFollowers, oneEditorial, onePlain, none];
    expect(idsAmong(found, ids)).toEqual(ids);
    // the ones with overlap come before every playlist without any
    expect(found.slice(0, 5).map((playlist) => playlist.id)).toEqual(ids.slice(0, 5));
    expect(found.every((playlist) => playlist.tracks === undefined)).toBe(true);
  });

  it('leaves out the caller’s own, followed, private and empty playlists, and those of users blocked either way', async () => {
    const me = await createUser(suite.server);
    const friend = await createUser(suite.server);
    const blockedByMe = await createUser(suite.server);
    const blockingMe = await createUser(suite.server);
    const [liked] = await seedNamedTracks(suite.server, friend.id, [{ title: 'Shared favourite' }]);
    expectStatus(await me.api.social.like({ params: { id: liked! } }), 200);
    const withTrack = async (owner: TestUser, isPublic = true) => {
      const playlist = await createPlaylist(owner, { title: 'Everything', is_public: isPublic });
      await seedEntries(suite.server, playlist.id, [liked!], owner.id);
      return playlist.id;
    };
    const shown = await withTrack(friend);
    const followed = await withTrack(friend);
    const own = await withTrack(me);
    const hidden = await withTrack(friend, false);
    const empty = (await createPlaylist(friend, { title: 'Nothing yet', is_public: true })).id;
    const ofBlocked = await withTrack(blockedByMe);
    const ofBlocker = await withTrack(blockingMe);
    expect((await suite.http.post(`/playlists/${followed}/follow`, { token: me.token })).status).toBe(200);
    expect((await suite.http.post(`/users/${blockedByMe.id}/block`, { token: me.token })).status).toBe(200);
    expect((await suite.http.post(`/users/${me.id}/block`, { token: blockingMe.token })).status).toBe(200);

    const found = await allRecommendations(me);
    expect(idsAmong(found, [shown, followed, own, hidden, empty, ofBlocked, ofBlocker])).toEqual([shown]);
    expect(found[0]!.id).toBe(shown);
    // unfollowing brings it back
    expect((await suite.http.delete(`/playlists/${followed}/follow`, { token: me.token })).status).toBe(200);
    expect(idsAmong(await allRecommendations(me), [shown, followed])).toHaveLength(2);
  });

  it('gives a new user the popular public playlists, most followed first, editorial first among equals', async () => {
    const curator = await createUser(suite.server);
    const [track] = await seedNamedTracks(suite.server, curator.id, [{ title: 'Anything' }]);
    const popular = async (followers: number, editorial = false) => {
      const playlist = await createPlaylist(curator, { title: 'Popular', is_public: true });
      await seedEntries(suite.server, playlist.id, [track!], curator.id);
      await setFigures(playlist.id, { follower_count: followers, is_editorial: editorial });
      return playlist.id;
    };
    const top = 2_000_000_000 - Math.floor(Math.random() * 1_000_000);
    const most = await popular(top);
    const plain = await popular(top - 1);
    const editorial = await popular(top - 1, true);
    const newcomer = await createUser(suite.server);
    const first = expectStatus(await newcomer.api.playlists.recommendations({ query: {} }), 200).body.data;
    expect(first.pagination).toMatchObject({ page: 1, limit: 20 });
    expect(first.pagination.total).toBeGreaterThanOrEqual(3);
    const page = expectStatus(await newcomer.api.playlists.recommendations({ query: { limit: 100 } }), 200).body.data;
    const counts = page.playlists.map((playlist) => playlist.follower_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(idsAmong(page.playlists, [most, plain, editorial])).toEqual([most, editorial, plain]);
    expect((await suite.http.get('/playlists/recommendations', {})).status).toBe(401);
    expect(errorOf(await suite.http.get('/playlists/recommendations?limit=0', { token: newcomer.token }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
  });
});
