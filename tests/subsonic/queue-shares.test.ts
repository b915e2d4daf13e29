import { describe, expect, it } from 'vitest';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { restCall, subsonicClient, signedInPlayer } from '../support/subsonic.js';
import { expectValidSubsonicXml } from '../support/subsonic-xsd.js';

// The play queue (getPlayQueue, savePlayQueue: Riff's one queue, as GET and PUT /api/v1/queue show it)
// and sharing (getShares, createShare, deleteShare: a private track's secret link, a public track's
// address), through the real client subsonic-api. Every XML reply validates against the XSD.
const suite = useTestServer();

type Json = Record<string, any>;

const player = (user?: TestUser) => signedInPlayer(suite.server, user);

const track = (owner: TestUser, title: string, isPublic = true) =>
  createTrack(suite.server, owner, { title, isPublic, tags: { title, year: 2024 } });

const ids = (entries: Json[] | undefined) => (entries ?? []).map((entry) => entry.id);

async function readKey(user: TestUser) {
  const key = await suite.http.post('/developer/api-keys', {
    token: user.accessToken,
    body: { name: 'reader', scopes: ['read'] },
  });
  expect(key.status).toBe(201);
  return subsonicClient(suite.server, { apiKey: key.body.data.key as string });
}

describe('the play queue (subsonic-api)', () => {
  it('saved in an app, read back there and on the JSON API; changed elsewhere, changedBy says Riff; cleared', async () => {
    const creator = await createUser(suite.server);
    const [a, b, c] = [await track(creator, 'Q1'), await track(creator, 'Q2'), await track(creator, 'Q3')];
    const secret = await track(creator, 'Q secret', false);
    const me = await player();

    // never saved: no queue
    expect((await me.client.getPlayQueue()).playQueue).toBeUndefined();

    expect((await me.client.savePlayQueue({ id: [a.id, b.id, c.id], current: b.id, position: 12_500 })).status).toBe(
      'ok',
    );
    const queue = (await me.client.getPlayQueue()).playQueue as Json;
    expect(queue).toMatchObject({
      current: b.id,
      position: 12_500,
      username: me.user.username,
      changedBy: 'subsonic-api',
    });
    expect(ids(queue.entry)).toEqual([a.id, b.id, c.id]);
    expect(queue.entry[0]).toMatchObject({ title: 'Q1', artist: creator.username });
    expect(Math.abs(new Date(queue.changed).getTime() - Date.now())).toBeLessThan(60_000);

    const onApi = await suite.http.get('/queue', { token: me.user.accessToken });
    expect(onApi.status).toBe(200);
    expect(onApi.body.data.queue).toMatchObject({ current_index: 1, position_seconds: 12.5 });
    expect(onApi.body.data.queue.items.map((item: Json) => item.track_id)).toEqual([a.id, b.id, c.id]);

    // moved on in Riff's own app: the queue is the same one, no longer as the Subsonic app left it
    const moved = await suite.http.put('/queue', { token: me.user.accessToken, body: { current_index: 2 } });
    expect(moved.status).toBe(200);
    expect((await me.client.getPlayQueue()).playQueue).toMatchObject({ current: c.id, changedBy: 'Riff' });

    const xml = await restCall(suite.server, 'getPlayQueue', me.sign);
    await expectValidSubsonicXml(xml.text);
    expect(xml.text).toContain(`current="${c.id}"`);
    const saved = await restCall(suite.server, 'savePlayQueue', { ...me.sign, id: [c.id, a.id], current: a.id });
    await expectValidSubsonicXml(saved.text);
    expect((await me.client.getPlayQueue()).playQueue).toMatchObject({ current: a.id, changedBy: 'riff-tests' });
    // which app saved it is the user's data: in their export
    const exported = await suite.http.get('/users/me/export', { token: me.user.accessToken });
    expect(exported.body.subsonic_play_queue).toMatchObject({ client: 'riff-tests' });

    // refusals change nothing
    expect(await me.client.savePlayQueue({ id: [a.id, secret.id], current: a.id, position: 0 })).toMatchObject({
      error: { code: 70 },
    });
    expect(await me.client.savePlayQueue({ id: [a.id], current: b.id, position: 0 })).toMatchObject({
      error: { code: 0 },
    });
    expect(await (await readKey(me.user)).savePlayQueue({ id: [a.id], current: a.id, position: 0 })).toMatchObject({
      error: { code: 50 },
    });
    expect(ids(((await me.client.getPlayQueue()).playQueue as Json).entry)).toEqual([c.id, a.id]);
    expect((await (await readKey(me.user)).getPlayQueue()).status).toBe('ok');

    // no ids: the queue is cleared
    expect((await me.client.savePlayQueue({ position: 0 })).status).toBe('ok');
    const cleared = (await me.client.getPlayQueue()).playQueue as Json;
    expect(cleared.entry ?? []).toEqual([]);
    expect(cleared.current).toBeUndefined();
    expect((await suite.http.get('/queue', { token: me.user.accessToken })).body.data.queue.items).toEqual([]);
    await expectValidSubsonicXml((await restCall(suite.server, 'getPlayQueue', me.sign)).text);
  });
});

