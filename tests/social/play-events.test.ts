import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../server/src/platform/events/event-bus.js';
import { committedEvents } from '../support/domain-events.js';
import { createTrack, createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus, typedApi } from '../support/typed-api.js';

// the service's clock starts one hour into a UTC day two days ahead and moves on demand: plays
// 31 minutes apart count again, a day later is another UTC day
const DAY_MS = 24 * 60 * 60_000;
const start = Math.floor(Date.now() / DAY_MS) * DAY_MS + 2 * DAY_MS + 60 * 60_000;
let offsetMs = start - Date.now();
// behind a proxy, so a test chooses the listener's address (X-Forwarded-For)
const suite = useTestServer({ TRUST_PROXY: 'true' }, { clock: { now: () => new Date(Date.now() + offsetMs) } });

let events: DomainEvent<'track.played' | 'track.downloaded'>[];
beforeAll(() => {
  events = committedEvents(suite.server, ['track.played', 'track.downloaded']);
});

const GB_ADDRESS = '81.2.69.142';
const US_ADDRESS = '8.8.8.8';
const from = (address: string, userAgent: string, token?: string) =>
  typedApi(suite.server, { token, headers: { 'x-forwarded-for': address, 'user-agent': userAgent } });
const playsOf = (trackId: string) =>
  events.filter((event) => event.type === 'track.played' && event.subject.id === trackId);

describe('track.played', () => {
  it('a counted play records one event with its listener, source, playlist, duration and country; an uncounted one none', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const playlistId = randomUUID();
    const api = from(US_ADDRESS, 'Fan-Player/2.0', fan.token);
    const play = (duration: number) =>
      api.social
        .play({
          params: { id: track.id },
          body: { duration_listened: duration, source: 'playlist', playlist_id: playlistId },
        })
        .then((reply) => expectStatus(reply, 200).body.data.counted);
    // too short for a 1 s track? no: the whole track counts; 0.5 s does not
    expect(await play(0.5)).toBe(false);
    expect(playsOf(track.id)).toEqual([]);
    expect(await play(42.5)).toBe(true);
    // within the listener's 30 minutes: not counted, no event
    expect(await play(60)).toBe(false);
    const recorded = playsOf(track.id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      type: 'track.played',
      subject: { resource: 'track', id: track.id },
      userId: fan.id,
      actorId: fan.id,
      data: {
        listener: `u:${fan.id}`,
        source: 'playlist',
        playlist_id: playlistId,
        duration_listened: 42.5,
        country: 'US',
      },
    });
    expect(recorded[0]!.occurredAt.getTime()).toBeGreaterThanOrEqual(start);
    expect(JSON.stringify(recorded[0]!.data)).not.toMatch(/8\.8\.8\.8|Fan-Player/);
    // a measurement, not an action of the listener's account: nothing in their audit log
    const actions = expectStatus(await fan.api.audit.logs({ query: {} }), 200).body.data.logs.map((log) => log.action);
    expect(actions).not.toContain('track.played');
  });

  it('an anonymous listener is a keyed hash, the same within a UTC day and another the next day; no address or user agent in the event', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const other = await createTrack(suite.server, owner);
    const play = (userAgent: string, id = track.id) =>
      from(GB_ADDRESS, userAgent)
        .social.play({ params: { id }, body: { duration_listened: 30 } })
        .then((reply) => expectStatus(reply, 200).body.data.counted);
    const listenerOf = (id: string, index: number) => {
      const event = events.filter((e) => e.type === 'track.played' && e.subject.id === id)[index];
      return (event?.data as { listener: string } | undefined)?.listener;
    };

    expect(await play('Night-Listener/1.0')).toBe(true);
    offsetMs += 31 * 60_000;
    expect(await play('Night-Listener/1.0')).toBe(true);
    expect(await play('Another-Agent/3.1', other.id)).toBe(true);
    offsetMs += DAY_MS;
    expect(await play('Night-Listener/1.0')).toBe(true);

    const [first, sameDay, nextDay] = [0, 1, 2].map((i) => listenerOf(track.id, i));
    expect(first).toMatch(/^d:[A-Za-z0-9_-]{43}$/);
    expect(sameDay).toBe(first);
    expect(nextDay).toMatch(/^d:[A-Za-z0-9_-]{43}$/);
    expect(nextDay).not.toBe(first);
    // the address alone does not make the listener: another user agent is another listener
    expect(listenerOf(other.id, 0)).not.toBe(first);

    const anonymous = [...playsOf(track.id), ...playsOf(other.id)];
    expect(anonymous).toHaveLength(4);
    for (const event of anonymous) {
      expect(event).toMatchObject({
        userId: null,
        actorId: null,
        data: { country: 'GB', source: 'track', playlist_id: null },
      });
      expect(JSON.stringify(event.data)).not.toMatch(/81\.2\.69\.142|Night-Listener|Another-Agent/);
    }
  });

  it('a play from an address without a country (loopback) says ZZ', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    expectStatus(await suite.api.social.play({ params: { id: track.id }, body: { duration_listened: 5 } }), 200);
    expect(playsOf(track.id).map((event) => (event.data as { country: string }).country)).toEqual(['ZZ']);
  });
});

describe('track.downloaded', () => {
  it('each download from the first byte records one event of the downloader (null when anonymous), not audited', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    // straight to the server: the Prism gate sends a request with a binary reply to the server twice
    const download = (token?: string, range?: string) =>
      fetch(`${suite.server.directUrl}/api/v1/tracks/${track.id}/download`, {
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(range ? { range } : {}) },
      }).then(async (reply) => {
        await reply.arrayBuffer();
        return reply.status;
      });
    expect(await download(fan.token)).toBe(200);
    expect(await download()).toBe(200);
    // a later range of the same download is not another download
    expect(await download(fan.token, 'bytes=5-9')).toBe(206);
    const downloads = events.filter((event) => event.type === 'track.downloaded' && event.subject.id === track.id);
    expect(downloads.map((event) => [event.userId, event.data])).toEqual([
      [fan.id, { format: 'mp3' }],
      [null, { format: 'mp3' }],
    ]);
    const actions = expectStatus(await fan.api.audit.logs({ query: {} }), 200).body.data.logs.map((log) => log.action);
    expect(actions).not.toContain('track.downloaded');
  });
});
