import { describe, expect, it } from 'vitest';
import { PLAYLIST_MAX_TRACKS, PLAYLIST_TRACKS_PAGE_DEFAULT, PLAYLIST_TRACKS_PAGE_MAX } from '@riff/contract';
import { createUser } from '../support/factories.js';
import { seedEntries, seedTracks } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createPlaylist, readAllTracks } from './playlist-helpers.js';

// replies as production serves them (the other files check every reply against the contract);
// how fast is measured by `npm run bench:playlists`, not here
const suite = useTestServer({ REPLY_VALIDATION: 'trust' });

describe('a long playlist', () => {
  it(`serves a ${PLAYLIST_MAX_TRACKS}-track playlist a page at a time: ${PLAYLIST_TRACKS_PAGE_DEFAULT} by default, at most ${PLAYLIST_TRACKS_PAGE_MAX}, all of it in order`, async () => {
    const owner = await createUser(suite.server);
    const listener = await createUser(suite.server);
    const ids = await seedTracks(suite.server, owner.id, PLAYLIST_MAX_TRACKS);
    const playlist = await createPlaylist(owner, { is_public: true });
    await seedEntries(suite.server, playlist.id, ids, owner.id);

    const first = expectStatus(await listener.api.playlists.get({ params: { id: playlist.id } }), 200).body.data
      .playlist;
    expect([first.track_count, first.tracks!.length, first.tracks![0]!.position]).toEqual([
      PLAYLIST_MAX_TRACKS,
      PLAYLIST_TRACKS_PAGE_DEFAULT,
      0,
    ]);
    const tooMany = await listener.api.playlists.get({
      params: { id: playlist.id },
      query: { tracks_limit: PLAYLIST_TRACKS_PAGE_MAX + 1 },
    });
    expect(tooMany.status).toBe(400);

    const all = await readAllTracks(listener, playlist.id);
    expect(all.trackCount).toBe(PLAYLIST_MAX_TRACKS);
    expect(all.tracks.map((entry) => entry.track_id)).toEqual(ids);
    expect(all.tracks.map((entry) => entry.position)).toEqual(ids.map((_, index) => index));
  }, 120_000);
});
