/**
 * X-Total-Count of GET /marketplace/products without a count over the catalogue (issue 15,
 * migration 0017): the list of a status (and type) is counted from deltas the products' triggers
 * append, folded by a periodic job. What a user sees: the header is the exact number of products
 * the list holds, whatever changed them (creation, publication, an edit, archiving, deletion,
 * the seller's account erased, writers at the same time).
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createModerator } from '../support/moderation.js';
import { runJob } from '../support/jobs.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct } from './product-helpers.js';

const suite = useTestServer();
const db = () => suite.server.riff.database.db;
// on PostgreSQL other test files change products at the same time; this file's own database (PGlite) is still
const ownDatabase = () => suite.server.riff.database.kind === 'pglite';

/**
 * The (status, type, moderation status) keys whose summed deltas differ from the products there are, in one statement:
 * one snapshot, so writers elsewhere cannot make it disagree.
 */
async function disagreements() {
  const { rows } = await sql<{ key: string; counted: number; summed: number }>`
    select coalesce(c.key, d.key) as key, coalesce(c.counted, 0)::int as counted, coalesce(d.summed, 0)::int as summed
    from (select concat_ws('/', status, product_type, moderation_status) as key, count(*) as counted
          from products group by 1) c
    full join (select concat_ws('/', status, product_type, moderation_status) as key, sum(delta) as summed
          from product_count_deltas group by 1) d on c.key = d.key
    where coalesce(c.counted, 0) <> coalesce(d.summed, 0)`.execute(db());
  return rows;
}

async function listed(user: TestUser, query: { type?: 'track' | 'pack' | 'service' } = {}) {
  const reply = expectStatus(await user.api.marketplace.listProducts({ query: { ...query, limit: 100 } }), 200);
  return Number(reply.headers.get('x-total-count'));
}

async function counted(type?: string) {
  let query = db()
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'active')
    .where('moderation_status', '=', 'visible');
  if (type) query = query.where('product_type', '=', type as 'pack');
  return Number((await query.executeTakeFirstOrThrow()).count);
}

describe('the product list total', () => {
  it('stays exact through creation, publication, an edit, archiving, deletion and an erased seller', async () => {
    const seller = await createUser(suite.server);
    const buyer = await createUser(suite.server);
    const before = { all: await listed(buyer), services: await listed(buyer, { type: 'service' }) };

    const draft = await createProduct(seller, { title: 'Counted draft', product_type: 'service' });
    const pack = await createProduct(seller, { title: 'Counted pack' }, 'active');
    const service = await createProduct(seller, { title: 'Counted service', product_type: 'service' }, 'active');
    if (ownDatabase()) {
      expect(await listed(buyer)).toBe(before.all + 2);
      expect(await listed(buyer, { type: 'service' })).toBe(before.services + 1);
    }

    // the draft published, the pack edited (counts unchanged), the service archived, then the pack deleted
    expectStatus(
      await seller.api.marketplace.updateProduct({ params: { id: draft.id }, body: { status: 'active' } }),
      200,
    );
    expectStatus(
      await seller.api.marketplace.updateProduct({
        params: { id: pack.id },
        body: { title: 'Counted pack, edited', price: 9 },
      }),
      200,
    );
    if (ownDatabase()) {
      expect(await listed(buyer)).toBe(before.all + 3);
      expect(await listed(buyer, { type: 'service' })).toBe(before.services + 2);
    }
    expectStatus(
      await seller.api.marketplace.updateProduct({ params: { id: service.id }, body: { status: 'archived' } }),
      200,
    );
    expectStatus(await seller.api.marketplace.deleteProduct({ params: { id: pack.id } }), 200);
    if (ownDatabase()) {
      expect(await listed(buyer)).toBe(before.all + 1);
      expect(await listed(buyer, { type: 'service' })).toBe(before.services + 1);
      expect(await listed(buyer, { type: 'pack' })).toBe(await counted('pack'));
      expect(await listed(buyer)).toBe(await counted());
    }
    expect(await disagreements()).toEqual([]);

    expectStatus(
      await seller.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: seller.password } }),
      200,
    );
    if (ownDatabase()) expect(await listed(buyer)).toBe(before.all);
    expect(await disagreements()).toEqual([]);
  });

  it('stays exact under concurrent writers, and the fold leaves one row per key with the same sums', async () => {
    const sellers = await Promise.all(Array.from({ length: 4 }, () => createUser(suite.server)));
    await Promise.all(
      sellers.flatMap((seller, index) =>
        Array.from({ length: 5 }, async (_, n) => {
          const product = await createProduct(
            seller,
            { title: `Concurrent ${index}-${n}`, product_type: n % 2 ? 'service' : 'pack' },
            'active',
          );
          if (n === 0)
            await seller.api.marketplace.updateProduct({ params: { id: product.id }, body: { status: 'archived' } });
          if (n === 1) await seller.api.marketplace.deleteProduct({ params: { id: product.id } });
        }),
      ),
    );
    expect(await disagreements()).toEqual([]);
    const totalsBefore = ownDatabase()
      ? [await listed(sellers[0]!), await listed(sellers[0]!, { type: 'service' })]
      : [];

    await runJob(suite.server, 'marketplace.fold-product-counts');
    expect(await disagreements()).toEqual([]);
    if (ownDatabase()) {
      const { rows } = await sql<{
        rows: number;
      }>`select count(*)::int as rows from product_count_deltas group by status, product_type, moderation_status`.execute(
        db(),
      );
      expect(rows.every((row) => row.rows === 1)).toBe(true);
      expect([await listed(sellers[0]!), await listed(sellers[0]!, { type: 'service' })]).toEqual(totalsBefore);
      expect(totalsBefore).toEqual([await counted(), await counted('service')]);
    }
  });

  it('leaves out what moderation hid, for everyone but its seller and staff, and counts it again once restored', async () => {
    const [seller, buyer, moderator] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createModerator(suite.server),
    ]);
    const product = await createProduct(seller, { title: 'Moderated count', product_type: 'service' }, 'active');
    const totals = async () => ({
      buyer: await listed(buyer, { type: 'service' }),
      seller: await listed(seller, { type: 'service' }),
      staff: await listed(moderator, { type: 'service' }),
    });
    const moderate = async (action: 'hide' | 'restore') =>
      expect(
        (
          await suite.http.post(`/moderation/content/product/${product.id}/${action}`, {
            token: moderator.accessToken,
            body: { note: 'Counted' },
          })
        ).status,
      ).toBe(200);
    const before = await totals();
    await moderate('hide');
    const hidden = await totals();
    expect(await disagreements()).toEqual([]);
    if (ownDatabase()) {
      expect(hidden).toEqual({ buyer: before.buyer - 1, seller: before.seller, staff: before.staff });
      expect(hidden.buyer).toBe(await counted('service'));
    }
    const page = expectStatus(
      await buyer.api.marketplace.listProducts({ query: { type: 'service', limit: 100 } }),
      200,
    );
    expect(page.body.map((item) => item.id)).not.toContain(product.id);
    await moderate('restore');
    if (ownDatabase()) expect(await totals()).toEqual(before);
    expect(await disagreements()).toEqual([]);
  });
});
