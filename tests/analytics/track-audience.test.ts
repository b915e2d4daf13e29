import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { RETENTION_BUCKETS } from '@riff/contract';
import { createProduct, payInSandbox } from '../marketplace/order-helpers.js';
import { createAdmin } from '../support/admin-factory.js';
import { reportPlay, rollUp, SetClock } from '../support/analytics.js';
import { createUser } from '../support/factories.js';
import { seedNamedTracks } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

// the service believes X-Forwarded-For here, so each play comes from the address the test names
const clock = new SetClock('2026-06-10T08:00:00Z');
const suite = useTestServer({ TRUST_PROXY: 'true' }, { clock }, { ownDatabase: true });

async function playlistOf(token: string, isPublic: boolean): Promise<string> {
  const reply = await suite.http.post('/playlists', { token, body: { title: 'From here', is_public: isPublic } });
  expect(reply.status).toBe(201);
  return reply.body.data.playlist.id;
}

describe('analytics: one track', () => {
  it('gives its owner completion, a 20-part retention curve, sources and the playlists it was played from', async () => {
    const creator = await createUser(suite.server);
    const [track, hidden] = await seedNamedTracks(suite.server, creator.id, [
      { title: 'Curve', duration: 100 },
      { title: 'Private', duration: 100, isPublic: false },
    ]);
    const listeners = await Promise.all(Array.from({ length: 5 }, () => createUser(suite.server)));
    const ownPlaylist = await playlistOf(creator.token, true);
    const theirPrivatePlaylist = await playlistOf(listeners[4]!.token, false);
    clock.set('2026-06-10T08:00:00Z');
    const seconds = [100, 50, 95, 45, 40, 30];
    expect(await reportPlay(suite.server, listeners[0]!.token, track!, seconds[0]!)).toBe(true);
    expect(await reportPlay(suite.server, listeners[1]!.token, track!, seconds[1]!)).toBe(true);
    expect(await reportPlay(suite.server, listeners[2]!.token, track!, seconds[2]!)).toBe(true);
    expect(
      await reportPlay(suite.server, listeners[3]!.token, track!, seconds[3]!, {
        source: 'playlist',
        playlistId: ownPlaylist,
      }),
    ).toBe(true);
    expect(
      await reportPlay(suite.server, listeners[4]!.token, track!, seconds[4]!, {
        source: 'playlist',
        playlistId: theirPrivatePlaylist,
      }),
    ).toBe(true);
    expect(await reportPlay(suite.server, null, track!, seconds[5]!, { address: '8.8.8.8' })).toBe(true);
    clock.set('2026-06-11T08:00:00Z');
    await rollUp(suite.server);

    const reply = await suite.http.get(`/analytics/tracks/${track}?period=7d`, { token: creator.token });
    expect(reply.status).toBe(200);
    const analytics = reply.body.data;
    expect(analytics.totals).toMatchObject({ plays: 6, unique_listeners: 6, listening_seconds: 360 });
    // complete: at least 90 % of the 100 seconds
    expect(analytics.completion_rate).toBeCloseTo(2 / 6, 4);
    expect(analytics.retention).toHaveLength(RETENTION_BUCKETS);
    expect(analytics.retention).toEqual(
      Array.from({ length: RETENTION_BUCKETS }, (_, part) => ({
        second_bucket: part * 5,
        listeners: seconds.filter((listened) => listened >= part * 5).length,
      })),
    );
    expect(analytics.sources).toMatchObject({ track: 4, playlist: 2 });
    // the creator may not see the listener's private playlist: it is not listed
    expect(analytics.playlists).toEqual([{ playlist: expect.objectContaining({ id: ownPlaylist }), plays: 1 }]);
    expect(analytics).not.toHaveProperty('top_tracks');

    const stranger = await createUser(suite.server);
    const refused = await suite.http.get(`/analytics/tracks/${track}`, { token: stranger.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    const unseen = await suite.http.get(`/analytics/tracks/${hidden}`, { token: stranger.token });
    expect(unseen.status).toBe(404);
    expect(unseen.body.error.code).toBe('NOT_FOUND');
    const admin = await createAdmin(suite.server);
    const staff = await suite.http.get(`/analytics/tracks/${track}?period=7d`, { token: admin.token });
    expect(staff.status).toBe(200);
    expect(staff.body.data.totals.plays).toBe(6);
  });
});

describe('analytics: audience and export', () => {
  it('names only public listeners who did not opt out, counts countries from the address, and forgets an erased listener', async () => {
    const creator = await createUser(suite.server);
    const [one, two, three] = await seedNamedTracks(suite.server, creator.id, [
      { title: 'One', duration: 60 },
      { title: 'Two', duration: 60 },
      { title: 'Three', duration: 60 },
    ]);
    const fan = await createUser(suite.server);
    const shy = await createUser(suite.server);
    const optedOut = await createUser(suite.server);
    expect((await suite.http.put(`/users/${shy.id}`, { token: shy.token, body: { is_public: false } })).status).toBe(
      200,
    );
    expect((await suite.http.post('/users/me/privacy/opt-out', { token: optedOut.token })).status).toBe(200);
    clock.set('2026-07-01T10:00:00Z');
    for (const track of [one!, two!]) await reportPlay(suite.server, fan.token, track, 60, { address: '81.2.69.142' });
    await reportPlay(suite.server, shy.token, one!, 60, { address: '8.8.8.8' });
    for (const track of [one!, two!, three!])
      await reportPlay(suite.server, optedOut.token, track, 60, { address: '2001:db8::1' });
    // a listener who blocks the creator after listening is not named to them either
    const blocker = await createUser(suite.server);
    await reportPlay(suite.server, blocker.token, one!, 60, { address: '81.2.69.142' });
    expect((await suite.http.post(`/users/${creator.id}/block`, { token: blocker.token })).status).toBe(200);
    await rollUp(suite.server);

    const audience = (await suite.http.get('/analytics/audience?period=30d', { token: creator.token })).body.data;
    expect(audience.top_listeners).toEqual([{ user: expect.objectContaining({ id: fan.id }), plays: 2 }]);
    expect(audience.countries).toEqual([
      { country: 'GB', plays: 3 },
      { country: 'ZZ', plays: 3 },
      { country: 'US', plays: 1 },
    ]);

    // the listener's own export holds their listening history, and nobody else's plays
    const exported = await suite.http.get('/users/me/export', { token: fan.token });
    expect(exported.status).toBe(200);
    expect(exported.body.listening_history.map((entry: { track_id: string }) => entry.track_id).sort()).toEqual(
      [one!, two!].sort(),
    );
    for (const other of [shy.id, optedOut.id]) expect(exported.text).not.toContain(other);
    // nor does the creator's hold their audience
    const creatorExport = await suite.http.get('/users/me/export', { token: creator.token });
    for (const listener of [fan.id, shy.id, optedOut.id]) expect(creatorExport.text).not.toContain(listener);

    const before = (await suite.http.get('/analytics/overview?period=30d', { token: creator.token })).body.data.totals;
    const erased = await suite.http.delete('/users/me', {
      token: fan.token,
      body: { confirm_text: 'DELETE', password: fan.password },
    });
    expect(erased.status).toBe(200);
    const after = (await suite.http.get('/analytics/audience?period=30d', { token: creator.token })).body.data;
    expect(after.top_listeners).toEqual([]);
    expect(after.countries).toEqual(audience.countries);
    const totals = (await suite.http.get('/analytics/overview?period=30d', { token: creator.token })).body.data.totals;
    expect(totals).toEqual(before);
  });

  it('exports a CSV of its own tracks by day then title, quoted as RFC 4180, with formulas defused', async () => {
    const creator = await createUser(suite.server);
    const titles = ['=HYPERLINK("http://evil.example")', 'Comma, "quoted"', 'plain'];
    const [formula, comma, plain] = await seedNamedTracks(
      suite.server,
      creator.id,
      titles.map((title) => ({ title, duration: 60 })),
    );
    const other = await createUser(suite.server);
    const [theirs] = await seedNamedTracks(suite.server, other.id, [{ title: 'Not mine', duration: 60 }]);
    const listener = await createUser(suite.server);
    clock.set('2026-08-02T10:00:00Z');
    await reportPlay(suite.server, listener.token, plain!, 60);
    await reportPlay(suite.server, listener.token, formula!, 30);
    await reportPlay(suite.server, listener.token, theirs!, 60);
    clock.set('2026-08-03T10:00:00Z');
    await reportPlay(suite.server, listener.token, comma!, 45);
    expect((await suite.http.post(`/tracks/${plain}/like`, { token: listener.token })).status).toBe(200);
    clock.set('2026-08-04T10:00:00Z');
    await rollUp(suite.server);

    const reply = await suite.http.get('/analytics/export?period=7d&format=csv', { token: creator.token });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows: string[][] = parse(reply.text, { relax_column_count: false });
    expect(rows[0]).toEqual([
      'date',
      'track_id',
      'title',
      'plays',
      'unique_listeners',
      'listening_seconds',
      'likes',
      'reposts',
      'comments',
      'shares',
      'downloads',
    ]);
    expect(rows.slice(1)).toEqual([
      ['2026-08-02', formula, `'${titles[0]}`, '1', '1', '30', '0', '0', '0', '0', '0'],
      ['2026-08-02', plain, 'plain', '1', '1', '60', '0', '0', '0', '0', '0'],
      ['2026-08-03', comma, 'Comma, "quoted"', '1', '1', '45', '0', '0', '0', '0', '0'],
      ['2026-08-03', plain, 'plain', '0', '0', '0', '1', '0', '0', '0', '0'],
    ]);
    expect(reply.text).toContain('"Comma, ""quoted"""');
    expect(reply.text.endsWith('\r\n')).toBe(true);
  });
});

describe('analytics: sales', () => {
  it('counts items sold on the day their order completed, by currency and track, and takes refunded ones off', async () => {
    const seller = await createUser(suite.server);
    const [track] = await seedNamedTracks(suite.server, seller.id, [{ title: 'For sale', duration: 60 }]);
    const license = await createProduct(suite.server, seller, { title: 'License', priceCents: 1999, trackId: track! });
    const pack = await createProduct(suite.server, seller, { title: 'Pack', priceCents: 500, currency: 'EUR' });
    const buy = async (buyer: Awaited<ReturnType<typeof createUser>>, productId: string) => {
      const order = expectStatus(
        await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: productId }] } }),
        201,
      ).body;
      expect((await payInSandbox(suite.server, buyer.api, order)).status).toBe('completed');
      return order;
    };
    clock.set('2026-09-01T10:00:00Z');
    const first = await createUser(suite.server);
    const second = await createUser(suite.server);
    await buy(first, license.id);
    await buy(first, pack.id);
    const refunded = await buy(second, license.id);
    clock.set('2026-09-02T10:00:00Z');
    await rollUp(suite.server);
    const totals = async (path: string) => (await suite.http.get(path, { token: seller.token })).body.data.totals;
    expect(await totals('/analytics/overview?period=7d')).toMatchObject({
      sales: 3,
      revenue_cents_by_currency: { USD: 3998, EUR: 500 },
    });

    clock.set('2026-09-03T10:00:00Z');
    expectStatus(await second.api.marketplace.refundOrder({ params: { id: refunded.id }, body: {} }), 200);
    await rollUp(suite.server);
    expect(await totals('/analytics/overview?period=7d')).toMatchObject({
      sales: 2,
      revenue_cents_by_currency: { USD: 1999, EUR: 500 },
    });
    expect(await totals(`/analytics/tracks/${track}?period=7d`)).toMatchObject({
      sales: 1,
      revenue_cents_by_currency: { USD: 1999 },
    });
    // the sales stay on 09-01, the day the orders completed
    const series = (await suite.http.get('/analytics/overview?period=7d', { token: seller.token })).body.data.series;
    expect(series.every((point: { plays: number }) => point.plays === 0)).toBe(true);
  });
});
