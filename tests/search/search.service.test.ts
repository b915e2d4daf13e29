import { randomInt } from 'node:crypto';
import type { TrackSearchQuery } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { anonymousActor, type Actor } from '../../server/src/platform/access/actor.js';
import { refusal } from '../support/refusal.js';
import {
  serviceBlocks,
  servicePlaylist,
  serviceProduct,
  serviceTaggedTrack,
  serviceTrack,
  serviceUser,
} from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of search, called on the services with an Actor: what each kind of result shows to whom
// (private tracks, blocks either way, products off sale), how words match (typos, accents, every
// word) and how pages are cut. search.test.ts holds the routes and the replies to the contract (the
// query limits among them, which the schemas decide).
const suite = useServices();

/** A word no other test uses: letters only, long enough that one letter less is still a typo away. */
const uniqueWord = () => `qu${Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('')}`;
/** The word with its fifth letter left out. */
const typoOf = (word: string) => word.slice(0, 4) + word.slice(5);
const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

/** GET /search as `actor` asks it: every kind unless `type` narrows it. */
function search(actor: Actor, q: string, options: { page?: number; limit?: number; type?: string } = {}) {
  return suite.areas.search.services.search.search(actor, {
    q,
    page: options.page ?? 1,
    limit: options.limit ?? 20,
    ...(options.type !== undefined ? { type: options.type } : {}),
  });
}

/** The ids of the tracks GET /tracks/search finds for `actor`. */
async function tracksFound(actor: Actor, query: Partial<TrackSearchQuery>) {
  const found = await suite.areas.tracks.searcher.searchTracks(actor, {
    sort: 'relevance',
    page: 1,
    limit: 20,
    ...query,
  });
  return ids(found.tracks);
}

/** The suggestions GET /search/suggestions makes for `actor`, as [type, id]. */
async function suggested(actor: Actor, q: string) {
  const { suggestions } = await suite.areas.search.services.search.suggestions(actor, { q, limit: 10 });
  return suggestions.map((suggestion) => [suggestion.type, suggestion.id]);
}

/** A user named after the word, with a public track, a public playlist and a product on sale named after it too. */
async function userWithEverything(word: string) {
  const user = await serviceUser(suite, { username: `${word}_maker` });
  const track = await serviceTrack(suite, user, { title: `${word} anthem`, seconds: 1 });
  const playlist = await servicePlaylist(suite, user, { title: `${word} mix`, isPublic: true });
  const product = await serviceProduct(suite, user, { title: `${word} drum kit` });
  return { user, track, playlist, product };
}