describe('sharing (subsonic-api)', () => {
  it('a private track’s secret link and a public track’s address; listed, revoked; others’ not found', async () => {
    const me = await player();
    const other = await createUser(suite.server);
    const mine = await track(me.user, 'My secret', false);
    const open = await track(me.user, 'My open');
    const theirs = await track(other, 'Their open');
    const theirSecret = await track(other, 'Their secret', false);

    const secretShare = ((await me.client.createShare({ id: mine.id, description: 'For you' })).shares as Json)
      .share[0] as Json;
    expect(secretShare).toMatchObject({ id: mine.id, username: me.user.username, visitCount: 0 });
    expect(secretShare.url).toMatch(new RegExp(`/api/v1/tracks/${mine.id}\\?secret=.+`));
    expect(ids(secretShare.entry)).toEqual([mine.id]);
    // anyone with the link reads the track
    const secret = new URL(secretShare.url).searchParams.get('secret')!;
    expect((await suite.http.get(`/tracks/${mine.id}?secret=${secret}`)).status).toBe(200);

    const publicShare = ((await me.client.createShare({ id: theirs.id })).shares as Json).share[0] as Json;
    expect(publicShare.url).toMatch(new RegExp(`/api/v1/tracks/${theirs.id}$`));
    const stats = await suite.http.get(`/tracks/${theirs.id}/stats?period=all`, { token: other.accessToken });
    expect(stats.body.data.stats.share_count).toBe(1);
    expect(((await me.client.createShare({ id: open.id })).shares as Json).share[0].url).not.toContain('secret=');

    const listed = ((await me.client.getShares()).shares as Json).share as Json[];
    expect(listed.map((share) => [share.id, share.url])).toEqual([[mine.id, secretShare.url]]);
    for (const [name, params] of [
      ['getShares', {}],
      ['createShare', { id: mine.id }],
    ] as const) {
      await expectValidSubsonicXml((await restCall(suite.server, name, { ...me.sign, ...params })).text);
    }

    // what is not the caller's link is not found; a song they may not see cannot be shared
    const otherPlayer = await player(other);
    for (const call of [
      () => me.client.deleteShare({ id: open.id }),
      () => me.client.deleteShare({ id: 'nope' }),
      () => otherPlayer.client.deleteShare({ id: mine.id }),
      () => me.client.createShare({ id: theirSecret.id }),
    ]) {
      expect(await call()).toMatchObject({ status: 'failed', error: { code: 70 } });
    }
    expect(await me.client.createShare({ id: mine.id, expires: Date.now() + 60_000 })).toMatchObject({
      error: { code: 0 },
    });
    expect(await me.client.createShare({ id: [mine.id, open.id] })).toMatchObject({ error: { code: 0 } });
    expect(await (await readKey(me.user)).createShare({ id: open.id })).toMatchObject({ error: { code: 50 } });
    expect((await (await readKey(me.user)).getShares()).status).toBe('ok');

    expect((await me.client.deleteShare({ id: mine.id })).status).toBe('ok');
    expect(((await me.client.getShares()).shares as Json).share ?? []).toEqual([]);
    expect((await suite.http.get(`/tracks/${mine.id}?secret=${secret}`)).status).toBe(404);
  });
});
