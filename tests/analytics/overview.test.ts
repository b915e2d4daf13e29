import { describe, expect, it } from 'vitest';
import { PLAY_SOURCES } from '@riff/contract';
import { reportPlay, rollUp, SetClock } from '../support/analytics.js';
import { createUser } from '../support/factories.js';
import { seedNamedTracks } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';

// the figures count by the UTC day of the service's clock, which the test sets; a database of its
// own, since the roll-ups' open day is one for the whole service
const clock = new SetClock('2026-03-05T10:00:00Z');
// the roll-up runs every second here, as its periodic job: figures follow without anyone asking
const suite = useTestServer({ ANALYTICS_ROLLUP_SECONDS: '1' }, { clock }, { ownDatabase: true });

const noSources = Object.fromEntries(PLAY_SOURCES.map((source) => [source, 0]));

describe('analytics: overview', () => {
  it('counts exactly what listeners did, by UTC day, against the previous period of the same length', async () => {
    const creator = await createUser(suite.server);
    const [long, short] = await seedNamedTracks(suite.server, creator.id, [
      { title: 'Long', duration: 200 },
      { title: 'Short', duration: 100 },
    ]);
    const first = await createUser(suite.server);
    const second = await createUser(suite.server);
    const anonymous = { address: '81.2.69.142', userAgent: 'radio-player/1.0' };
    const play = (token: string | null, track: string, seconds: number, options = {}) =>
      reportPlay(suite.server, token, track, seconds, { ...(token ? {} : anonymous), ...options });

    // the previous period (7d read on 03-16: 03-10 to 03-16; before it 03-03 to 03-09)
    clock.set('2026-03-05T10:00:00Z');
    expect(await play(first.token, long!, 200)).toBe(true);
    expect(await play(null, long!, 40)).toBe(true);
    // the period: a Tuesday, then a Thursday
    clock.set('2026-03-10T23:59:00Z');
    expect(await play(first.token, long!, 100, { source: 'search' })).toBe(true);
    expect(await play(second.token, short!, 95, { source: 'playlist' })).toBe(true);
    expect(await play(second.token, long!, 31)).toBe(true);
    // too short to count: not in analytics
    expect(await play(second.token, short!, 5)).toBe(false);
    expect((await suite.http.post(`/tracks/${long}/like`, { token: second.token })).status).toBe(200);
    clock.set('2026-03-12T00:00:01Z');
    expect(await play(first.token, short!, 50, { source: 'embed' })).toBe(true);
    expect(await play(null, short!, 30)).toBe(true);
    expect((await suite.http.post(`/users/${creator.id}/follow`, { token: first.token })).status).toBe(200);
    expect((await suite.http.post(`/users/${creator.id}/follow`, { token: second.token })).status).toBe(200);
    expect((await suite.http.delete(`/users/${creator.id}/follow`, { token: second.token })).status).toBe(200);

    clock.set('2026-03-16T23:59:59Z');
    await rollUp(suite.server);
    const reply = await suite.http.get('/analytics/overview?period=7d', { token: creator.token });
    expect(reply.status).toBe(200);
    const overview = reply.body.data;
    expect(overview).toMatchObject({ period: '7d', interval: 'day', from: '2026-03-10', to: '2026-03-16' });
    expect(overview.totals).toEqual({
      plays: 5,
      // first and second, and the anonymous listener of 03-12 (a new one each day)
      unique_listeners: 3,
      listening_seconds: 306,
      likes: 1,
      reposts: 0,
      comments: 0,
      shares: 0,
      downloads: 0,
      followers_gained: 2,
      followers_lost: 1,
      sales: 0,
      revenue_cents_by_currency: {},
    });
    expect(overview.previous).toMatchObject({ plays: 2, unique_listeners: 2, listening_seconds: 240, likes: 0 });
    expect(overview.series).toHaveLength(7);
    const day = (date: string) => overview.series.find((point: { date: string }) => point.date === date);
    expect(day('2026-03-10')).toEqual({
      date: '2026-03-10',
      plays: 3,
      unique_listeners: 2,
      likes: 1,
      followers_net: 0,
    });
    expect(day('2026-03-12')).toEqual({
      date: '2026-03-12',
      plays: 2,
      unique_listeners: 2,
      likes: 0,
      followers_net: 1,
    });
    expect(day('2026-03-11')).toEqual({
      date: '2026-03-11',
      plays: 0,
      unique_listeners: 0,
      likes: 0,
      followers_net: 0,
    });
    expect(overview.top_tracks.map((entry: { track: { id: string } }) => entry.track.id)).toEqual([short, long]);
    expect(overview.top_tracks[0]).toMatchObject({ plays: 3, listening_seconds: 175 });
    expect(overview.top_tracks[0].completion_rate).toBeCloseTo(1 / 3, 4);
    expect(overview.top_tracks[1]).toMatchObject({ plays: 2, listening_seconds: 131, completion_rate: 0 });
    expect(overview.sources).toEqual({ ...noSources, track: 2, search: 1, playlist: 1, embed: 1 });

    // weeks are ISO weeks clipped to the period: Tuesday 03-10 to Sunday 03-15, then Monday 03-16
    const weekly = (await suite.http.get('/analytics/overview?period=7d&interval=week', { token: creator.token })).body
      .data;
    expect(weekly.series).toEqual([
      { date: '2026-03-10', plays: 5, unique_listeners: 3, likes: 1, followers_net: 1 },
      { date: '2026-03-16', plays: 0, unique_listeners: 0, likes: 0, followers_net: 0 },
    ]);

    // all time: from the first day with activity, no previous period; the two anonymous listeners were on two days
    const all = (await suite.http.get('/analytics/overview?period=all&interval=month', { token: creator.token })).body
      .data;
    expect(all).toMatchObject({ from: '2026-03-05', to: '2026-03-16', previous: null });
    expect(all.totals).toMatchObject({ plays: 7, unique_listeners: 4, listening_seconds: 546 });
    expect(all.series).toEqual([{ date: '2026-03-05', plays: 7, unique_listeners: 4, likes: 1, followers_net: 1 }]);

    // without TRUST_PROXY the X-Forwarded-For the anonymous plays sent is not believed: the address is the
    // connection's (loopback), of no country
    const audience = (await suite.http.get('/analytics/audience?period=all', { token: creator.token })).body.data;
    expect(audience.countries).toEqual([{ country: 'ZZ', plays: 7 }]);

    // another creator sees none of it
    const other = await createUser(suite.server);
    const theirs = (await suite.http.get('/analytics/overview', { token: other.token })).body.data;
    expect(theirs.totals.plays).toBe(0);
    expect(theirs.series).toHaveLength(30);
  });

  it('drops a listener from a window the day after its last day in it', async () => {
    const creator = await createUser(suite.server);
    const [track] = await seedNamedTracks(suite.server, creator.id, [{ title: 'Window', duration: 60 }]);
    const listener = await createUser(suite.server);
    clock.set('2026-04-01T12:00:00Z');
    expect(await reportPlay(suite.server, listener.token, track!, 60)).toBe(true);
    // a day with a like and no play leaves the listeners as they were
    clock.set('2026-04-03T12:00:00Z');
    const liker = await createUser(suite.server);
    expect((await suite.http.post(`/tracks/${track}/like`, { token: liker.token })).status).toBe(200);
    const listenersOn = async (iso: string, period: string) => {
      clock.set(iso);
      await rollUp(suite.server);
      const reply = await suite.http.get(`/analytics/overview?period=${period}`, { token: creator.token });
      return reply.body.data.totals.unique_listeners as number;
    };
    expect(await listenersOn('2026-04-07T23:59:59Z', '7d')).toBe(1);
    expect(await listenersOn('2026-04-08T00:00:00Z', '7d')).toBe(0);
    expect(await listenersOn('2026-04-08T00:00:00Z', '30d')).toBe(1);
    expect(await listenersOn('2026-05-01T00:00:00Z', '30d')).toBe(0);
    expect(await listenersOn('2026-05-01T00:00:00Z', '90d')).toBe(1);
    // the 7 days before 05-01 hold nothing, the 30 days before it hold the play
    const reply = await suite.http.get('/analytics/overview?period=30d', { token: creator.token });
    expect(reply.body.data.previous).toMatchObject({ plays: 1, unique_listeners: 1 });
  });

  it('shows a play within the roll-up period (ANALYTICS_ROLLUP_SECONDS) with no one running the job', async () => {
    const creator = await createUser(suite.server);
    const [track] = await seedNamedTracks(suite.server, creator.id, [{ title: 'Soon', duration: 60 }]);
    const listener = await createUser(suite.server);
    clock.set('2026-05-02T09:00:00Z');
    const played = Date.now();
    expect(await reportPlay(suite.server, listener.token, track!, 60)).toBe(true);
    let plays = 0;
    while (plays === 0 && Date.now() - played < 15_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      plays = (await suite.http.get('/analytics/overview?period=7d', { token: creator.token })).body.data.totals.plays;
    }
    // within 15 s (a second's period, a worker's poll and the run: a few seconds even on a loaded machine)
    expect(plays).toBe(1);
  });

  it('refuses a period, interval or format it does not know with 400 VALIDATION_FAILED', async () => {
    const creator = await createUser(suite.server);
    for (const path of [
      '/analytics/overview?period=14d',
      '/analytics/overview?interval=year',
      '/analytics/audience?period=1y',
      '/analytics/export?format=xlsx',
    ]) {
      const reply = await suite.http.get(path, { token: creator.token });
      expect(reply.status, path).toBe(400);
      expect(reply.body.error.code, path).toBe('VALIDATION_FAILED');
    }
    expect((await suite.http.get('/analytics/overview')).status).toBe(401);
  });
});
