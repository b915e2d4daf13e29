/**
 * Gear discovery: search over public items (typos and accents tolerated), the most
 * owned models (brand and model in a normal form) and their owners, never counting or showing
 * private items, blocked users either way, or deactivated and banned accounts. Every test names its
 * own models (a random tag), so the rows of other tests on a shared database never count.
 */
import { randomInt } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { createGear, createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

/** A word no other row holds: letters only, so it is one token with trigrams. */
const tag = () => Array.from({ length: 9 }, () => String.fromCharCode(97 + randomInt(26))).join('');

/** Items deleted when the test ends, so the per-model counts of a shared database go back. */
async function gearOf(owner: TestUser, fields: Parameters<typeof createGear>[2]) {
  const item = await createGear(suite.server, owner, fields);
  onTestFinished(async () => void (await owner.api.gear.remove({ params: { id: item.id } })));
  return item;
}

async function popularAs(user: TestUser | undefined, brandModel: (item: { brand: string; model: string }) => boolean) {
  const api = user?.api ?? suite.api;
  const items = expectStatus(await api.gear.popular({ query: { category: 'plugin', limit: 100 } }), 200).body.data
    .items;
  return items.filter(brandModel);
}

describe('gear search', () => {
  it('finds public items by brand, model or nickname, with typos and without accents', async () => {
    const word = tag();
    const owner = await createUser(suite.server);
    const viewer = await createUser(suite.server);
    const moog = await gearOf(owner, { brand: 'Moog', model: `Subsequent 37 ${word}` });
    const korg = await gearOf(owner, { brand: 'Korg', model: `Mínilogue ${word}`, nickname: 'Little one' });
    await gearOf(owner, { brand: 'Moog', model: `Subsequent 25 ${word}`, is_public: false });

    // null: signed out
    const search = async (q: string, user: TestUser | null = viewer) =>
      expectStatus(await (user?.api ?? suite.api).gear.search({ query: { q } }), 200).body.data;
    expect((await search(`moog subsequnt ${word}`)).gear.map((item) => item.id)).toEqual([moog.id]);
    expect((await search(`MOOG Subsequent ${word}`, null)).gear.map((item) => item.id)).toEqual([moog.id]);
    expect((await search(`minilogue ${word}`)).gear.map((item) => item.id)).toEqual([korg.id]);
    expect((await search(`Mînilogué ${word}`)).gear.map((item) => item.id)).toEqual([korg.id]);
    expect((await search(`little ${word}`)).gear.map((item) => item.id)).toEqual([korg.id]);
    const all = await search(word);
    expect(all.gear.map((item) => item.id).sort()).toEqual([moog.id, korg.id].sort());
    expect(all.pagination).toMatchObject({ total: 2, page: 1 });
    const synths = expectStatus(await viewer.api.gear.search({ query: { q: word, category: 'keys' } }), 200).body.data;
    expect(synths.gear).toEqual([]);
    // the owner's private item is not searchable, even for them
    expect((await search(`subsequent 25 ${word}`, owner)).gear).toEqual([]);

    // blocked either way: nothing of theirs
    expectStatus(await viewer.api.users.block({ params: { id: owner.id } }), 200);
    expect((await search(word)).gear).toEqual([]);
    expect((await search(word, owner)).gear).toHaveLength(2);
    expectStatus(await viewer.api.users.unblock({ params: { id: owner.id } }), 200);
    expectStatus(await owner.api.users.block({ params: { id: viewer.id } }), 200);
    expect((await search(word)).gear).toEqual([]);
    expect((await search(word, null)).gear).toHaveLength(2);
    expect((await suite.http.get('/gear/search')).status).toBe(400);
  });

  it('leaves out a banned account’s items', async () => {
    const word = tag();
    const owner = await createUser(suite.server);
    await gearOf(owner, { brand: 'Elektron', model: `Digitakt ${word}` });
    expect(expectStatus(await suite.api.gear.search({ query: { q: word } }), 200).body.data.gear).toHaveLength(1);
    const admin = await createAdmin(suite.server);
    expectStatus(await admin.api.sanctions.ban({ params: { id: owner.id }, body: { reason: 'Spam' } }), 201);
    expect(expectStatus(await suite.api.gear.search({ query: { q: word } }), 200).body.data.gear).toEqual([]);
  });
});

describe('popular gear and owners', () => {
  it('counts distinct owners of a model in its normal form, public items of visible unblocked accounts only', async () => {
    const word = tag();
    const [ana, ben, cat, dan, viewer] = (await Promise.all(
      Array.from({ length: 5 }, () => createUser(suite.server)),
    )) as [TestUser, TestUser, TestUser, TestUser, TestUser];
    const mine = (item: { brand: string; model: string }) => item.model.toLowerCase().includes(word);
    // one model, written four ways, two of them by the same owner
    await gearOf(ana!, { category: 'plugin', brand: 'Moog', model: `Subsequent  37 ${word}` });
    await gearOf(ana!, { category: 'plugin', brand: 'moog', model: `subsequent 37 ${word}` });
    await gearOf(ben!, { category: 'plugin', brand: ' Möog', model: `Subsequent 37   ${word.toUpperCase()}` });
    // a private item does not count
    await gearOf(cat!, { category: 'plugin', brand: 'Moog', model: `Subsequent 37 ${word}`, is_public: false });
    // another model with one owner
    await gearOf(dan!, { category: 'plugin', brand: 'Arturia', model: `Pigments ${word}` });

    expect(await popularAs(viewer, mine)).toEqual([
      { brand: 'Moog', model: `Subsequent  37 ${word}`, category: 'plugin', owners: 2 },
      { brand: 'Arturia', model: `Pigments ${word}`, category: 'plugin', owners: 1 },
    ]);
    const owners = expectStatus(
      await viewer.api.gear.owners({ query: { brand: 'MOOG', model: `subsequent 37 ${word}` } }),
      200,
    ).body.data;
    expect(owners.users.map((user) => user.id)).toEqual([ben!.id, ana!.id]);
    expect(owners.pagination).toMatchObject({ total: 2, page: 1 });
    const paged = expectStatus(
      await viewer.api.gear.owners({ query: { brand: 'moog', model: `Subsequent 37 ${word}`, limit: 1, page: 2 } }),
      200,
    ).body.data;
    expect(paged.users.map((user) => user.id)).toEqual([ana!.id]);

    // a blocked user's items count for no one on either side of the block
    expectStatus(await viewer.api.users.block({ params: { id: ben!.id } }), 200);
    expect((await popularAs(viewer, mine)).map((item) => item.owners)).toEqual([1, 1]);
    expect(
      expectStatus(
        await viewer.api.gear.owners({ query: { brand: 'moog', model: `subsequent 37 ${word}` } }),
        200,
      ).body.data.users.map((user) => user.id),
    ).toEqual([ana!.id]);
    expect((await popularAs(undefined, mine)).map((item) => item.owners)).toEqual([2, 1]);
    expectStatus(await dan!.api.users.block({ params: { id: viewer.id } }), 200);
    expect((await popularAs(viewer, mine)).map((item) => item.owners)).toEqual([1]);

    // a change of the item moves it between models; making it private takes it off
    const anaItems = expectStatus(await ana!.api.gear.userGear({ params: { id: ana!.id }, query: {} }), 200).body.data
      .gear;
    for (const item of anaItems) {
      expectStatus(await ana!.api.gear.update({ params: { id: item.id }, body: { is_public: false } }), 200);
    }
    // ties in the order of the models' normal form
    expect((await popularAs(undefined, mine)).map((item) => [item.model, item.owners])).toEqual([
      [`Pigments ${word}`, 1],
      [`Subsequent  37 ${word}`, 1],
    ]);

    // a deactivated account no longer counts
    expectStatus(await ben!.api.users.remove({ params: { id: ben!.id } }), 200);
    expect((await popularAs(undefined, mine)).map((item) => item.model)).toEqual([`Pigments ${word}`]);
    expect(
      expectStatus(await suite.api.gear.owners({ query: { brand: 'moog', model: `subsequent 37 ${word}` } }), 200).body
        .data.users,
    ).toEqual([]);
  });

  it('a suspended account leaves search, owners and the counts until the suspension is lifted', async () => {
    const word = tag();
    const owner = await createUser(suite.server);
    const mine = (item: { model: string }) => item.model.includes(word);
    await gearOf(owner, { category: 'plugin', brand: 'Soundtoys', model: `Decapitator ${word}` });
    const admin = await createAdmin(suite.server);
    expectStatus(
      await admin.api.sanctions.suspend({
        params: { id: owner.id },
        body: { reason: 'Spam', until: new Date(Date.now() + 30 * 86_400_000).toISOString() },
      }),
      201,
    );
    expect(await popularAs(undefined, mine)).toEqual([]);
    expect(expectStatus(await suite.api.gear.search({ query: { q: word } }), 200).body.data.gear).toEqual([]);
    const owners = await suite.api.gear.owners({ query: { brand: 'soundtoys', model: `decapitator ${word}` } });
    expect(expectStatus(owners, 200).body.data.users).toEqual([]);
    expectStatus(await admin.api.sanctions.unsuspend({ params: { id: owner.id } }), 200);
    expect((await popularAs(undefined, mine)).map((item) => item.owners)).toEqual([1]);
    expect(expectStatus(await suite.api.gear.search({ query: { q: word } }), 200).body.data.gear).toHaveLength(1);
  });

  it('a banned account leaves the counts and comes back when unbanned', async () => {
    const word = tag();
    const owner = await createUser(suite.server);
    const mine = (item: { model: string }) => item.model.includes(word);
    await gearOf(owner, { category: 'plugin', brand: 'Valhalla', model: `Supermassive ${word}` });
    expect((await popularAs(undefined, mine)).map((item) => item.owners)).toEqual([1]);
    const admin = await createAdmin(suite.server);
    expectStatus(await admin.api.sanctions.ban({ params: { id: owner.id }, body: { reason: 'Spam' } }), 201);
    expect(await popularAs(undefined, mine)).toEqual([]);
    expectStatus(await admin.api.sanctions.unban({ params: { id: owner.id } }), 200);
    expect((await popularAs(undefined, mine)).map((item) => item.owners)).toEqual([1]);
  });

  it('validates its queries', async () => {
    expect((await suite.http.get('/gear/popular?limit=101')).status).toBe(400);
    expect((await suite.http.get('/gear/popular?category=kazoo')).status).toBe(400);
    expect((await suite.http.get('/gear/owners?brand=moog')).status).toBe(400);
  });
});
