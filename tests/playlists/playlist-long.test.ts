import { describe, expect, it } from 'vitest';
import { PLAYLIST_MAX_TRACKS } from '@riff/contract';
import { createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { createPlaylist, seedEntries, seedTracks } from './playlist-helpers.js';

// replies as production serves them (the other files check every reply against the contract, which
// for 10,000 tracks costs more than the read itself)
const suite = useTestServer({ REPLY_VALIDATION: 'trust' });

describe('a long playlist', () => {
  it(`reads a ${PLAYLIST_MAX_TRACKS}-track playlist whole and by page without a query per track`, async () => {
    const owner = await createUser(suite.server);
    const listener = await createUser(suite.server);
    const ids = await seedTracks(suite.server, owner.id, PLAYLIST_MAX_TRACKS);
    const playlist = await createPlaylist(owner, { is_public: true });
    await seedEntries(suite.server, playlist.id, ids, owner.id);
    const timed = async (query: string) => {
      const started = performance.now();
      const reply = await fetch(`${suite.server.directUrl}/api/v1/playlists/${playlist.id}${query}`, { headers: { authorization: `Bearer ${listener.token}` } });
      const body = (await reply.json()) as { data: { playlist: { tracks: unknown[]; track_count: number } } };
      return { ms: performance.now() - started, status: reply.status, tracks: body.data.playlist.tracks.length, count: body.data.playlist.track_count };
    };
    await timed('');
    const whole = [];
    for (let run = 0; run < 5; run += 1) whole.push(await timed(''));
    const paged = [];
    for (let run = 0; run < 5; run += 1) paged.push(await timed('?tracks_offset=5000&tracks_limit=100'));
    expect(whole.every((reply) => reply.status === 200 && reply.tracks === PLAYLIST_MAX_TRACKS && reply.count === PLAYLIST_MAX_TRACKS)).toBe(true);
    expect(paged.every((reply) => reply.status === 200 && reply.tracks === 100)).toBe(true);
    const median = (runs: { ms: number }[]) => runs.map((run) => run.ms).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
    console.warn(`GET ${PLAYLIST_MAX_TRACKS}-track playlist: whole ${median(whole).toFixed(0)} ms, page of 100 ${median(paged).toFixed(0)} ms (median of 5)`);
    // generous bounds for a shared test machine: the figures above are the measure
    expect(median(paged)).toBeLessThan(1_000);
    expect(median(whole)).toBeLessThan(5_000);
  }, 120_000);
});
