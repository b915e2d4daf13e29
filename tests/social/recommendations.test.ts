import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { createTrack, createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus, typedApi } from '../support/typed-api.js';
import { describeTrack } from './social-support.js';

// trending is made here by many anonymous listeners, all on this machine's one address: lift the per-address bound
const suite = useTestServer({ ANONYMOUS_PLAYS_PER_ADDRESS: '100' });
// genres and tags of this run only: the PostgreSQL pass shares its database with other test files
const slug = (name: string) => `${name}-${randomBytes(4).toString('hex')}`;

describe('recommendations for a track', () => {
  it('scores shared genres, tags, bpm within 8, compatible keys and co-likes; never itself, private or blocked tracks', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const viewer = await createUser(suite.server);
    const genre = slug('synthwave');
    const tag = slug('night');
    const source = await describeTrack(owner, await createTrack(suite.server, owner, { title: 'Source' }), {
      genres: [genre],
      tags: [tag],
      bpm: 120,
      musical_key: 'Am',
    });
    // genre 3 + tag 2 + bpm 2 + key (C major is A minor's relative) 2 = 9
    const best = await describeTrack(other, await createTrack(suite.server, other, { title: 'Best' }), {
      genres: [genre],
      tags: [tag],
      bpm: 124,
      musical_key: 'C',
    });
    // genre 3 + key (E minor: a fifth up) 2 = 5
    const genreAndKey = await describeTrack(other, await createTrack(suite.server, other, { title: 'Genre and key' }), {
      genres: [genre],
      bpm: 60,
      musical_key: 'Em',
    });
    // genre 3 = 3; bpm 129 is 9 away
    const genreOnly = await describeTrack(other, await createTrack(suite.server, other, { title: 'Genre only' }), {
      genres: [genre],
      bpm: 129,
      musical_key: 'F#',
    });
    // tag 2 + co-like 1 = 3: ties with genreOnly, and newer, so before it
    const coLiked = await describeTrack(other, await createTrack(suite.server, other, { title: 'Co-liked' }), {
      tags: [tag],
    });
    await describeTrack(other, await createTrack(suite.server, other, { title: 'Private', isPublic: false }), {
      genres: [genre],
      tags: [tag],
    });
    const blocker = await createUser(suite.server);
    await describeTrack(blocker, await createTrack(suite.server, blocker, { title: 'Blocked' }), {
      genres: [genre],
      tags: [tag],
    });
    expectStatus(await blocker.api.users.block({ params: { id: viewer.id } }), 200);
    for (const track of [source, coLiked])
      expectStatus(await viewer.api.social.like({ params: { id: track.id } }), 200);

    const titles = (tracks: { title: string }[]) => tracks.map((track) => track.title);
    const seen = expectStatus(await viewer.api.social.recommendationsFor({ params: { id: source.id }, query: {} }), 200)
      .body.data.tracks;
    expect(titles(seen)).toEqual(['Best', 'Genre and key', 'Co-liked', 'Genre only']);
    expect(titles(seen).slice(0, 2)).toEqual(['Best', 'Genre and key']);
    expect(titles(seen)).toEqual(expect.arrayContaining(['Genre only', 'Co-liked']));
    expect(titles(seen)).not.toContain('Source');
    expect(titles(seen)).not.toContain('Private');
    expect(titles(seen)).not.toContain('Blocked');
    expect(seen[0]).not.toHaveProperty('play_count');
    // anonymous callers do get the blocker's track (nobody is blocked)
    expect(
      titles(
        expectStatus(await suite.api.social.recommendationsFor({ params: { id: source.id }, query: {} }), 200).body.data
          .tracks,
      ),
    ).toContain('Blocked');
    expect(
      titles(
        expectStatus(
          await viewer.api.social.recommendationsFor({ params: { id: source.id }, query: { limit: 1 } }),
          200,
        ).body.data.tracks,
      ),
    ).toEqual(['Best']);
    expect([best.id, genreAndKey.id, genreOnly.id]).toHaveLength(3);
    expectStatus(await viewer.api.social.recommendationsFor({ params: { id: source.id }, query: { limit: 21 } }), 400);
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    expectStatus(await viewer.api.social.recommendationsFor({ params: { id: hidden.id }, query: {} }), 404);
  });
});

