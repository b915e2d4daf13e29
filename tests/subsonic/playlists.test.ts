import { describe, expect, it } from 'vitest';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { createModerator } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';
import { restCall, subsonicClient, signedInPlayer } from '../support/subsonic.js';
import { expectValidSubsonicXml } from '../support/subsonic-xsd.js';

// Riff playlists as a Subsonic player sees them (getPlaylists, getPlaylist, createPlaylist,
// updatePlaylist, deletePlaylist), through the real client subsonic-api: the playlists are the
// JSON API's (what one changes the other shows), their entries the tracks the caller may see, and
// the JSON API's rules decide who may read, edit and delete. Every XML reply validates against the XSD.
const suite = useTestServer();

type Json = Record<string, any>;

const player = (user?: TestUser) => signedInPlayer(suite.server, user);

const track = (owner: TestUser, title: string, isPublic = true) =>
  createTrack(suite.server, owner, { title, isPublic, tags: { title, album: 'Road Songs', year: 2024 } });

const ids = (entries: Json[] | undefined) => (entries ?? []).map((entry) => entry.id);

/** A playlist made through the JSON API, with these tracks. */
async function jsonPlaylist(owner: TestUser, title: string, isPublic: boolean, trackIds: string[]) {
  const made = await suite.http.post('/playlists', { token: owner.accessToken, body: { title, is_public: isPublic } });
  expect(made.status).toBe(201);
  const id = made.body.data.playlist.id as string;
  for (const trackId of trackIds) {
    const added = await suite.http.post(`/playlists/${id}/tracks`, {
      token: owner.accessToken,
      body: { track_id: trackId },
    });
    expect(added.status).toBe(200);
  }
  return id;
}