describe('who finds what (service)', () => {
  it('a private track is found by its owner and admins only, and counts in no one else’s total', async () => {
    const word = uniqueWord();
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const hidden = await serviceTrack(suite, owner, { title: `${word} demo`, isPublic: false, seconds: 1 });
    const shown = await serviceTrack(suite, owner, { title: `${word} release`, seconds: 1 });
    const mine = await search(owner, word);
    expect(ids(mine.results.tracks).sort()).toEqual([hidden.id, shown.id].sort());
    expect(mine.totals.tracks).toBe(2);
    expect(ids((await search(admin, word)).results.tracks).sort()).toEqual([hidden.id, shown.id].sort());
    for (const viewer of [other, anonymousActor()]) {
      const theirs = await search(viewer, word);
      expect(ids(theirs.results.tracks)).toEqual([shown.id]);
      expect(theirs.totals.tracks).toBe(1);
      expect(await tracksFound(viewer, { q: word })).toEqual([shown.id]);
    }
    expect((await tracksFound(owner, { q: word })).sort()).toEqual([hidden.id, shown.id].sort());
  });

  it('a track made private leaves others’ results at once, and comes back when made public again', async () => {
    const { tracks } = suite.areas.tracks.services;
    const word = uniqueWord();
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const track = await serviceTrack(suite, owner, { title: `${word} single`, seconds: 1 });
    expect(ids((await search(other, word)).results.tracks)).toEqual([track.id]);
    await tracks.update(owner, track.id, { is_public: false });
    expect((await search(other, word)).totals.tracks).toBe(0);
    expect(await suggested(other, word)).toEqual([]);
    expect(ids((await search(owner, word)).results.tracks)).toEqual([track.id]);
    await tracks.update(owner, track.id, { is_public: true });
    expect(ids((await search(other, word)).results.tracks)).toEqual([track.id]);
  });

  it('nothing of a user I blocked: not them, their tracks, playlists or products, nor suggestions; others still find them', async () => {
    const word = uniqueWord();
    const me = await serviceUser(suite);
    const bystander = await serviceUser(suite);
    const { user, track, playlist, product } = await userWithEverything(word);
    const everything = {
      tracks: [track.id],
      users: [user.id],
      playlists: [playlist.id],
      products: [product.id],
    };
    const found = async (actor: Actor) => {
      const { results } = await search(actor, word);
      return {
        tracks: ids(results.tracks),
        users: ids(results.users),
        playlists: ids(results.playlists),
        products: ids(results.products),
      };
    };
    expect(await found(me)).toEqual(everything);
    await serviceBlocks(suite, me, [user]);
    const blocked = await search(me, word);
    expect(blocked.totals).toEqual({ tracks: 0, users: 0, playlists: 0, products: 0 });
    expect(await tracksFound(me, { q: word })).toEqual([]);
    expect(await suggested(me, word)).toEqual([]);
    expect(await found(bystander)).toEqual(everything);
    expect(await found(anonymousActor())).toEqual(everything);
  });

  it('nothing of a user who blocked me either, while I still see my own', async () => {
    const word = uniqueWord();
    const me = await serviceUser(suite);
    const mine = await serviceTrack(suite, me, { title: `${word} mine`, seconds: 1 });
    const { user } = await userWithEverything(word);
    expect((await search(me, word)).totals).toEqual({ tracks: 2, users: 1, playlists: 1, products: 1 });
    await serviceBlocks(suite, user, [me]);
    const seen = await search(me, word);
    expect(ids(seen.results.tracks)).toEqual([mine.id]);
    expect(seen.totals).toEqual({ tracks: 1, users: 0, playlists: 0, products: 0 });
    expect(await suggested(me, word)).toEqual([['track', mine.id]]);
  });

  it('products are found on sale only, the seller’s own drafts and archived ones neither', async () => {
    const { products } = suite.areas.marketplace.services;
    const word = uniqueWord();
    const seller = await serviceUser(suite);
    const onSale = await serviceProduct(suite, seller, { title: `${word} on sale` });
    await products.create(seller, { title: `${word} draft`, price: 1, product_type: 'pack' });
    const archived = await serviceProduct(suite, seller, { title: `${word} archived` });
    await products.update(seller, archived.id, { status: 'archived' });
    for (const viewer of [seller, anonymousActor()]) {
      const found = await search(viewer, word, { type: 'products' });
      expect(ids(found.results.products)).toEqual([onSale.id]);
      expect(found.totals.products).toBe(1);
    }
  });

  it('suggestions name public tracks and playlists only, never private ones, even to their owner', async () => {
    const word = uniqueWord();
    const owner = await serviceUser(suite, { username: `${word}_owner` });
    const track = await serviceTrack(suite, owner, { title: `${word} public`, seconds: 1 });
    await serviceTrack(suite, owner, { title: `${word} private`, isPublic: false, seconds: 1 });
    const playlist = await servicePlaylist(suite, owner, { title: `${word} shared`, isPublic: true });
    await servicePlaylist(suite, owner, { title: `${word} own list` });
    const names = (await suggested(owner, word)).sort();
    expect(names).toEqual(
      [
        ['track', track.id],
        ['user', owner.id],
        ['playlist', playlist.id],
      ].sort(),
    );
  });
});

describe('how words match (service)', () => {
  it('tolerates a typo, ignores accents and case, and needs every word in some field', async () => {
    const word = uniqueWord();
    const owner = await serviceUser(suite);
    const track = await serviceTaggedTrack(suite, owner, {
      title: `Café Żubrówka ${word}`,
      artist: 'Sigur Rós',
      album: 'Ágætis byrjun',
      seconds: 1,
    });
    expect(await tracksFound(owner, { q: typoOf(word) })).toEqual([track.id]);
    expect(await tracksFound(owner, { q: `CAFE zubrowka ${word.toUpperCase()}` })).toEqual([track.id]);
    expect(await tracksFound(owner, { q: `sigur ros agaetis ${word}` })).toEqual([track.id]);
    expect(await tracksFound(owner, { q: `${word} xylophonezz` })).toEqual([]);
    expect(ids((await search(anonymousActor(), `${word} -sigur`)).results.tracks)).toEqual([]);
  });

  it('typos are tolerated only when nothing matches exactly: an exact match is not joined by its near misses', async () => {
    const word = uniqueWord();
    const owner = await serviceUser(suite);
    const exact = await serviceTrack(suite, owner, { title: word, seconds: 1 });
    const near = await serviceTrack(suite, owner, { title: typoOf(word), seconds: 1 });
    expect(ids((await search(owner, word)).results.tracks)).toEqual([exact.id]);
    expect(ids((await search(owner, typoOf(word))).results.tracks)).toEqual([near.id]);
  });

  it('ranks the title equal to the words first, then an artist starting with them, then a title holding them', async () => {
    const word = uniqueWord();
    const owner = await serviceUser(suite);
    const holding = await serviceTrack(suite, owner, { title: `Songs of ${word}`, seconds: 1 });
    const byArtist = await serviceTaggedTrack(suite, owner, {
      title: 'Night drive',
      artist: `${word} Orchestra`,
      seconds: 1,
    });
    const equal = await serviceTrack(suite, owner, { title: word, seconds: 1 });
    expect(ids((await search(owner, word)).results.tracks)).toEqual([equal.id, byArtist.id, holding.id]);
  });
});

