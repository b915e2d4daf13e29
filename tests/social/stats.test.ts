import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { createTrack, createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus, typedApi } from '../support/typed-api.js';

const suite = useTestServer();
const anonymous = (userAgent: string) => typedApi(suite.server, { headers: { 'user-agent': userAgent } });

describe('track stats', () => {
  it('the owner sees counted plays, unique listeners, completion, likes, daily series and sources', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 2 });
    expectStatus(
      await fan.api.social.play({
        params: { id: track.id },
        body: { duration_listened: track.duration, source: 'playlist' },
      }),
      200,
    );
    expectStatus(
      await fan.api.social.play({ params: { id: track.id }, body: { duration_listened: track.duration } }),
      200,
    );
    expectStatus(
      await anonymous('stats-a').social.play({
        params: { id: track.id },
        body: { duration_listened: track.duration, source: 'search' },
      }),
      200,
    );
    expectStatus(
      await anonymous('stats-b').social.play({ params: { id: track.id }, body: { duration_listened: 0.5 } }),
      200,
    );
    expectStatus(await fan.api.social.like({ params: { id: track.id } }), 200);
    // two live comments (one a reply) count; a deleted one does not
    const comment = expectStatus(
      await fan.api.comments.create({ params: { id: track.id }, body: { content: 'Lovely' } }),
      201,
    ).body.data.comment;
    expectStatus(
      await owner.api.comments.create({
        params: { id: track.id },
        body: { content: 'Thanks!', parent_id: comment.id },
      }),
      201,
    );
    const gone = expectStatus(
      await fan.api.comments.create({ params: { id: track.id }, body: { content: 'Oops' } }),
      201,
    ).body.data.comment;
    expectStatus(await fan.api.comments.remove({ params: { id: track.id, comment_id: gone.id } }), 200);
    // a download counts once: from its first byte, not for each later range (straight to the server: the Prism gate may send a binary request twice)
    const download = `${suite.server.origin}/api/v1/tracks/${track.id}/download`;
    expect((await fetch(download)).status).toBe(200);
    expect((await fetch(download, { headers: { range: 'bytes=0-99' } })).status).toBe(206);
    expect((await fetch(download, { headers: { range: 'bytes=100-199' } })).status).toBe(206);

    const stats = expectStatus(await owner.api.social.stats({ params: { id: track.id }, query: { period: '7d' } }), 200)
      .body.data.stats;
    const today = new Date().toISOString().slice(0, 10);
    expect(stats).toMatchObject({
      period: '7d',
      play_count: 2,
      unique_listeners: 2,
      like_count: 1,
      repost_count: 0,
      share_count: 0,
      comment_count: 2,
      download_count: 2,
      sources: { playlist: 1, search: 1 },
    });
    // 3 of the 4 reported plays reached the end
    expect(stats.completion_rate).toBeCloseTo(0.75, 5);
    expect(stats.daily.length).toBeGreaterThanOrEqual(7);
    expect(stats.daily.at(-1)).toEqual({ date: today, plays: 2, likes: 1 });
    expect(stats.daily.slice(0, -1).every((day) => day.plays === 0 && day.likes === 0)).toBe(true);
    expect(expectStatus(await owner.api.tracks.get({ params: { id: track.id } }), 200).body.data.track).toMatchObject({
      play_count: 2,
      like_count: 1,
    });

    const all = expectStatus(await owner.api.social.stats({ params: { id: track.id }, query: { period: 'all' } }), 200)
      .body.data.stats;
    expect(all).toMatchObject({ period: 'all', play_count: 2, like_count: 1 });
    expect(all.daily).toEqual([{ date: today, plays: 2, likes: 1 }]);
    expect(
      expectStatus(await owner.api.social.stats({ params: { id: track.id }, query: {} }), 200).body.data.stats.period,
    ).toBe('30d');
  });

  it('others who see the track get 403, a private one 404; admins see it; a bad period is 400', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const open = await createTrack(suite.server, owner);
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    expect(
      expectStatus(await other.api.social.stats({ params: { id: open.id }, query: {} }), 403).body.error.code,
    ).toBe('FORBIDDEN');
    expectStatus(await other.api.social.stats({ params: { id: hidden.id }, query: {} }), 404);
    expectStatus(await suite.api.social.stats({ params: { id: open.id }, query: {} }), 401);
    const admin = await createAdmin(suite.server);
    expectStatus(await admin.api.social.stats({ params: { id: hidden.id }, query: { period: '90d' } }), 200);
    const bad = await suite.http.get(`/tracks/${open.id}/stats?period=1y`, { token: owner.token });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('play_count and like_count stay hidden from non-owners in lists too', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { title: 'Counted quietly' });
    expectStatus(await fan.api.social.like({ params: { id: track.id } }), 200);
    const listed = expectStatus(await fan.api.tracks.list({ query: { creator_id: owner.id } }), 200).body.data.tracks;
    expect(listed[0]).not.toHaveProperty('like_count');
    const mine = expectStatus(await owner.api.tracks.list({ query: { creator_id: owner.id } }), 200).body.data.tracks;
    expect(mine[0]).toMatchObject({ like_count: 1, play_count: 0 });
    const liked = expectStatus(await suite.api.social.userLikes({ params: { id: fan.id } }), 200).body.data.tracks;
    expect(liked[0]).not.toHaveProperty('like_count');
  });
});
