import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { createModerator } from '../support/moderation.js';
import { insertTrackRow } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { signedInPlayer } from '../support/subsonic.js';

// Albums as players list them are kept by the database beside the tracks (track_albums, migration
// 0032), so that getAlbumList2 and search3 read an index range at any size. What a user sees: every
// change to a track (its album tag, visibility, moderation, deletion) shows at once in every album
// list, and two uploads into one album at the same moment both count.
// a database of its own on PostgreSQL: its pages of the newest albums are the whole library's
const suite = useTestServer({}, {}, { ownDatabase: true });
const db = () => suite.server.riff.database.db;

type Json = Record<string, any>;

const listener = (user?: TestUser) => signedInPlayer(suite.server, user);

const track = (owner: TestUser, title: string, album?: string, isPublic = true) =>
  createTrack(suite.server, owner, { title, isPublic, tags: { title, ...(album ? { album } : {}), year: 2021 } });

/** The creator's albums as anyone else lists them (getArtist), name → songCount. */
async function albumsOf(client: Awaited<ReturnType<typeof listener>>['client'], creatorId: string) {
  const reply = (await client.getArtist({ id: creatorId })) as Json;
  if (reply.error) return {};
  return Object.fromEntries(((reply.artist.album ?? []) as Json[]).map((album) => [album.name, album.songCount]));
}

/**
 * The stored albums of `creatorId` that differ from what their published tracks make: recomputed here
 * from the tracks, independently of the triggers.
 */
async function drift(creatorId: string) {
  const { rows } = await sql<{ album_id: string }>`
    with expected as (
      select album_id, count(*)::int as song_count, min(created_at) as created, max(year) as year
      from tracks where creator_id = ${creatorId} and deleted_at is null and is_public and status = 'completed'
        and moderation_status = 'visible'
      group by album_id)
    select coalesce(e.album_id, a.album_id) as album_id from expected e
    full join (select * from track_albums where creator_id = ${creatorId}) a on a.album_id = e.album_id
    where a.album_id is null or e.album_id is null or a.song_count <> e.song_count or a.created <> e.created
      or a.year is distinct from e.year`.execute(db());
  return rows;
}

