/**
 * A seller's promo codes through the API (ADDENDUM Part 2 "Marketplace"): the reply shape (not
 * enveloped), the rules of a code, uniqueness without case per seller, products of one's own,
 * listing and deleting, and that another user sees none of it.
 */
import { describe, expect, it } from 'vitest';
import type { PromoCode } from '@riff/contract';
import { createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct } from './product-helpers.js';

const suite = useTestServer({ WORKERS: '0' });

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const FIELDS = [
  'amount_off_cents',
  'code',
  'created_at',
  'currency',
  'expires_at',
  'id',
  'max_redemptions',
  'percent_off',
  'product_ids',
  'redemption_count',
];

async function create(user: TestUser, body: Record<string, unknown>): Promise<PromoCode> {
  return expectStatus(await user.api.marketplace.createPromoCode({ body: body as never }), 201).body;
}

async function refused(user: TestUser, body: Record<string, unknown>) {
  const reply = await suite.http.post('/marketplace/promo-codes', { body, token: user.token });
  return {
    status: reply.status,
    code: reply.body?.error?.code as string | undefined,
    fields: (reply.body?.error?.details ?? []).map((d: { field: string }) => d.field),
  };
}

async function listOf(user: TestUser): Promise<PromoCode[]> {
  return expectStatus(await user.api.marketplace.listPromoCodes(), 200).body;
}

describe('creating promo codes', () => {
  it('a percent-off code answers 201 with the PromoCode itself, not enveloped', async () => {
    const seller = await createUser(suite.server);
    const before = Date.now();
    const code = await create(seller, { code: 'Summer25', percent_off: 25 });
    expect(Object.keys(code).sort()).toEqual(FIELDS);
    expect(code).toMatchObject({
      code: 'Summer25',
      percent_off: 25,
      amount_off_cents: null,
      currency: null,
      product_ids: [],
      max_redemptions: null,
      redemption_count: 0,
      expires_at: null,
    });
    expect(code.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(code.created_at)).toBeGreaterThanOrEqual(before - 5000);
    const raw = await suite.http.get('/marketplace/promo-codes', { token: seller.token });
    expect(raw.body).toEqual([code]);
  });

  it('an amount-off code keeps integer cents and its currency (USD by default), limits, expiry and the seller’s products', async () => {
    const seller = await createUser(suite.server);
    const [first, second] = [await createProduct(seller, {}, 'active'), await createProduct(seller)];
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const code = await create(seller, {
      code: 'TAKE-200',
      amount_off_cents: 200,
      currency: 'EUR',
      product_ids: [second.id, first.id, first.id],
      max_redemptions: 5,
      expires_at: expires,
    });
    expect(code).toMatchObject({
      amount_off_cents: 200,
      percent_off: null,
      currency: 'EUR',
      max_redemptions: 5,
      expires_at: expires,
      redemption_count: 0,
    });
    expect(code.product_ids).toEqual([first.id, second.id].sort());
    const usd = await create(seller, { code: 'TAKE_100', amount_off_cents: 100 });
    expect(usd.currency).toBe('USD');
    // an offset in expires_at is read as the instant it names
    const offset = await create(seller, { code: 'later', percent_off: 5, expires_at: '2099-01-01T10:00:00+02:00' });
    expect(offset.expires_at).toBe('2099-01-01T08:00:00.000Z');
  });

  it('the code is unique per seller without regard to case (409 CONFLICT); another seller may use the same', async () => {
    const seller = await createUser(suite.server);
    const rival = await createUser(suite.server);
    await create(seller, { code: 'BLACKFRIDAY', percent_off: 30 });
    expect(await refused(seller, { code: 'blackFriday', amount_off_cents: 500, currency: 'USD' })).toMatchObject({
      status: 409,
      code: 'CONFLICT',
    });
    expect(await refused(seller, { code: '  blackfriday ', percent_off: 10 })).toMatchObject({
      status: 409,
      code: 'CONFLICT',
    });
    expect((await create(rival, { code: 'blackfriday', percent_off: 10 })).code).toBe('blackfriday');
    expect(await listOf(seller)).toHaveLength(1);
  });

  it('refuses bad input with 400 and creates nothing', async () => {
    const seller = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const theirs = await createProduct(stranger, {}, 'active');
    const mine = await createProduct(seller, {}, 'active');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ code: 'AB', percent_off: 10 }, 'code'],
      [{ code: 'X'.repeat(51), percent_off: 10 }, 'code'],
      [{ code: 'has space', percent_off: 10 }, 'code'],
      [{ code: 'NONE' }, 'percent_off'],
      [{ code: 'BOTH', percent_off: 10, amount_off_cents: 100 }, 'percent_off'],
      [{ code: 'ZERO', percent_off: 0 }, 'percent_off'],
      [{ code: 'OVER', percent_off: 101 }, 'percent_off'],
      [{ code: 'HALF', percent_off: 12.5 }, 'percent_off'],
      [{ code: 'NEG', amount_off_cents: -5, currency: 'USD' }, 'amount_off_cents'],
      [{ code: 'FRACTION', amount_off_cents: 19.99, currency: 'USD' }, 'amount_off_cents'],
      [{ code: 'LOWER', amount_off_cents: 100, currency: 'usd' }, 'currency'],
      [{ code: 'EURO', amount_off_cents: 100, currency: 'EURO' }, 'currency'],
      [{ code: 'NOPE', amount_off_cents: 100, currency: 'QQQ' }, 'currency'],
      [{ code: 'PCTCUR', percent_off: 10, currency: 'USD' }, 'currency'],
      [{ code: 'PAST', percent_off: 10, expires_at: new Date(Date.now() - 60_000).toISOString() }, 'expires_at'],
      [{ code: 'NOTADATE', percent_off: 10, expires_at: 'tomorrow' }, 'expires_at'],
      [{ code: 'MAXZERO', percent_off: 10, max_redemptions: 0 }, 'max_redemptions'],
      [{ code: 'BADID', percent_off: 10, product_ids: ['nope'] }, 'product_ids.0'],
      [{ code: 'THEIRS', percent_off: 10, product_ids: [mine.id, theirs.id] }, 'product_ids'],
      [{ code: 'GHOST', percent_off: 10, product_ids: [UNKNOWN] }, 'product_ids'],
    ];
    const wrong: string[] = [];
    for (const [body, field] of cases) {
      const reply = await refused(seller, body);
      if (reply.status !== 400 || reply.code !== 'VALIDATION_FAILED' || !reply.fields.includes(field))
        wrong.push(`${JSON.stringify(body)}: ${JSON.stringify(reply)}`);
    }
    expect(wrong).toEqual([]);
    expect(await listOf(seller)).toEqual([]);
    expect(
      (await suite.http.post('/marketplace/promo-codes', { body: { code: 'ANON', percent_off: 10 } })).status,
    ).toBe(401);
  });
});