describe('playlists (subsonic-api)', () => {
  it('create from songs, read, rename, add and remove by index, replace, delete; the JSON API shows the same', async () => {
    const creator = await createUser(suite.server);
    const [a, b, c] = [await track(creator, 'Song A'), await track(creator, 'Song B'), await track(creator, 'Song C')];
    const me = await player();

    const created = (await me.client.createPlaylist({ name: '  Road trip ', songId: [a.id, b.id, a.id] })) as Json;
    expect(created.status).toBe('ok');
    const playlist = created.playlist as Json;
    expect(playlist).toMatchObject({
      name: 'Road trip',
      owner: me.user.username,
      public: false,
      songCount: 2,
      duration: Math.round(a.duration) + Math.round(b.duration),
      coverArt: a.id,
    });
    expect(ids(playlist.entry)).toEqual([a.id, b.id]);
    expect((playlist.entry as Json[])[0]).toMatchObject({ title: 'Song A', artist: creator.username, isDir: false });
    const id = playlist.id as string;

    const listed = ((await me.client.getPlaylists()).playlists as Json).playlist as Json[];
    expect(listed.map((entry) => entry.id)).toContain(id);
    const summary = listed.find((entry) => entry.id === id)!;
    expect(summary).toMatchObject({ name: 'Road trip', songCount: 2, owner: me.user.username });
    expect(summary.entry).toBeUndefined();

    // removals by index into the list before the call, then additions
    const updated = await me.client.updatePlaylist({
      playlistId: id,
      name: 'Road trip 2',
      comment: 'For the drive',
      public: true,
      songIdToAdd: [c.id],
      songIndexToRemove: [0],
    });
    expect(updated.status).toBe('ok');
    const read = (await me.client.getPlaylist({ id })).playlist as Json;
    expect(read).toMatchObject({ name: 'Road trip 2', comment: 'For the drive', public: true, songCount: 2 });
    expect(ids(read.entry)).toEqual([b.id, c.id]);
    expect(new Date(read.changed).getTime()).toBeGreaterThanOrEqual(new Date(read.created).getTime());

    const onApi = await suite.http.get(`/playlists/${id}`, { token: me.user.accessToken });
    expect(onApi.status).toBe(200);
    expect(onApi.body.data.playlist).toMatchObject({
      title: 'Road trip 2',
      description: 'For the drive',
      is_public: true,
    });
    expect(onApi.body.data.playlist.tracks.map((entry: Json) => entry.track_id)).toEqual([b.id, c.id]);

    // an index past the end changes nothing
    expect(await me.client.updatePlaylist({ playlistId: id, songIndexToRemove: [2], name: 'Never' })).toMatchObject({
      status: 'failed',
      error: { code: 0 },
    });
    expect(((await me.client.getPlaylist({ id })).playlist as Json).name).toBe('Road trip 2');

    // createPlaylist with playlistId: its songs become these, in this order
    const replaced = (await me.client.createPlaylist({ playlistId: id, songId: [c.id, a.id] })).playlist as Json;
    expect(ids(replaced.entry)).toEqual([c.id, a.id]);
    const empty = await me.client.updatePlaylist({ playlistId: id, comment: '' });
    expect(empty.status).toBe('ok');
    expect(((await me.client.getPlaylist({ id })).playlist as Json).comment).toBeUndefined();

    const xmlCalls: [string, Record<string, string | string[]>][] = [
      ['getPlaylists', {}],
      ['getPlaylist', { id }],
      ['createPlaylist', { name: 'XML', songId: [a.id, b.id] }],
    ];
    for (const [name, params] of xmlCalls) {
      const reply = await restCall(suite.server, name, { ...me.sign, ...params });
      expect(reply.text).toContain('status="ok"');
      await expectValidSubsonicXml(reply.text);
    }

    expect((await me.client.deletePlaylist({ id })).status).toBe('ok');
    expect(await me.client.getPlaylist({ id })).toMatchObject({ status: 'failed', error: { code: 70 } });
    expect((await suite.http.get(`/playlists/${id}`, { token: me.user.accessToken })).status).toBe(404);

    // what is missing or unknown
    expect(await me.client.createPlaylist({ songId: [a.id] })).toMatchObject({ error: { code: 10 } });
    expect(await me.client.createPlaylist({ name: 'x', songId: ['nope'] })).toMatchObject({ error: { code: 70 } });
    expect(await me.client.getPlaylist({ id: 'nope' })).toMatchObject({ error: { code: 70 } });
    expect(await restCall(suite.server, 'getPlaylist', me.sign).then((reply) => reply.text)).toContain('code="10"');
  });

  it('another user’s private playlist is not found; their private and hidden tracks never show; followed playlists are listed', async () => {
    const owner = await createUser(suite.server);
    const shown = await track(owner, 'Shown');
    const secret = await track(owner, 'Secret', false);
    const hidden = await track(owner, 'Hidden');
    const privateList = await jsonPlaylist(owner, 'Just mine', false, [shown.id]);
    const publicList = await jsonPlaylist(owner, 'For all', true, [secret.id, shown.id, hidden.id]);
    const moderator = await createModerator(suite.server);
    const hide = await suite.http.post(`/moderation/content/track/${hidden.id}/hide`, {
      token: moderator.accessToken,
      body: { note: 'Hidden for the test' },
    });
    expect(hide.status).toBe(200);
    const me = await player();

    for (const call of [
      () => me.client.getPlaylist({ id: privateList }),
      () => me.client.updatePlaylist({ playlistId: privateList, name: 'Mine now' }),
      () => me.client.updatePlaylist({ playlistId: privateList, songIndexToRemove: [0] }),
      () => me.client.deletePlaylist({ id: privateList }),
      () => me.client.createPlaylist({ playlistId: privateList, songId: [shown.id] }),
    ]) {
      expect(await call()).toMatchObject({ status: 'failed', error: { code: 70 } });
    }

    // a public playlist: readable, with only the tracks the caller may see; not theirs to change
    const read = (await me.client.getPlaylist({ id: publicList })).playlist as Json;
    expect(ids(read.entry)).toEqual([shown.id]);
    expect(read).toMatchObject({ songCount: 1, owner: owner.username, coverArt: shown.id });
    expect(await me.client.deletePlaylist({ id: publicList })).toMatchObject({ error: { code: 50 } });
    expect(await me.client.updatePlaylist({ playlistId: publicList, name: 'Taken' })).toMatchObject({
      error: { code: 50 },
    });
    expect(await me.client.updatePlaylist({ playlistId: publicList, songIdToAdd: [shown.id] })).toMatchObject({
      error: { code: 50 },
    });
    // a song the caller may not see cannot be added anywhere
    expect(await me.client.createPlaylist({ name: 'Sneaky', songId: [secret.id] })).toMatchObject({
      error: { code: 70 },
    });

    const listed = async (client = me.client) =>
      (((await client.getPlaylists()).playlists as Json).playlist as Json[] | undefined) ?? [];
    expect((await listed()).map((entry) => entry.id)).not.toContain(publicList);
    expect((await suite.http.post(`/playlists/${publicList}/follow`, { token: me.user.accessToken })).status).toBe(200);
    const followed = (await listed()).find((entry) => entry.id === publicList);
    expect(followed).toMatchObject({ name: 'For all', songCount: 1, owner: owner.username, public: true });
    expect((await listed()).map((entry) => entry.id)).not.toContain(privateList);

    // the owner sees every track of theirs, the hidden one included
    const ownerPlayer = await player(owner);
    expect(ids(((await ownerPlayer.client.getPlaylist({ id: publicList })).playlist as Json).entry)).toEqual([
      secret.id,
      shown.id,
      hidden.id,
    ]);
    // made private: the follower no longer has it
    const made = await suite.http.put(`/playlists/${publicList}`, {
      token: owner.accessToken,
      body: { is_public: false },
    });
    expect(made.status).toBe(200);
    expect((await listed()).map((entry) => entry.id)).not.toContain(publicList);
    expect(await me.client.getPlaylist({ id: publicList })).toMatchObject({ error: { code: 70 } });

    // only one's own playlists are listed
    expect(await me.client.getPlaylists({ username: owner.username })).toMatchObject({ error: { code: 50 } });
    expect((await me.client.getPlaylists({ username: me.user.username.toUpperCase() })).status).toBe('ok');
  });

  it('a collaborator adds and removes songs but may not rename or delete; a read-scope API key may not change', async () => {
    const owner = await createUser(suite.server);
    const first = await track(owner, 'First');
    const second = await track(owner, 'Second');
    const id = await jsonPlaylist(owner, 'Together', false, [first.id]);
    const me = await player();
    const invite = await suite.http.post(`/playlists/${id}/collaborators`, {
      token: owner.accessToken,
      body: { user_id: me.user.id, permission: 'write' },
    });
    expect(invite.status).toBe(201);

    const listed = ((await me.client.getPlaylists()).playlists as Json).playlist as Json[];
    expect(listed.find((entry) => entry.id === id)).toMatchObject({ name: 'Together', owner: owner.username });
    expect((await me.client.updatePlaylist({ playlistId: id, songIdToAdd: [second.id] })).status).toBe('ok');
    const onApi = await suite.http.get(`/playlists/${id}`, { token: owner.accessToken });
    expect(onApi.body.data.playlist.tracks.map((entry: Json) => entry.track_id)).toEqual([first.id, second.id]);
    expect((await me.client.updatePlaylist({ playlistId: id, songIndexToRemove: [0] })).status).toBe('ok');
    expect(ids(((await me.client.getPlaylist({ id })).playlist as Json).entry)).toEqual([second.id]);
    expect(await me.client.updatePlaylist({ playlistId: id, name: 'Ours' })).toMatchObject({ error: { code: 50 } });
    expect(await me.client.deletePlaylist({ id })).toMatchObject({ error: { code: 50 } });

    const key = await suite.http.post('/developer/api-keys', {
      token: me.user.accessToken,
      body: { name: 'reader', scopes: ['read'] },
    });
    expect(key.status).toBe(201);
    const reader = subsonicClient(suite.server, { apiKey: key.body.data.key as string });
    expect((await reader.getPlaylists()).status).toBe('ok');
    expect((await reader.getPlaylist({ id })).status).toBe('ok');
    for (const call of [
      () => reader.createPlaylist({ name: 'Nope', songId: [first.id] }),
      () => reader.updatePlaylist({ playlistId: id, songIdToAdd: [first.id] }),
      () => reader.deletePlaylist({ id }),
    ]) {
      expect(await call()).toMatchObject({ status: 'failed', error: { code: 50 } });
    }
  });
});
