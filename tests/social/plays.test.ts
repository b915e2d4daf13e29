import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus, typedApi } from '../support/typed-api.js';

// the service's clock moves on demand (the 30-minute window); the database's own time is not used
let offsetMs = 0;
const suite = useTestServer({}, { clock: { now: () => new Date(Date.now() + offsetMs) } });

const listenerApi = (userAgent: string) => typedApi(suite.server, { headers: { 'user-agent': userAgent } });
const playCount = async (owner: TestUser, id: string) =>
  expectStatus(await owner.api.tracks.get({ params: { id } }), 200).body.data.track.play_count;

describe('plays', () => {
  it('count after 30 s, or the whole of a shorter track', async () => {
    const owner = await createUser(suite.server);
    const long = await createTrack(suite.server, owner, { seconds: 40 });
    const short = await createTrack(suite.server, owner, { seconds: 2 });
    expect(long.duration).toBeGreaterThanOrEqual(39);
    const play = (api: ReturnType<typeof listenerApi>, id: string, seconds: number) =>
      api.social
        .play({ params: { id }, body: { duration_listened: seconds } })
        .then((reply) => expectStatus(reply, 200).body.data.counted);
    expect(await play(listenerApi('rule-a'), long.id, 29.9)).toBe(false);
    expect(await play(listenerApi('rule-a'), long.id, 30)).toBe(true);
    expect(await play(listenerApi('rule-b'), short.id, short.duration - 0.5)).toBe(false);
    expect(await play(listenerApi('rule-b'), short.id, short.duration)).toBe(true);
    expect(await playCount(owner, long.id)).toBe(1);
    expect(await playCount(owner, short.id)).toBe(1);
  });

  it('once per listener per track per 30 minutes; anonymous listeners told apart by address and user agent', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const play = (userAgent: string) =>
      listenerApi(userAgent)
        .social.play({ params: { id: track.id }, body: { duration_listened: 60 } })
        .then((reply) => expectStatus(reply, 200).body.data.counted);
    expect(await play('window-a')).toBe(true);
    expect(await play('window-a')).toBe(false);
    expect(await play('window-b')).toBe(true);
    offsetMs += 29 * 60_000;
    expect(await play('window-a')).toBe(false);
    offsetMs += 60_000;
    expect(await play('window-a')).toBe(true);
    expect(await play('window-a')).toBe(false);
    expect(await playCount(owner, track.id)).toBe(3);
  });

  it('one address counts at most 3 anonymous plays of a track per 24 h, whatever user agents it sends; signed-in plays are not bound', async () => {
    const owner = await createUser(suite.server);
    const [track, other] = [await createTrack(suite.server, owner), await createTrack(suite.server, owner)];
    const play = (userAgent: string, id = track.id) =>
      listenerApi(userAgent)
        .social.play({ params: { id }, body: { duration_listened: 60 } })
        .then((reply) => expectStatus(reply, 200).body.data.counted);
    const counted: boolean[] = [];
    for (let i = 0; i < 30; i++) counted.push(await play(`rotating-agent-${i}`));
    expect(counted.filter(Boolean)).toHaveLength(3);
    expect(counted.slice(0, 3)).toEqual([true, true, true]);
    expect(await playCount(owner, track.id)).toBe(3);
    // concurrent plays from the address are no way around it
    expect(
      (await Promise.all(Array.from({ length: 10 }, (_, i) => play(`burst-agent-${i}`)))).filter(Boolean),
    ).toHaveLength(0);
    // the bound is per track, and signed-in listeners are counted by the per-user rule alone
    expect(await play('rotating-agent-0', other.id)).toBe(true);
    const fan = await createUser(suite.server);
    expect(
      expectStatus(await fan.api.social.play({ params: { id: track.id }, body: { duration_listened: 60 } }), 200).body
        .data.counted,
    ).toBe(true);
    expect(await playCount(owner, track.id)).toBe(4);
    // uncounted plays still feed the stats as reported plays, not as counted ones
    const stats = expectStatus(await owner.api.social.stats({ params: { id: track.id }, query: { period: '7d' } }), 200)
      .body.data.stats;
    expect(stats.play_count).toBe(4);
    // a new period starts 24 h after the first counted play
    offsetMs += 24 * 60 * 60_000;
    expect(await play('rotating-agent-new')).toBe(true);
    expect(await playCount(owner, track.id)).toBe(5);
  });

  it('an anonymous listener is stored as a hash, never the address or the user agent', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    expectStatus(
      await listenerApi('Hash-Check-Agent/1.0').social.play({
        params: { id: track.id },
        body: { duration_listened: 1 },
      }),
      200,
    );
    const db = suite.server.riff.platform.scope.db;
    const stored = await sql<{ text: string }>`
      select listener as text from track_plays where track_id = ${track.id}
      union all select listener from track_play_windows where track_id = ${track.id}`.execute(db);
    expect(stored.rows).toHaveLength(2);
    for (const { text } of stored.rows) {
      expect(text).not.toContain('127.0.0.1');
      expect(text).not.toContain('Hash-Check-Agent');
      expect(text).toMatch(/^a:[A-Za-z0-9_-]{43}$/);
    }
  });

  it('50 concurrent plays of one listener count exactly once', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const replies = await Promise.all(
      Array.from({ length: 50 }, () =>
        fan.api.social.play({ params: { id: track.id }, body: { duration_listened: 45 } }),
      ),
    );
    const counted = replies.map((reply) => expectStatus(reply, 200).body.data.counted);
    expect(counted.filter(Boolean)).toHaveLength(1);
    expect(await playCount(owner, track.id)).toBe(1);
    const stats = expectStatus(await owner.api.social.stats({ params: { id: track.id }, query: { period: '7d' } }), 200)
      .body.data.stats;
    expect(stats).toMatchObject({ play_count: 1, unique_listeners: 1 });
  });

  it('plays of private tracks of others are 404; bad bodies 400; a failed play changes nothing', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    expectStatus(await fan.api.social.play({ params: { id: hidden.id }, body: { duration_listened: 40 } }), 404);
    expectStatus(await suite.api.social.play({ params: { id: hidden.id }, body: { duration_listened: 40 } }), 404);
    const negative = await suite.http.post(`/tracks/${hidden.id}/play`, {
      body: { duration_listened: -1 },
      token: fan.token,
    });
    expect([negative.status, negative.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const badSource = await suite.http.post(`/tracks/${hidden.id}/play`, {
      body: { duration_listened: 3, source: 'radio' },
      token: fan.token,
    });
    expect(badSource.status).toBe(400);
    expect(await playCount(owner, hidden.id)).toBe(0);
    expect(
      expectStatus(await owner.api.social.play({ params: { id: hidden.id }, body: { duration_listened: 40 } }), 200)
        .body.data.counted,
    ).toBe(true);
  });

  it('at most 120 plays reported a minute per listener (429 with Retry-After)', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const api = listenerApi('rate-limited-listener');
    for (let i = 0; i < 120; i++)
      expectStatus(await api.social.play({ params: { id: track.id }, body: { duration_listened: 1 } }), 200);
    const refused = expectStatus(
      await api.social.play({ params: { id: track.id }, body: { duration_listened: 1 } }),
      429,
    );
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expectStatus(
      await listenerApi('another-listener').social.play({ params: { id: track.id }, body: { duration_listened: 1 } }),
      200,
    );
  });
});

