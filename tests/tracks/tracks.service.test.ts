import { describe, expect, it } from 'vitest';
import { anonymousActor, type UserActor } from '../../server/src/platform/access/actor.js';
import { refusal } from '../support/refusal.js';
import { serviceTrack, serviceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of tracks, called on the services with an Actor: who sees a track and its figures, who
// changes it, and what its secret link opens. catalog.test.ts and shares.test.ts hold the routes and
// replies to the contract (the request limits among them, which the schemas decide).
const suite = useServices();
const notFound = { status: 404, code: 'NOT_FOUND' };
const forbidden = { status: 403, code: 'FORBIDDEN' };
const everything = { page: 1, limit: 100, sort: 'created_at', order: 'desc' } as const;

/** The ids of the creator's tracks as `viewer` lists them. */
async function listedBy(viewer: Parameters<typeof suite.areas.tracks.services.tracks.list>[0], creator: UserActor) {
  const { tracks } = await suite.areas.tracks.services.tracks.list(viewer, { ...everything, creator_id: creator.id });
  return tracks.map((track) => track.id);
}

/** The secret a share link carries (absent for a public track's link). */
const secretOf = (shareUrl: string) => new URL(shareUrl).searchParams.get('secret');

describe('tracks (service)', () => {
  it('a private track is its owner’s and admins’ to read and list; for anyone else it does not exist', async () => {
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const hidden = await serviceTrack(suite, owner, { isPublic: false, title: 'Hidden' });
    const shown = await serviceTrack(suite, owner, { title: 'Shown' });
    expect((await tracks.get(owner, hidden.id)).track).toMatchObject({ title: 'Hidden', is_public: false });
    expect((await tracks.get(admin, hidden.id)).track.id).toBe(hidden.id);
    expect(await refusal(tracks.get(other, hidden.id))).toMatchObject(notFound);
    expect(await refusal(tracks.get(anonymousActor(), hidden.id))).toMatchObject(notFound);
    expect(await listedBy(owner, owner)).toEqual([shown.id, hidden.id]);
    expect(await listedBy(other, owner)).toEqual([shown.id]);
    expect(await listedBy(anonymousActor(), owner)).toEqual([shown.id]);
  });

  it('play and like counts are shown to the owner and admins only, even on a public track', async () => {
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const track = await serviceTrack(suite, owner);
    expect((await tracks.get(owner, track.id)).track).toMatchObject({ play_count: 0, like_count: 0 });
    expect((await tracks.get(admin, track.id)).track).toMatchObject({ play_count: 0, like_count: 0 });
    const seen = (await tracks.get(other, track.id)).track;
    expect(seen).not.toHaveProperty('play_count');
    expect(seen).not.toHaveProperty('like_count');
    expect((await tracks.get(anonymousActor(), track.id)).track).not.toHaveProperty('play_count');
  });

  it('metadata is the owner’s or an admin’s to change: others get 403 on a public track, 404 on a private one', async () => {
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const shown = await serviceTrack(suite, owner);
    const hidden = await serviceTrack(suite, owner, { isPublic: false });
    expect(await refusal(tracks.update(other, shown.id, { title: 'Mine now' }))).toMatchObject(forbidden);
    expect(await refusal(tracks.update(other, hidden.id, { title: 'Mine now' }))).toMatchObject(notFound);
    expect((await tracks.update(admin, shown.id, { title: 'Moderated' })).track.title).toBe('Moderated');
    expect((await tracks.get(other, shown.id)).track.title).toBe('Moderated');
  });

  it('genres and tags are stored once each, in the order first given', async () => {
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    const { track: updated } = await tracks.update(owner, track.id, {
      genres: ['house', 'techno', 'house'],
      tags: ['night', 'drive', 'night'],
      bpm: 124,
    });
    expect(updated).toMatchObject({ genres: ['house', 'techno'], tags: ['night', 'drive'], bpm: 124 });
    // a field left out stays as it was
    expect((await tracks.update(owner, track.id, { title: 'Renamed' })).track).toMatchObject({
      title: 'Renamed',
      genres: ['house', 'techno'],
      bpm: 124,
    });
  });

  it('making a track private hides it from others at once, and public again shows it', async () => {
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    await tracks.update(owner, track.id, { is_public: false });
    expect(await refusal(tracks.get(other, track.id))).toMatchObject(notFound);
    expect(await listedBy(other, owner)).toEqual([]);
    await tracks.update(owner, track.id, { is_public: true });
    expect((await tracks.get(other, track.id)).track.is_public).toBe(true);
  });

  it('a deleted track is gone for everyone, its owner and admins included, and deleting it again is 404', async () => {
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const track = await serviceTrack(suite, owner);
    expect(await refusal(tracks.remove(other, track.id))).toMatchObject(forbidden);
    expect(await tracks.remove(owner, track.id)).toEqual({ message: 'Track deleted' });
    expect(await refusal(tracks.get(owner, track.id))).toMatchObject(notFound);
    expect(await refusal(tracks.get(admin, track.id))).toMatchObject(notFound);
    expect(await refusal(tracks.remove(owner, track.id))).toMatchObject(notFound);
    expect(await listedBy(owner, owner)).toEqual([]);
  });

  it('a batch deletes the caller’s tracks and tells each other id apart: malformed, unseen, not theirs', async () => {
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const mine = await serviceTrack(suite, owner);
    const theirs = await serviceTrack(suite, other);
    const theirsHidden = await serviceTrack(suite, other, { isPublic: false });
    const result = await tracks.batchDelete(owner, [mine.id, mine.id, 'nope', theirs.id, theirsHidden.id]);
    expect(result.deleted).toEqual([mine.id]);
    expect(result.failed.map((failure) => [failure.id, failure.code])).toEqual([
      ['nope', 'INVALID_ID'],
      [theirs.id, 'FORBIDDEN'],
      [theirsHidden.id, 'NOT_FOUND'],
    ]);
    expect(await refusal(tracks.get(owner, mine.id))).toMatchObject(notFound);
    expect((await tracks.get(other, theirs.id)).track.id).toBe(theirs.id);
  });

  it('a batch update changes the caller’s tracks only', async () => {
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const first = await serviceTrack(suite, owner);
    const second = await serviceTrack(suite, owner);
    const theirs = await serviceTrack(suite, other, { title: 'Theirs' });
    const result = await tracks.batchUpdate(owner, [first.id, second.id, theirs.id], { album: 'Night Drive' });
    expect(result.updated.sort()).toEqual([first.id, second.id].sort());
    expect(result.failed).toMatchObject([{ id: theirs.id, code: 'FORBIDDEN' }]);
    expect((await tracks.get(owner, second.id)).track.album).toBe('Night Drive');
    expect((await tracks.get(other, theirs.id)).track.album).toBeNull();
  });

  it('lyrics in LRC come back with their timed lines, plain text without; others read them but may not write; empty removes them', async () => {
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    expect(await tracks.lyrics(other, track.id)).toEqual({ lyrics: null });
    const synced = (await tracks.setLyrics(owner, track.id, '[00:01.00]First line\n[00:02.50]Second line')).lyrics;
    expect(synced).toMatchObject({ is_synced: true });
    expect(synced?.lines?.length).toBe(2);
    const plain = (await tracks.setLyrics(owner, track.id, 'Just words')).lyrics;
    expect(plain).toMatchObject({ content: 'Just words', is_synced: false, lines: null });
    expect((await tracks.lyrics(other, track.id)).lyrics?.content).toBe('Just words');
    expect(await refusal(tracks.setLyrics(other, track.id, 'Vandal'))).toMatchObject(forbidden);
    expect(await tracks.setLyrics(owner, track.id, '   ')).toEqual({ lyrics: null });
    expect(await tracks.lyrics(other, track.id)).toEqual({ lyrics: null });
  });

  it('a private track’s secret link opens it to anyone, is the same when shared again, and stops when revoked', async () => {
    const { tracks } = suite.areas.tracks.services;
    const { social } = suite.areas.social.services;
    const owner = await serviceUser(suite);
    const listener = await serviceUser(suite);
    const track = await serviceTrack(suite, owner, { isPublic: false });
    const { share_url: link } = await social.share(owner, track.id, { platform: 'link' });
    const secret = secretOf(link);
    expect(secret).toBeTruthy();
    expect((await tracks.get(listener, track.id, secret!)).track.id).toBe(track.id);
    expect((await tracks.get(anonymousActor(), track.id, secret!)).track.id).toBe(track.id);
    expect(await refusal(tracks.get(listener, track.id, `${secret}x`))).toMatchObject(notFound);
    expect((await social.share(owner, track.id, { platform: 'twitter' })).share_url).toBe(link);
    await social.revokeShare(owner, track.id);
    expect(await refusal(tracks.get(listener, track.id, secret!))).toMatchObject(notFound);
    // sharing after a revocation makes a new link; the old one stays dead
    const renewed = secretOf((await social.share(owner, track.id, { platform: 'link' })).share_url);
    expect(renewed).not.toBe(secret);
    expect((await tracks.get(listener, track.id, renewed!)).track.id).toBe(track.id);
    expect(await refusal(tracks.get(listener, track.id, secret!))).toMatchObject(notFound);
  });

  it('only the owner makes a private track’s secret link; an admin may revoke it; a public track’s link carries none', async () => {
    const { social } = suite.areas.social.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const hidden = await serviceTrack(suite, owner, { isPublic: false });
    const shown = await serviceTrack(suite, owner);
    expect(await refusal(social.share(other, hidden.id, { platform: 'link' }))).toMatchObject(notFound);
    expect(await refusal(social.share(admin, hidden.id, { platform: 'link' }))).toMatchObject(forbidden);
    expect(await refusal(social.revokeShare(other, shown.id))).toMatchObject(forbidden);
    expect(await social.revokeShare(admin, hidden.id)).toEqual({ message: 'The secret link no longer works' });
    const publicLink = (await social.share(other, shown.id, { platform: 'link' })).share_url;
    expect(secretOf(publicLink)).toBeNull();
    expect(publicLink.endsWith(`/tracks/${shown.id}`)).toBe(true);
  });

  it('processing status is the owner’s business: another user gets 404 even on a public track', async () => {
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    expect((await tracks.status(owner, track.id)).status).toBe(track.status);
    expect(await refusal(tracks.status(other, track.id))).toMatchObject(notFound);
  });
});
