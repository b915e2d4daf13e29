/**
 * Gear items through the API: creation and its checks, the owner's changes, private
 * items, the 500 per user (under parallel creations), a user's list, the export and the erasure.
 */
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { createGear, createUser } from '../support/factories.js';
import { seedPrivateGear } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

describe('gear items', () => {
  it('POST makes an item (201, public by default); GET, PUT and DELETE are the owner’s', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const created = expectStatus(
      await owner.api.gear.create({
        body: {
          category: 'synth',
          brand: '  Moog ',
          model: 'Subsequent 37',
          nickname: 'The beast',
          year: 2019,
          notes: 'Bass lines',
          acquired_at: '2020-03-14',
        },
      }),
      201,
    ).body.data.gear;
    expect(created).toMatchObject({
      user_id: owner.id,
      category: 'synth',
      brand: 'Moog',
      model: 'Subsequent 37',
      nickname: 'The beast',
      year: 2019,
      notes: 'Bass lines',
      acquired_at: '2020-03-14',
      is_public: true,
      photos: [],
      track_count: 0,
    });
    expect(expectStatus(await other.api.gear.get({ params: { id: created.id } }), 200).body.data.gear.id).toBe(
      created.id,
    );
    expect(expectStatus(await suite.api.gear.get({ params: { id: created.id } }), 200).body.data.gear.brand).toBe(
      'Moog',
    );

    const refused = expectStatus(
      await other.api.gear.update({ params: { id: created.id }, body: { notes: 'mine now' } }),
      403,
    );
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expectStatus(await other.api.gear.remove({ params: { id: created.id } }), 403);

    const updated = expectStatus(
      await owner.api.gear.update({
        params: { id: created.id },
        body: { nickname: null, year: 2020, is_public: false },
      }),
      200,
    ).body.data.gear;
    expect(updated).toMatchObject({ nickname: null, year: 2020, is_public: false, notes: 'Bass lines' });
    // private: its owner's alone
    expect(expectStatus(await other.api.gear.get({ params: { id: created.id } }), 404).body.error.code).toBe(
      'NOT_FOUND',
    );
    expectStatus(await suite.api.gear.get({ params: { id: created.id } }), 404);
    expectStatus(await other.api.gear.update({ params: { id: created.id }, body: { notes: 'x' } }), 404);
    expectStatus(await other.api.gear.remove({ params: { id: created.id } }), 404);
    expectStatus(await owner.api.gear.get({ params: { id: created.id } }), 200);
    // admins see it
    const admin = await createAdmin(suite.server);
    expectStatus(await admin.api.gear.get({ params: { id: created.id } }), 200);

    expectStatus(await owner.api.gear.remove({ params: { id: created.id } }), 200);
    expectStatus(await owner.api.gear.get({ params: { id: created.id } }), 404);
  });

  it('refuses bad input with 400 and a malformed id with 400 INVALID_ID', async () => {
    const owner = await createUser(suite.server);
    const bad = [
      { brand: 'Moog', model: 'X' },
      { category: 'kazoo', brand: 'Moog', model: 'X' },
      { category: 'synth', brand: '', model: 'X' },
      { category: 'synth', brand: 'b'.repeat(101), model: 'X' },
      { category: 'synth', brand: 'Moog', model: 'm'.repeat(101) },
      { category: 'synth', brand: 'Moog', model: 'X', nickname: 'n'.repeat(101) },
      { category: 'synth', brand: 'Moog', model: 'X', year: 1899 },
      { category: 'synth', brand: 'Moog', model: 'X', year: 2101 },
      { category: 'synth', brand: 'Moog', model: 'X', notes: 'n'.repeat(2001) },
      { category: 'synth', brand: 'Moog', model: 'X', acquired_at: '2021-02-30' },
      { category: 'synth', brand: 'Moog', model: 'X', is_public: 'yes' },
    ];
    for (const body of bad) {
      const reply = await suite.http.post('/gear', { body, token: owner.token });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await suite.http.get('/gear/not-a-uuid', { token: owner.token })).body.error.code).toBe('INVALID_ID');
    expect((await suite.http.get('/users/not-a-uuid/gear')).body.error.code).toBe('INVALID_ID');
    const item = await createGear(suite.server, owner);
    const reply = await suite.http.put(`/gear/${item.id}`, { body: { category: 'kazoo' }, token: owner.token });
    expect(reply.status).toBe(400);
    expect((await suite.http.post('/gear', { body: { category: 'synth', brand: 'Moog', model: 'X' } })).status).toBe(
      401,
    );
  });

  it('holds at most 500 items per user, under parallel creations too', async () => {
    const owner = await createUser(suite.server);
    await seedPrivateGear(suite.server, owner.id, 494);
    const replies = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        owner.api.gear.create({ body: { category: 'effect', brand: 'Boss', model: `DS-${i}`, is_public: false } }),
      ),
    );
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(6);
    const refused = replies.filter((reply) => reply.status !== 201);
    expect(refused).toHaveLength(3);
    for (const reply of refused) expect(expectStatus(reply, 400).body.error.code).toBe('LIMIT_REACHED');
    const listed = expectStatus(await owner.api.gear.userGear({ params: { id: owner.id }, query: { limit: 1 } }), 200)
      .body.data;
    expect(listed.pagination.total).toBe(500);
  });

  it('GET /users/{id}/gear: all of one’s own, another’s public items, nothing of a blocked or deactivated profile', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const synth = await createGear(suite.server, owner);
    const mic = await createGear(suite.server, owner, { category: 'microphone', brand: 'Shure', model: 'SM7B' });
    const secret = await createGear(suite.server, owner, { brand: 'Roland', model: 'Juno-60', is_public: false });

    const own = expectStatus(await owner.api.gear.userGear({ params: { id: owner.id }, query: {} }), 200).body.data;
    expect(own.gear.map((item) => item.id)).toEqual([secret.id, mic.id, synth.id]);
    const seen = expectStatus(await other.api.gear.userGear({ params: { id: owner.id }, query: {} }), 200).body.data;
    expect(seen.gear.map((item) => item.id)).toEqual([mic.id, synth.id]);
    expect(seen.pagination).toMatchObject({ total: 2, page: 1, limit: 20, total_pages: 1 });
    const mics = expectStatus(
      await suite.api.gear.userGear({ params: { id: owner.id }, query: { category: 'microphone' } }),
      200,
    ).body.data;
    expect(mics.gear.map((item) => item.id)).toEqual([mic.id]);
    expect((await suite.http.get(`/users/${owner.id}/gear?category=kazoo`)).status).toBe(400);

    // a block either way hides the profile's gear, and its items
    expectStatus(await other.api.users.block({ params: { id: owner.id } }), 200);
    expectStatus(await other.api.gear.userGear({ params: { id: owner.id }, query: {} }), 404);
    expectStatus(await owner.api.gear.userGear({ params: { id: other.id }, query: {} }), 404);
    expectStatus(await other.api.gear.get({ params: { id: synth.id } }), 404);
    expectStatus(await other.api.users.unblock({ params: { id: owner.id } }), 200);
    expectStatus(await other.api.gear.get({ params: { id: synth.id } }), 200);

    // a deactivated account's gear is no one's to see
    expectStatus(await owner.api.users.remove({ params: { id: owner.id } }), 200);
    expectStatus(await other.api.gear.userGear({ params: { id: owner.id }, query: {} }), 404);
    expectStatus(await other.api.gear.get({ params: { id: synth.id } }), 404);
  });

  it('exports every item and erases them with the account', async () => {
    const owner = await createUser(suite.server);
    const kept = await createGear(suite.server, owner, { is_public: false, brand: 'Neumann', model: 'U 87' });
    const exported = await suite.http.get('/users/me/export', { token: owner.token });
    expect(exported.status).toBe(200);
    expect(exported.body.gear.map((item: { id: string }) => item.id)).toEqual([kept.id]);

    expectStatus(
      await owner.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: owner.password } }),
      200,
    );
    const admin = await createAdmin(suite.server);
    expectStatus(await admin.api.gear.get({ params: { id: kept.id } }), 404);
    const entry = await suite.server.riff.database.db
      .selectFrom('audit_logs')
      .select('metadata')
      .where('user_id', '=', owner.id)
      .where('action', '=', 'user.deleted')
      .executeTakeFirstOrThrow();
    expect(entry.metadata).toMatchObject({ removed_gear: 1, removed_gear_photos: 0 });
  });

  it('records gear.created, gear.updated and gear.deleted in the audit log', async () => {
    const owner = await createUser(suite.server);
    const item = await createGear(suite.server, owner);
    expectStatus(await owner.api.gear.update({ params: { id: item.id }, body: { year: 2018 } }), 200);
    expectStatus(await owner.api.gear.remove({ params: { id: item.id } }), 200);
    const actions = await suite.server.riff.database.db
      .selectFrom('audit_logs')
      .select(['action', 'metadata'])
      .where('resource_id', '=', item.id)
      .orderBy('created_at')
      .execute();
    expect(actions.map((row) => row.action)).toEqual(['gear.created', 'gear.updated', 'gear.deleted']);
    expect(actions[1]!.metadata).toEqual({ fields: ['year'] });
  });
});
