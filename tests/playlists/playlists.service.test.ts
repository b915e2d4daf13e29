import { describe, expect, it } from 'vitest';
import { PLAYLIST_TITLE_MAX } from '@riff/contract';
import { refusal } from '../support/refusal.js';
import { servicePlaylist, serviceTrack, serviceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of playlists, called on the service with an Actor: the HTTP tests (playlists-crud and
// the matrices) hold the routes and replies to the contract; these hold what the service decides.
const suite = useServices();
const window = { offset: 0, limit: 50 };

describe('playlists (service)', () => {
  it('a new playlist is private unless asked otherwise, and another user cannot find a private one', async () => {
    const { playlists } = suite.areas.playlists.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const hidden = await playlists.create(owner, { title: 'Drafts' });
    const shown = await playlists.create(owner, { title: 'Live set', is_public: true });
    expect(hidden).toMatchObject({ title: 'Drafts', is_public: false, user_id: owner.id, track_count: 0 });
    expect(shown.is_public).toBe(true);
    expect(await refusal(playlists.get(other, hidden.id, window))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((await playlists.get(other, shown.id, window)).playlist.title).toBe('Live set');
  });

  it('a public playlist shows each reader the tracks they may see, and counts only those', async () => {
    const { playlists } = suite.areas.playlists.services;
    const owner = await serviceUser(suite);
    const reader = await serviceUser(suite);
    const shown = await serviceTrack(suite, owner, { title: 'Shown' });
    const hidden = await serviceTrack(suite, owner, { title: 'Hidden', isPublic: false });
    const playlist = await servicePlaylist(suite, owner, { isPublic: true, tracks: [shown, hidden] });
    expect(playlist).toMatchObject({ is_public: true, track_count: 2 });
    expect(playlist.tracks).toHaveLength(2);
    const seen = (await playlists.get(reader, playlist.id, window)).playlist;
    expect(seen.track_count).toBe(1);
  });

  it('the favorites playlist stays private, is never deleted and never given away', async () => {
    const { playlists } = suite.areas.playlists.services;
    const owner = await serviceUser(suite);
    const { playlist: favorites, version } = await playlists.favorites(owner, window);
    expect(favorites).toMatchObject({ is_default_favorites: true, is_public: false });
    expect(await refusal(playlists.update(owner, favorites.id, undefined, { is_public: true }))).toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
    });
    expect(await refusal(playlists.remove(owner, favorites.id, undefined))).toMatchObject({ code: 'BAD_REQUEST' });
    const other = await serviceUser(suite);
    expect(await refusal(playlists.update(owner, favorites.id, undefined, { user_id: other.id }))).toMatchObject({
      code: 'BAD_REQUEST',
    });
    // nothing changed: the same version, still private
    const after = await playlists.favorites(owner, window);
    expect(after.version).toBe(version);
    expect(after.playlist.is_public).toBe(false);
  });

  it('a playlist is given only to one of its collaborators', async () => {
    const { playlists } = suite.areas.playlists.services;
    const owner = await serviceUser(suite);
    const stranger = await serviceUser(suite);
    const created = await playlists.create(owner, { title: 'Handover' });
    expect(await refusal(playlists.update(owner, created.id, undefined, { user_id: stranger.id }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: ['user_id'],
    });
    expect((await playlists.get(owner, created.id, window)).playlist.user_id).toBe(owner.id);
  });

  it('a copy is private and its title says it is a copy, within the title limit', async () => {
    const { playlists } = suite.areas.playlists.services;
    const owner = await serviceUser(suite);
    const reader = await serviceUser(suite);
    const long = await playlists.create(owner, { title: 'x'.repeat(PLAYLIST_TITLE_MAX), is_public: true });
    const copy = await playlists.duplicate(reader, long.id, {});
    expect(copy).toMatchObject({ user_id: reader.id, is_public: false });
    expect(copy.title).toHaveLength(PLAYLIST_TITLE_MAX);
    expect(copy.title.endsWith(' (copy)')).toBe(true);
    const named = await playlists.duplicate(reader, long.id, { title: 'Mine now' });
    expect(named.title).toBe('Mine now');
  });
});
