import { describe, expect, it } from 'vitest';
import { createTrack, createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { favoritesOf } from './social-support.js';

const suite = useTestServer();

describe('account data', () => {
  it('the export holds my likes, reposts, shares and listening history', async () => {
    const artist = await createUser(suite.server);
    const me = await createUser(suite.server);
    const track = await createTrack(suite.server, artist);
    expectStatus(await me.api.social.like({ params: { id: track.id } }), 200);
    expectStatus(await me.api.social.repost({ params: { id: track.id } }), 200);
    expectStatus(await me.api.social.share({ params: { id: track.id }, body: { platform: 'whatsapp' } }), 200);
    expectStatus(
      await me.api.social.play({ params: { id: track.id }, body: { duration_listened: 6, source: 'embed' } }),
      200,
    );
    const exported = expectStatus(await me.api.users.exportData(), 200).body;
    expect(exported.likes).toEqual([{ track_id: track.id, liked_at: expect.any(String) }]);
    expect(exported.reposts).toEqual([{ track_id: track.id, reposted_at: expect.any(String) }]);
    expect(exported.shares).toEqual([{ track_id: track.id, platform: 'whatsapp', shared_at: expect.any(String) }]);
    expect(exported.listening_history).toEqual([
      { track_id: track.id, played_at: expect.any(String), duration_listened: 6, source: 'embed' },
    ]);
  });

  it('account deletion erases likes (like_count goes down), the favorites playlist, reposts and history; plays stay counted', async () => {
    const artist = await createUser(suite.server);
    const me = await createUser(suite.server);
    const follower = await createUser(suite.server);
    const track = await createTrack(suite.server, artist);
    expectStatus(await follower.api.users.follow({ params: { id: me.id } }), 200);
    expectStatus(await me.api.social.like({ params: { id: track.id } }), 200);
    expectStatus(await me.api.social.repost({ params: { id: track.id } }), 200);
    expectStatus(await me.api.social.play({ params: { id: track.id }, body: { duration_listened: 40 } }), 200);
    expect(expectStatus(await follower.api.social.feed({ query: {} }), 200).body.data.items).toHaveLength(1);

    expectStatus(await me.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: me.password } }), 200);
    const after = expectStatus(await artist.api.tracks.get({ params: { id: track.id } }), 200).body.data.track;
    expect(after).toMatchObject({ like_count: 0, play_count: 1 });
    expect(expectStatus(await artist.api.social.likers({ params: { id: track.id } }), 200).body.data.users).toEqual([]);
    expect(await favoritesOf(suite.server, me.id)).toEqual({ playlists: [], tracks: [] });
    expect(expectStatus(await follower.api.social.feed({ query: {} }), 200).body.data.items).toEqual([]);
    const stats = expectStatus(await artist.api.social.stats({ params: { id: track.id }, query: {} }), 200).body.data
      .stats;
    expect(stats).toMatchObject({ play_count: 1, unique_listeners: 1, like_count: 0, repost_count: 0 });
    const db = suite.server.riff.platform.scope.db;
    expect(await db.selectFrom('listening_history').select('id').where('user_id', '=', me.id).execute()).toEqual([]);
    expect(await db.selectFrom('track_plays').select('id').where('user_id', '=', me.id).execute()).toEqual([]);
  });
});