describe('listening history', () => {
  it('records signed-in plays of 5 s or more, newest first, and DELETE clears it', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const first = await createTrack(suite.server, owner, { title: 'First' });
    const second = await createTrack(suite.server, owner, { title: 'Second' });
    expectStatus(
      await fan.api.social.play({ params: { id: first.id }, body: { duration_listened: 5, source: 'search' } }),
      200,
    );
    expectStatus(await fan.api.social.play({ params: { id: second.id }, body: { duration_listened: 4.9 } }), 200);
    expectStatus(
      await fan.api.social.play({ params: { id: second.id }, body: { duration_listened: 12, source: 'queue' } }),
      200,
    );
    const history = expectStatus(await fan.api.social.history({ query: {} }), 200).body.data;
    expect(history.history.map((entry) => [entry.track.title, entry.duration_listened, entry.source])).toEqual([
      ['Second', 12, 'queue'],
      ['First', 5, 'search'],
    ]);
    expect(history.history[0]!.track).not.toHaveProperty('play_count');
    expect(history.pagination.total).toBe(2);
    expect(
      expectStatus(await fan.api.social.history({ query: { limit: 1, page: 2 } }), 200).body.data.history.map(
        (e) => e.track.title,
      ),
    ).toEqual(['First']);
    expectStatus(await suite.api.social.history({ query: {} }), 401);

    expectStatus(await fan.api.social.clearHistory(), 200);
    expect(expectStatus(await fan.api.social.history({ query: {} }), 200).body.data).toMatchObject({
      history: [],
      pagination: { total: 0 },
    });
    const logs = expectStatus(await fan.api.audit.logs({ query: {} }), 200).body.data.logs;
    expect(logs.map((log) => log.action)).toContain('listening_history.cleared');
  });

  it('honours the preference: with show_listening_history off nothing is recorded, and the play still counts', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    expectStatus(await fan.api.users.updatePreferences({ body: { privacy: { show_listening_history: false } } }), 200);
    expect(
      expectStatus(await fan.api.social.play({ params: { id: track.id }, body: { duration_listened: 60 } }), 200).body
        .data.counted,
    ).toBe(true);
    expect(expectStatus(await fan.api.social.history({ query: {} }), 200).body.data.history).toEqual([]);
    expectStatus(await fan.api.users.updatePreferences({ body: { privacy: { show_listening_history: true } } }), 200);
    expectStatus(await fan.api.social.play({ params: { id: track.id }, body: { duration_listened: 60 } }), 200);
    expect(expectStatus(await fan.api.social.history({ query: {} }), 200).body.data.history).toHaveLength(1);
  });
});