describe('recommendations for the caller', () => {
  it('a new user gets trending tracks: recent counted plays and likes', async () => {
    const artist = await createUser(suite.server);
    const hot = await createTrack(suite.server, artist, { title: 'Hot' });
    const warm = await createTrack(suite.server, artist, { title: 'Warm' });
    for (let i = 0; i < 14; i++)
      expectStatus(
        await typedApi(suite.server, { headers: { 'user-agent': `trend-hot-${i}` } }).social.play({
          params: { id: hot.id },
          body: { duration_listened: 40 },
        }),
        200,
      );
    for (let i = 0; i < 12; i++)
      expectStatus(
        await typedApi(suite.server, { headers: { 'user-agent': `trend-warm-${i}` } }).social.play({
          params: { id: warm.id },
          body: { duration_listened: 40 },
        }),
        200,
      );
    const newcomer = await createUser(suite.server);
    const tracks = expectStatus(await newcomer.api.social.recommendations({ query: {} }), 200).body.data.tracks;
    expect(tracks.filter((track) => track.id === hot.id || track.id === warm.id).map((track) => track.title)).toEqual([
      'Hot',
      'Warm',
    ]);
    expectStatus(await suite.api.social.recommendations({ query: {} }), 401);
  });

  it('from likes, plays and follows; never what I already liked, my own tracks, private or blocked ones', async () => {
    const me = await createUser(suite.server);
    const artist = await createUser(suite.server);
    const followed = await createUser(suite.server);
    const blocked = await createUser(suite.server);
    const genre = slug('darkwave');
    const liked = await describeTrack(artist, await createTrack(suite.server, artist, { title: 'Liked' }), {
      genres: [genre],
    });
    const sameGenre = await describeTrack(artist, await createTrack(suite.server, artist, { title: 'Same genre' }), {
      genres: [genre],
    });
    await describeTrack(artist, await createTrack(suite.server, artist, { title: 'Private', isPublic: false }), {
      genres: [genre],
    });
    await describeTrack(blocked, await createTrack(suite.server, blocked, { title: 'Blocked' }), { genres: [genre] });
    await describeTrack(me, await createTrack(suite.server, me, { title: 'Mine' }), { genres: [genre] });
    const byFollowed = await createTrack(suite.server, followed, { title: 'By followed' });
    expectStatus(await me.api.social.like({ params: { id: liked.id } }), 200);
    expectStatus(await me.api.users.follow({ params: { id: followed.id } }), 200);
    expectStatus(await me.api.users.block({ params: { id: blocked.id } }), 200);

    const titles = expectStatus(await me.api.social.recommendations({ query: {} }), 200).body.data.tracks.map(
      (track) => track.title,
    );
    // genre shared with a liked track 3 + co-like none = 3 < follows 4
    expect(titles.slice(0, 2)).toEqual(['By followed', 'Same genre']);
    for (const excluded of ['Liked', 'Private', 'Blocked', 'Mine']) expect(titles).not.toContain(excluded);
    expect([sameGenre.id, byFollowed.id]).toHaveLength(2);
  });
});

describe('suggested tags', () => {
  it('genres, title and album words, and tags of similar tracks, not on the track yet, at most 10', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const genre = slug('lofi');
    const chill = slug('chill');
    const beats = slug('beats');
    const track = await describeTrack(owner, await createTrack(suite.server, owner, { title: 'Midnight Rain Study' }), {
      genres: [genre],
      tags: ['rain'],
      album: 'The Quiet Hours',
    });
    await describeTrack(other, await createTrack(suite.server, other), { genres: [genre], tags: [chill, beats] });
    await describeTrack(other, await createTrack(suite.server, other), { tags: ['rain', chill] });
    await describeTrack(other, await createTrack(suite.server, other, { isPublic: false }), {
      genres: [genre],
      tags: ['secret'],
    });
    const tags = expectStatus(await owner.api.social.suggestedTags({ params: { id: track.id } }), 200).body.data.tags;
    expect(tags).toEqual([
      { tag: genre, score: 1, source: 'genre' },
      { tag: chill, score: 0.6, source: 'similar' },
      { tag: 'hours', score: 0.5, source: 'metadata' },
      { tag: 'midnight', score: 0.5, source: 'metadata' },
      { tag: 'quiet', score: 0.5, source: 'metadata' },
      { tag: 'study', score: 0.5, source: 'metadata' },
      { tag: beats, score: 0.3, source: 'similar' },
    ]);
  });

  it('another user who may see the track gets 403 (an admin too), a private one 404', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const open = await createTrack(suite.server, owner);
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    expect(expectStatus(await other.api.social.suggestedTags({ params: { id: open.id } }), 403).body.error.code).toBe(
      'FORBIDDEN',
    );
    expectStatus(await other.api.social.suggestedTags({ params: { id: hidden.id } }), 404);
    expectStatus(await (await createAdmin(suite.server)).api.social.suggestedTags({ params: { id: open.id } }), 403);
  });
});
