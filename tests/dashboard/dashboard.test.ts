import { describe, expect, it } from 'vitest';
import { changeBetween } from '../../server/src/modules/dashboard/dashboard.service.js';
import { createAdmin } from '../support/admin-factory.js';
import { pastPlays } from '../support/backdate.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { auditStreamReady } from '../support/row-states.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

const dashboard = (user: TestUser, query = '') => suite.http.get(`/dashboard${query}`, { token: user.accessToken });
const play = (user: TestUser, trackId: string, seconds: number) =>
  suite.http.post(`/tracks/${trackId}/play`, { token: user.accessToken, body: { duration_listened: seconds } });

describe('GET /dashboard', () => {
  it('a new account: zeros, "0%" changes, no activity, an empty library', async () => {
    const user = await createUser(suite.server);
    const reply = await dashboard(user);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      stats: {
        period: '30d',
        tracks_played: 0,
        favorites: 0,
        messages_sent: 0,
        active_friends: 0,
        tracks_played_change: '0%',
        favorites_change: '0%',
        messages_sent_change: '0%',
        active_friends_change: '0%',
      },
      recent_activity: [],
      library_preview: { items: [], total_count: 0, has_more: false },
    });
  });

  it('counts plays, likes and active friends in the period against the period before', async () => {
    const me = await createUser(suite.server);
    const friend = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    // a play enters the listening history from 5 s on
    const track = await createTrack(suite.server, friend, { seconds: 6 });
    // mutual follow with friend; stranger only follows me
    for (const [from, to] of [
      [me, friend],
      [friend, me],
      [stranger, me],
    ] as const) {
      expect((await suite.http.post(`/users/${to.id}/follow`, { token: from.accessToken })).status).toBe(200);
    }
    expect((await play(me, track.id, 6)).status).toBe(200);
    expect((await play(friend, track.id, 6)).status).toBe(200);
    expect((await play(stranger, track.id, 6)).status).toBe(200);
    expect((await suite.http.post(`/tracks/${track.id}/like`, { token: me.accessToken })).status).toBe(200);
    // the 7 days before this week: 4 plays of mine
    await pastPlays(suite.server, me.id, track.id, 10, 4);

    const week = (await dashboard(me, '?stats_period=7d')).body.data.stats;
    expect(week).toMatchObject({
      period: '7d',
      tracks_played: 1,
      tracks_played_change: '-75%',
      favorites: 1,
      favorites_change: 'new',
      active_friends: 1,
      active_friends_change: 'new',
      messages_sent: 0,
      messages_sent_change: '0%',
    });
    const month = (await dashboard(me)).body.data.stats;
    expect(month).toMatchObject({ period: '30d', tracks_played: 5, tracks_played_change: 'new' });
    const all = (await dashboard(me, '?stats_period=all')).body.data.stats;
    expect(all).toMatchObject({
      period: 'all',
      tracks_played: 5,
      favorites: 1,
      active_friends: 1,
      tracks_played_change: '0%',
      favorites_change: '0%',
    });
  });

  it('recent activity: what I did and who followed me, newest first, limited; library preview of my own tracks', async () => {
    const me = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const first = await createTrack(suite.server, me, { title: 'First light' });
    const second = await createTrack(suite.server, me, { title: 'Second wind' });
    await createTrack(suite.server, me, { title: 'Third rail' });
    expect(
      (await suite.http.post('/playlists', { token: me.accessToken, body: { title: 'Night drives' } })).status,
    ).toBe(201);
    expect((await suite.http.post(`/users/${me.id}/follow`, { token: fan.accessToken })).status).toBe(200);

    const reply = await dashboard(me, '?activity_limit=50&library_limit=2');
    expect(reply.status).toBe(200);
    const activity = reply.body.data.recent_activity as {
      type: string;
      icon: string;
      title: string;
      description: string;
      timestamp: string;
    }[];
    expect(activity[0]).toMatchObject({
      type: 'user.new_follower',
      icon: 'follow',
      description: `${fan.username} followed you`,
    });
    expect(activity.find((entry) => entry.type === 'playlist.created')).toMatchObject({
      icon: 'playlist',
      title: 'Created a playlist',
    });
    expect(activity.filter((entry) => entry.icon === 'upload').length).toBeGreaterThanOrEqual(3);
    expect(activity.map((entry) => entry.timestamp)).toEqual(
      [...activity.map((entry) => entry.timestamp)].sort().reverse(),
    );
    // sign-ins and other security records are not activity, nor what the service did itself (a stream made ready)
    expect(activity.some((entry) => entry.type.startsWith('auth.'))).toBe(false);
    await auditStreamReady(suite.server, me.id, first.id);
    const later = (await dashboard(me, '?activity_limit=50')).body.data.recent_activity as { type: string }[];
    expect(later.some((entry) => entry.type === 'track.processed')).toBe(false);
    expect((await dashboard(me, '?activity_limit=1')).body.data.recent_activity).toHaveLength(1);

    const library = reply.body.data.library_preview;
    expect(library.total_count).toBe(3);
    expect(library.has_more).toBe(true);
    expect(library.items.map((item: { title: string }) => item.title)).toEqual(['Third rail', 'Second wind']);
    expect(library.items[1]).toMatchObject({ id: second.id, duration: second.duration, like_count: 0, play_count: 0 });
    expect(library.items.some((item: { id: string }) => item.id === first.id)).toBe(false);
    // another user's dashboard shows none of it
    const fanView = (await dashboard(fan)).body.data;
    expect(fanView.library_preview.total_count).toBe(0);
    // a banned follower's profile is hidden from everyone, their follow with it
    const admin = await createAdmin(suite.server);
    const ban = await suite.http.post(`/admin/users/${fan.id}/ban`, {
      token: admin.accessToken,
      body: { reason: 'Spam' },
    });
    expect(ban.status).toBe(201);
    const afterBan = (await dashboard(me, '?activity_limit=50')).body.data.recent_activity as { type: string }[];
    expect(afterBan.some((entry) => entry.type === 'user.new_follower')).toBe(false);
  });

  it.each([
    ['activity_limit=0'],
    ['activity_limit=51'],
    ['library_limit=0'],
    ['library_limit=51'],
    ['stats_period=1y'],
    ['activity_limit=ten'],
  ])('%s is 400 VALIDATION_FAILED', async (query) => {
    const user = await createUser(suite.server);
    const reply = await dashboard(user, `?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('needs a signed-in caller', async () => {
    expect((await suite.http.get('/dashboard')).status).toBe(401);
  });
});

describe('change strings', () => {
  it.each([
    [0, 0, '0%'],
    [0, 5, 'new'],
    [4, 1, '-75%'],
    [10, 11, '+10%'],
    [3, 3, '0%'],
    [3, 0, '-100%'],
    [3, 4, '+33%'],
  ])('from %i to %i reads %s', (previous, current, expected) => {
    expect(changeBetween(previous, current)).toBe(expected);
  });
});