describe('listing and deleting', () => {
  it('the seller lists their own codes, newest first, as a plain array; others see only theirs', async () => {
    const seller = await createUser(suite.server);
    const other = await createUser(suite.server);
    const first = await create(seller, { code: 'FIRST', percent_off: 5 });
    const second = await create(seller, { code: 'SECOND', percent_off: 10 });
    expect((await listOf(seller)).map((code) => code.id)).toEqual([second.id, first.id]);
    expect(await listOf(other)).toEqual([]);
  });

  it('DELETE is the seller’s (204); another user’s code is 404 and stays; a deleted code is gone and its text free again', async () => {
    const seller = await createUser(suite.server);
    const other = await createUser(suite.server);
    const code = await create(seller, { code: 'GONE', percent_off: 5 });
    const foreign = await other.api.marketplace.removePromoCode({ params: { id: code.id } });
    expect([foreign.status, (foreign.body as { error?: { code: string } }).error?.code]).toEqual([404, 'NOT_FOUND']);
    expect(await listOf(seller)).toEqual([code]);
    const removed = await seller.api.marketplace.removePromoCode({ params: { id: code.id } });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(await listOf(seller)).toEqual([]);
    expect((await seller.api.marketplace.removePromoCode({ params: { id: code.id } })).status).toBe(404);
    expect((await seller.api.marketplace.removePromoCode({ params: { id: UNKNOWN } })).status).toBe(404);
    const invalidId = await suite.http.delete('/marketplace/promo-codes/not-a-uuid', { token: seller.token });
    expect([invalidId.status, invalidId.body?.error?.code]).toEqual([400, 'INVALID_ID']);
    expect((await create(seller, { code: 'gone', percent_off: 5 })).code).toBe('gone');
  });
});
