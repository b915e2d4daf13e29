/**
 * The gear a track was made with: PUT /tracks/{id}/gear by the track's owner from
 * their own items (at most 30), GET /tracks/{id}/gear (public items; to the owner all), track_count,
 * and a deleted track's links gone.
 */
import { describe, expect, it } from 'vitest';
import { createGear, createTrack, createUser } from '../support/factories.js';
import { seedPrivateGear } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

describe('gear on tracks', () => {
  it('the owner sets a track’s gear from their own items; others see its public items', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const synth = await createGear(suite.server, owner);
    const secret = await createGear(suite.server, owner, { brand: 'Roland', model: 'TR-808', is_public: false });
    const theirs = await createGear(suite.server, other, { brand: 'Shure', model: 'SM58' });

    const set = expectStatus(
      await owner.api.gear.setTrackGear({
        params: { id: track.id },
        body: { gear_ids: [synth.id, secret.id, synth.id] },
      }),
      200,
    ).body.data.gear;
    expect(set.map((item) => item.id).sort()).toEqual([synth.id, secret.id].sort());
    expect(set.every((item) => item.track_count === 1)).toBe(true);

    const seen = expectStatus(await other.api.gear.trackGear({ params: { id: track.id } }), 200).body.data.gear;
    expect(seen.map((item) => item.id)).toEqual([synth.id]);
    expect(expectStatus(await suite.api.gear.trackGear({ params: { id: track.id } }), 200).body.data.gear).toHaveLength(
      1,
    );
    expect(expectStatus(await owner.api.gear.trackGear({ params: { id: track.id } }), 200).body.data.gear).toHaveLength(
      2,
    );
    expect(expectStatus(await other.api.gear.get({ params: { id: synth.id } }), 200).body.data.gear.track_count).toBe(
      1,
    );

    // another user's item, an unknown one: 404, and nothing changes
    const foreign = expectStatus(
      await owner.api.gear.setTrackGear({ params: { id: track.id }, body: { gear_ids: [synth.id, theirs.id] } }),
      404,
    );
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expectStatus(
      await owner.api.gear.setTrackGear({
        params: { id: track.id },
        body: { gear_ids: ['00000000-0000-4000-8000-000000000000'] },
      }),
      404,
    );
    expect(expectStatus(await owner.api.gear.trackGear({ params: { id: track.id } }), 200).body.data.gear).toHaveLength(
      2,
    );

    // another's visible track: 403; another's private track: 404
    const refused = expectStatus(
      await other.api.gear.setTrackGear({ params: { id: track.id }, body: { gear_ids: [theirs.id] } }),
      403,
    );
    expect(refused.body.error.code).toBe('FORBIDDEN');
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    expectStatus(await other.api.gear.setTrackGear({ params: { id: hidden.id }, body: { gear_ids: [] } }), 404);
    expectStatus(await other.api.gear.trackGear({ params: { id: hidden.id } }), 404);

    // an empty list clears the set
    expect(
      expectStatus(await owner.api.gear.setTrackGear({ params: { id: track.id }, body: { gear_ids: [] } }), 200).body
        .data.gear,
    ).toEqual([]);
  });

  it('refuses more than 30 items with 400 LIMIT_REACHED', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const ids = await seedPrivateGear(suite.server, owner.id, 31);
    const refused = expectStatus(
      await owner.api.gear.setTrackGear({ params: { id: track.id }, body: { gear_ids: ids } }),
      400,
    );
    expect(refused.body.error.code).toBe('LIMIT_REACHED');
    const thirty = expectStatus(
      await owner.api.gear.setTrackGear({ params: { id: track.id }, body: { gear_ids: ids.slice(0, 30) } }),
      200,
    );
    expect(thirty.body.data.gear).toHaveLength(30);
  });

  it('a deleted track no longer counts nor shows its gear; a deleted item leaves the track', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const kept = await createTrack(suite.server, owner);
    const synth = await createGear(suite.server, owner);
    const mic = await createGear(suite.server, owner, { category: 'microphone', brand: 'Shure', model: 'SM7B' });
    expectStatus(await owner.api.gear.setTrackGear({ params: { id: track.id }, body: { gear_ids: [synth.id] } }), 200);
    expectStatus(
      await owner.api.gear.setTrackGear({ params: { id: kept.id }, body: { gear_ids: [synth.id, mic.id] } }),
      200,
    );
    expect(expectStatus(await owner.api.gear.get({ params: { id: synth.id } }), 200).body.data.gear.track_count).toBe(
      2,
    );

    expectStatus(await owner.api.tracks.remove({ params: { id: track.id } }), 200);
    expect(expectStatus(await owner.api.gear.get({ params: { id: synth.id } }), 200).body.data.gear.track_count).toBe(
      1,
    );
    expectStatus(await owner.api.gear.trackGear({ params: { id: track.id } }), 404);

    expectStatus(await owner.api.gear.remove({ params: { id: mic.id } }), 200);
    const left = expectStatus(await owner.api.gear.trackGear({ params: { id: kept.id } }), 200).body.data.gear;
    expect(left.map((item) => item.id)).toEqual([synth.id]);
  });
});