describe('pages and filters (service)', () => {
  it('page and limit cut each kind; totals count every match; a page past the end is empty with its total', async () => {
    const word = uniqueWord();
    const owner = await serviceUser(suite, { username: `${word}_pager` });
    const first = await serviceTrack(suite, owner, { title: word, seconds: 1 });
    const second = await serviceTrack(suite, owner, { title: `${word} two`, seconds: 1 });
    const third = await serviceTrack(suite, owner, { title: `${word} two three`, seconds: 1 });
    const ranked = ids((await search(owner, word)).results.tracks);
    expect([...ranked].sort()).toEqual([first.id, second.id, third.id].sort());
    const pages = await Promise.all([1, 2, 3].map((page) => search(owner, word, { page, limit: 1 })));
    // the pages cut the one ranking, the title equal to the word first
    expect(pages.map((found) => ids(found.results.tracks))).toEqual(ranked.map((id) => [id]));
    expect(ids(pages[0]!.results.tracks)).toEqual([first.id]);
    expect(pages.map((found) => found.totals.tracks)).toEqual([3, 3, 3]);
    // one user matches: on page 2 the users' list is empty, its total kept
    expect(pages[1]!.results.users).toEqual([]);
    expect(pages[1]!.totals.users).toBe(1);
    const past = await search(owner, word, { page: 9, limit: 2 });
    expect([past.results.tracks, past.totals.tracks]).toEqual([[], 3]);
    const tracks = await suite.areas.tracks.searcher.searchTracks(owner, {
      q: word,
      sort: 'relevance',
      page: 2,
      limit: 2,
    });
    expect(tracks.tracks).toHaveLength(1);
    expect(ids(tracks.tracks)).toEqual(ids(pages[2]!.results.tracks));
    expect(tracks.pagination).toEqual({ page: 2, limit: 2, total: 3, total_pages: 2 });
  });

  it('type narrows the kinds searched: the others come back empty with total 0; the words come back with spaces collapsed', async () => {
    const word = uniqueWord();
    const { track, playlist } = await userWithEverything(word);
    const found = await search(anonymousActor(), word, { type: 'tracks,playlists' });
    expect([ids(found.results.tracks), ids(found.results.playlists)]).toEqual([[track.id], [playlist.id]]);
    expect([found.results.users, found.results.products]).toEqual([[], []]);
    expect(found.totals).toEqual({ tracks: 1, users: 0, playlists: 1, products: 0 });
    const spaced = await search(anonymousActor(), `${word} \t  anthem`, { type: 'tracks' });
    expect(spaced.query).toBe(`${word} anthem`);
    expect(ids(spaced.results.tracks)).toEqual([track.id]);
  });

  it('track search filters by tempo and duration; a minimum above its maximum is refused on the minimum', async () => {
    const word = uniqueWord();
    const owner = await serviceUser(suite);
    const slow = await serviceTaggedTrack(suite, owner, {
      title: `${word} slow`,
      bpm: 70,
      genre: 'Ambient',
      seconds: 2,
    });
    const fast = await serviceTaggedTrack(suite, owner, { title: `${word} fast`, bpm: 140, seconds: 1 });
    expect(await tracksFound(owner, { q: word, bpm_min: 100, bpm_max: 150 })).toEqual([fast.id]);
    expect(await tracksFound(owner, { q: word, duration_min: 1.5 })).toEqual([slow.id]);
    expect(await tracksFound(owner, { q: word, genre: 'AMBIENT' })).toEqual([slow.id]);
    expect(await refusal(tracksFound(owner, { bpm_min: 130, bpm_max: 120 }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: ['bpm_min'],
    });
    expect(await refusal(tracksFound(owner, { duration_min: 9, duration_max: 3 }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: ['duration_min'],
    });
  });
});
