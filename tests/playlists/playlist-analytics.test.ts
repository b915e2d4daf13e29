import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { PLAYLIST_ANALYTICS_DAYS } from '@riff/contract';
import { rollUp } from '../support/analytics.js';
import { backdatePlaylistFollow } from '../support/backdate.js';
import { createUser, type TestUser } from '../support/factories.js';
import { markSeededTrackDeleted } from '../support/row-states.js';
import { seedEntries, seedNamedTracks } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createPlaylist, errorOf } from './playlist-helpers.js';

const suite = useTestServer();
const DAY_MS = 24 * 60 * 60 * 1000;

const dayOf = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

async function play(user: TestUser, trackId: string, seconds: number, playlistId?: string) {
  const body = playlistId
    ? { duration_listened: seconds, source: 'playlist' as const, playlist_id: playlistId }
    : { duration_listened: seconds };
  return expectStatus(await user.api.social.play({ params: { id: trackId }, query: {}, body }), 200).body.data.counted;
}

describe('playlists: analytics', () => {
  it('gives the owner followers, tracks, total duration, plays from the playlist, top tracks and followers per day', async () => {
    const owner = await createUser(suite.server);
    const listeners = await Promise.all(Array.from({ length: 5 }, () => createUser(suite.server)));
    const [a, b, c, gone] = await seedNamedTracks(suite.server, owner.id, [
      { title: 'A', duration: 100 },
      { title: 'B', duration: 200 },
      { title: 'C', duration: 300, isPublic: false },
      { title: 'Gone', duration: 1000 },
    ]);
    const playlist = await createPlaylist(owner, { title: 'Stats', is_public: true });
    await seedEntries(suite.server, playlist.id, [a!, b!, c!, gone!], owner.id);
    await markSeededTrackDeleted(suite.server, gone!);

    for (const listener of listeners.slice(0, 3)) expect(await play(listener, a!, 60, playlist.id)).toBe(true);
    expect(await play(listeners[0]!, b!, 200, playlist.id)).toBe(true);
    // not from the playlist, or too short to count
    expect(await play(listeners[3]!, b!, 200)).toBe(true);
    expect(await play(listeners[4]!, a!, 5, playlist.id)).toBe(false);

    for (const listener of listeners)
      expect((await suite.http.post(`/playlists/${playlist.id}/follow`, { token: listener.token })).status).toBe(200);
    const backdate = (user: TestUser, daysAgo: number) =>
      backdatePlaylistFollow(suite.server, playlist.id, user.id, daysAgo);
    await backdate(listeners[0]!, 3);
    await backdate(listeners[1]!, PLAYLIST_ANALYTICS_DAYS - 1);
    await backdate(listeners[2]!, PLAYLIST_ANALYTICS_DAYS);
    // plays reach the playlist's figures through the analytics roll-up
    await rollUp(suite.server);

    const { analytics } = expectStatus(await owner.api.playlists.analytics({ params: { id: playlist.id } }), 200).body
      .data;
    expect(analytics).toMatchObject({
      follower_count: 5,
      track_count: 3,
      total_duration: 600,
      plays_from_playlist: 4,
      top_tracks: [
        { track_id: a, plays: 3 },
        { track_id: b, plays: 1 },
      ],
    });
    const daily = analytics.followers_daily;
    expect(daily).toHaveLength(PLAYLIST_ANALYTICS_DAYS);
    expect(daily.map((day) => day.date)).toEqual(
      Array.from({ length: PLAYLIST_ANALYTICS_DAYS }, (_, index) => dayOf(PLAYLIST_ANALYTICS_DAYS - 1 - index)),
    );
    const expected = new Map([
      [dayOf(0), 2],
      [dayOf(3), 1],
      [dayOf(PLAYLIST_ANALYTICS_DAYS - 1), 1],
    ]);
    expect(daily).toEqual(daily.map((day) => ({ date: day.date, count: expected.get(day.date) ?? 0 })));
    expect(daily[0]!.count).toBe(1);
    expect(daily.at(-1)!.count).toBe(2);
  });

  it('answers a new playlist with zeros: 30 empty days, no plays', async () => {
    const owner = await createUser(suite.server);
    const playlist = await createPlaylist(owner);
    const { analytics } = expectStatus(await owner.api.playlists.analytics({ params: { id: playlist.id } }), 200).body
      .data;
    expect(analytics).toMatchObject({
      follower_count: 0,
      track_count: 0,
      total_duration: 0,
      plays_from_playlist: 0,
      top_tracks: [],
    });
    expect(analytics.followers_daily.every((day) => day.count === 0)).toBe(true);
    expect(analytics.followers_daily.at(-1)!.date).toBe(dayOf(0));
  });

  it('keeps the ten most played tracks, most played first', async () => {
    const owner = await createUser(suite.server);
    const listeners = await Promise.all(Array.from({ length: 3 }, () => createUser(suite.server)));
    const ids = await seedNamedTracks(
      suite.server,
      owner.id,
      Array.from({ length: 12 }, (_, index) => ({ title: `T${index}` })),
    );
    const playlist = await createPlaylist(owner);
    await seedEntries(suite.server, playlist.id, ids, owner.id);
    for (const id of ids) await play(listeners[0]!, id, 60, playlist.id);
    for (const listener of listeners.slice(1)) await play(listener, ids[11]!, 60, playlist.id);
    await play(listeners[1]!, ids[5]!, 60, playlist.id);
    await rollUp(suite.server);
    const { analytics } = expectStatus(await owner.api.playlists.analytics({ params: { id: playlist.id } }), 200).body
      .data;
    expect(analytics.plays_from_playlist).toBe(15);
    expect(analytics.top_tracks).toHaveLength(10);
    expect(analytics.top_tracks.slice(0, 2)).toEqual([
      { track_id: ids[11], plays: 3 },
      { track_id: ids[5], plays: 2 },
    ]);
    expect(analytics.top_tracks.slice(2).every((entry) => entry.plays === 1)).toBe(true);
  });

  it('is for the owner and admin collaborators: 403 for others who see it, 404 for those who do not', async () => {
    const owner = await createUser(suite.server);
    const [admin, writer, reader, stranger] = await Promise.all(
      Array.from({ length: 4 }, () => createUser(suite.server)),
    );
    const shown = await createPlaylist(owner, { is_public: true });
    const hidden = await createPlaylist(owner);
    for (const [user, permission] of [
      [admin!, 'admin'],
      [writer!, 'write'],
      [reader!, 'read'],
    ] as const) {
      for (const id of [shown.id, hidden.id]) {
        expectStatus(
          await owner.api.playlists.addCollaborator({ params: { id }, body: { user_id: user.id, permission } }),
          201,
        );
      }
    }
    for (const id of [shown.id, hidden.id]) {
      expectStatus(await admin!.api.playlists.analytics({ params: { id } }), 200);
      expect(errorOf(await writer!.api.playlists.analytics({ params: { id } }))).toEqual([403, 'FORBIDDEN']);
      expect(errorOf(await reader!.api.playlists.analytics({ params: { id } }))).toEqual([403, 'FORBIDDEN']);
    }
    expect(errorOf(await stranger!.api.playlists.analytics({ params: { id: shown.id } }))).toEqual([403, 'FORBIDDEN']);
    expect(errorOf(await stranger!.api.playlists.analytics({ params: { id: hidden.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await owner.api.playlists.analytics({ params: { id: randomUUID() } }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await suite.http.get('/playlists/not-an-id/analytics', { token: owner.token }))).toEqual([
      400,
      'INVALID_ID',
    ]);
    expect((await suite.http.get(`/playlists/${shown.id}/analytics`, {})).status).toBe(401);
  });
});