describe('albums kept beside the tracks', () => {
  it('follow every change of a track at once: retagging, privacy, moderation, deletion', async () => {
    const creator = await createUser(suite.server);
    const { client } = await listener();
    const first = await track(creator, 'First', 'Harbour Lights');
    const second = await track(creator, 'Second', 'harbour   LIGHTS');
    const third = await track(creator, 'Third', 'Low Tide');
    expect(await albumsOf(client, creator.id)).toEqual({ 'Harbour Lights': 2, 'Low Tide': 1 });

    // retagged into the other album, then made a single
    const patch = (id: string, body: Json) => suite.http.put(`/tracks/${id}`, { token: creator.token, body });
    expect((await patch(second.id, { album: 'Low Tide' })).status).toBe(200);
    expect(await albumsOf(client, creator.id)).toEqual({ 'Harbour Lights': 1, 'Low Tide': 2 });
    expect((await patch(third.id, { album: null })).status).toBe(200);
    expect(await albumsOf(client, creator.id)).toEqual({ 'Harbour Lights': 1, 'Low Tide': 1, Third: 1 });

    // private: gone for others, still the owner's
    expect((await patch(first.id, { is_public: false })).status).toBe(200);
    expect(await albumsOf(client, creator.id)).toEqual({ 'Low Tide': 1, Third: 1 });
    const own = await listener(creator);
    expect(await albumsOf(own.client, creator.id)).toEqual({ 'Harbour Lights': 1, 'Low Tide': 1, Third: 1 });

    // hidden by a moderator, then deleted by its owner
    const moderator = await createModerator(suite.server);
    const hidden = await suite.http.post(`/moderation/content/track/${second.id}/hide`, {
      token: moderator.accessToken,
      body: { note: 'Hidden for the test' },
    });
    expect(hidden.status).toBe(200);
    expect(await albumsOf(client, creator.id)).toEqual({ Third: 1 });
    expect((await suite.http.delete(`/tracks/${third.id}`, { token: creator.token })).status).toBe(200);
    expect(await albumsOf(client, creator.id)).toEqual({});
    expect(await drift(creator.id)).toEqual([]);
  });

  it('pages every list without a gap or a repeat, the caller’s own private album among the others', async () => {
    const creator = await createUser(suite.server);
    const me = await createUser(suite.server);
    const tag = Math.random().toString(36).slice(2, 8);
    for (const name of ['Alpha', 'Bravo', 'Charlie']) await track(creator, `${name} song`, `${name} ${tag}`);
    await track(me, 'My demo', `Demos ${tag}`, false);
    const { client } = await listener(me);
    const stranger = await listener();
    const pageThrough = async (who: typeof client, type: string) => {
      const names: string[] = [];
      for (let offset = 0; offset < 40; offset += 2) {
        const reply = (await who.getAlbumList2({ type, size: 2, offset } as never)) as Json;
        const albums = (reply.albumList2.album ?? []) as Json[];
        names.push(...albums.map((album) => album.name).filter((name: string) => name.endsWith(tag)));
        if (albums.length < 2) break;
      }
      return names;
    };
    // this world's albums are the newest and sort by their names: the pages hold them in order, once each
    expect(await pageThrough(client, 'newest')).toEqual([
      `Demos ${tag}`,
      `Charlie ${tag}`,
      `Bravo ${tag}`,
      `Alpha ${tag}`,
    ]);
    expect(await pageThrough(stranger.client, 'newest')).toEqual([`Charlie ${tag}`, `Bravo ${tag}`, `Alpha ${tag}`]);
    const search = (await client.search3({ query: tag, albumCount: 10 } as never)) as Json;
    expect((search.searchResult3.album as Json[]).map((album) => album.name)).toEqual([
      `Alpha ${tag}`,
      `Bravo ${tag}`,
      `Charlie ${tag}`,
      `Demos ${tag}`,
    ]);
    const theirs = (await stranger.client.search3({ query: tag, albumCount: 10 } as never)) as Json;
    expect((theirs.searchResult3.album as Json[]).map((album) => album.name)).not.toContain(`Demos ${tag}`);
  });

  it('frequent and recent list the albums of the songs the caller played', async () => {
    const creator = await createUser(suite.server);
    const often = await track(creator, 'Played often', 'Often Album');
    const once = await track(creator, 'Played once', 'Once Album');
    const me = await listener();
    const play = async (id: string) =>
      expect(
        (await suite.http.post(`/tracks/${id}/play`, { token: me.user.accessToken, body: { duration_listened: 60 } }))
          .status,
      ).toBe(200);
    await play(often.id);
    await play(once.id);
    // a second counted play of one track by one listener needs the window to pass: another track of its album
    const again = await track(creator, 'Played often too', 'Often Album');
    await play(again.id);
    const names = async (type: string) =>
      (((await me.client.getAlbumList2({ type } as never)) as Json).albumList2.album as Json[]).map((a) => a.name);
    expect(await names('frequent')).toEqual(['Often Album', 'Once Album']);
    expect(await names('recent')).toEqual(['Often Album', 'Once Album']);
    await play((await track(creator, 'Latest', 'Once Album')).id);
    expect(await names('recent')).toEqual(['Once Album', 'Often Album']);
  });

  it.runIf(process.env.DATABASE_URL)('two writers adding to one album at once both count', async () => {
    const creator = await createUser(suite.server);
    const insert = (executor: Parameters<typeof insertTrackRow>[0], title: string) =>
      insertTrackRow(executor, creator.id, title, 'Together');
    // the first writer holds its transaction open while the second inserts: without the album lock the
    // second would recount the album without the first's track, and one of the two would be lost
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstInserted!: () => void;
    const firstHasInserted = new Promise<void>((resolve) => (firstInserted = resolve));
    const first = db()
      .transaction()
      .execute(async (trx) => {
        await insert(trx, 'One');
        firstInserted();
        await firstMayCommit;
      });
    await Promise.race([firstHasInserted, first]);
    const second = db()
      .transaction()
      .execute(async (trx) => {
        await insert(trx, 'Two');
      });
    await new Promise((resolve) => setTimeout(resolve, 200));
    releaseFirst();
    await Promise.all([first, second]);
    const { client } = await listener();
    expect(await albumsOf(client, creator.id)).toEqual({ Together: 2 });
    expect(await drift(creator.id)).toEqual([]);
  });
});
