import { describe, expect, it } from 'vitest';
import { signSandboxDelivery, sandboxSecret } from '../../server/src/modules/marketplace/payments/sandbox-provider.js';
import { lapsePaymentWindow } from '../support/backdate.js';
import { createUser } from '../support/factories.js';
import { runJob } from '../support/jobs.js';
import { waitForMail } from '../support/mail.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import {
  createProduct,
  createPromoCode,
  errorOf,
  eventually,
  orderRow,
  payInSandbox,
  productRow,
} from './order-helpers.js';

const suite = useTestServer();
const db = () => suite.server.riff.database.db;
const webhookUrl = () => `${suite.server.directUrl}/api/v1/marketplace/payments/webhook`;

/** A sandbox event signed with the service's key, as the sandbox itself sends it. */
function signed(event: object, secret = sandboxSecret(suite.server.riff.platform.keys.key('payment-sandbox'))) {
  const body = JSON.stringify(event);
  const id = (event as { id: string }).id;
  return { body, headers: signSandboxDelivery(secret, id, body, Math.floor(Date.now() / 1000)) };
}

describe('a purchase through the sandbox', () => {
  it('order → checkout page → succeed → signed event delivered by the job → completed, licensed, counted, mailed, downloadable', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const product = await createProduct(suite.server, seller, {
      title: 'Drum kit',
      priceCents: 1999,
      file: { bytes: Buffer.from('the drum kit bytes'), name: 'drum-kit.zip', contentType: 'application/zip' },
    });
    const promoId = await createPromoCode(suite.server, seller, {
      code: 'KIT',
      amount_off_cents: 200,
      max_redemptions: 5,
    });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }], promo_code: 'KIT' } }),
      201,
    ).body;
    expect(errorOf(await buyer.api.marketplace.download({ params: { product_id: product.id } }))).toEqual([
      403,
      'NO_LICENSE',
    ]);

    const page = await fetch(order.payment.checkout_url!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('17.99 USD');
    expect(html).toContain('?outcome=succeed');
    expect(html).toContain('?outcome=fail');
    // the page alone changes nothing
    expect((await orderRow(suite.server, order.id)).status).toBe('pending');

    const paid = await payInSandbox(suite.server, buyer.api, order, 'succeed');
    expect(paid).toMatchObject({
      status: 'completed',
      payment_status: 'succeeded',
      total_amount: 17.99,
      payment: { checkout_url: null },
    });
    expect(paid.payment_provider_payment_id).toMatch(/^sbxpay_/);
    expect(new Date(paid.refund_deadline!).getTime() - new Date(paid.completed_at!).getTime()).toBe(14 * 86_400_000);
    const grants = await db().selectFrom('license_grants').selectAll().where('order_id', '=', order.id).execute();
    expect(grants.map((grant) => [grant.buyer_id, grant.product_id, grant.revoked_at])).toEqual([
      [buyer.id, product.id, null],
    ]);
    expect((await productRow(suite.server, product.id)).sales_count).toBe(1);
    expect(
      (
        await db()
          .selectFrom('promo_codes')
          .select('redemption_count')
          .where('id', '=', promoId)
          .executeTakeFirstOrThrow()
      ).redemption_count,
    ).toBe(1);
    const receipt = await waitForMail(suite.server.outboxDir, buyer.email, 'order-receipt', 0, 15_000);
    expect(receipt.text).toContain('Total paid: 17.99 USD');
    const audit = await db()
      .selectFrom('audit_logs')
      .select(['action', 'user_id'])
      .where('resource_id', 'in', [order.id, product.id])
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'order.completed', user_id: buyer.id },
        { action: 'product.sold', user_id: seller.id },
      ]),
    );

    const link = expectStatus(await buyer.api.marketplace.download({ params: { product_id: product.id } }), 200).body;
    expect(link.filename).toBe('drum-kit.zip');
    const file = await fetch(link.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('drum-kit.zip');
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe('the drum kit bytes');
    expect((await productRow(suite.server, product.id)).download_count).toBe(1);
  });

  it('outcome=fail fails the order; the checkout closes; a closed page changes nothing', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const product = await createProduct(suite.server, seller, {
      licenses: [{ license_type: 'exclusive', price_cents: 50000 }],
    });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    const failed = await payInSandbox(suite.server, buyer.api, order, 'fail');
    expect(failed).toMatchObject({ status: 'failed', payment_status: 'failed' });
    // the exclusive hold went with it: another buyer may order
    expect(await db().selectFrom('exclusive_holds').selectAll().where('product_id', '=', product.id).execute()).toEqual(
      [],
    );
    const closed = await fetch(`${order.payment.checkout_url!}?outcome=succeed`);
    expect(await closed.text()).toContain('closed');
    await eventually(
      suite.server,
      () => orderRow(suite.server, order.id),
      (row) => row.status === 'failed',
    );
    expect(await db().selectFrom('license_grants').selectAll().where('order_id', '=', order.id).execute()).toEqual([]);
    const again = await createUser(suite.server);
    expectStatus(await again.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }), 201);
  });

  it('an unknown payment id is 404, a malformed one 400', async () => {
    expect(
      (await fetch(`${suite.server.directUrl}/api/v1/marketplace/sandbox/checkout/sbx_${'0'.repeat(32)}`)).status,
    ).toBe(404);
    expect((await fetch(`${suite.server.directUrl}/api/v1/marketplace/sandbox/checkout/nope`)).status).toBe(400);
  });
});

describe('the payment webhook', () => {
  it('refuses a forged or missing signature with 401 and changes nothing', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const product = await createProduct(suite.server, seller);
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    const row = await orderRow(suite.server, order.id);
    const event = {
      id: 'evt_forged',
      type: 'payment.succeeded',
      created: 0,
      data: {
        order_id: order.id,
        session_id: row.payment_session_id,
        payment_id: 'sbxpay_forged',
        amount_cents: 1999,
        currency: 'USD',
      },
    };
    const forged = signed(event, `whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    const bad = await fetch(webhookUrl(), { method: 'POST', headers: forged.headers, body: forged.body });
    expect([bad.status, ((await bad.json()) as { error: { code: string } }).error.code]).toEqual([
      401,
      'UNAUTHENTICATED',
    ]);
    const bare = await fetch(webhookUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: forged.body,
    });
    expect(bare.status).toBe(401);
    // a genuine signature over another body does not pass either
    const genuine = signed(event);
    const tampered = await fetch(webhookUrl(), {
      method: 'POST',
      headers: genuine.headers,
      body: genuine.body.replace('1999', '1'),
    });
    expect(tampered.status).toBe(401);
    expect((await orderRow(suite.server, order.id)).status).toBe('pending');
    expect(await db().selectFrom('payment_events').selectAll().where('event_id', '=', 'evt_forged').execute()).toEqual(
      [],
    );
  });

  it('applies a replayed event once, and a second success for a completed order changes nothing', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const product = await createProduct(suite.server, seller, { priceCents: 1000 });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    const row = await orderRow(suite.server, order.id);
    const event = {
      id: `evt_replayed_${order.id}`,
      type: 'payment.succeeded',
      created: 0,
      data: {
        order_id: order.id,
        session_id: row.payment_session_id,
        payment_id: 'sbxpay_replayed',
        amount_cents: 1000,
        currency: 'USD',
      },
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const delivery = signed(event);
      const reply = await fetch(webhookUrl(), { method: 'POST', headers: delivery.headers, body: delivery.body });
      expect(reply.status).toBe(200);
      expect(await reply.json()).toEqual({ received: true });
    }
    // the sandbox's own delivery job, run again and again, is a replay too
    const ownEvent = { ...event, id: `evt_other_${order.id}` };
    await runJob(suite.server, 'marketplace.sandbox-deliver', { eventId: ownEvent.id, body: JSON.stringify(ownEvent) });
    await runJob(suite.server, 'marketplace.sandbox-deliver', { eventId: ownEvent.id, body: JSON.stringify(ownEvent) });
    expect(await orderRow(suite.server, order.id)).toMatchObject({
      status: 'completed',
      payment_provider_payment_id: 'sbxpay_replayed',
    });
    expect(await db().selectFrom('license_grants').selectAll().where('order_id', '=', order.id).execute()).toHaveLength(
      1,
    );
    expect((await productRow(suite.server, product.id)).sales_count).toBe(1);
    const applied = await db()
      .selectFrom('payment_events')
      .select('event_id')
      .where('order_id', '=', order.id)
      .execute();
    expect(applied.map((entry) => entry.event_id).sort()).toEqual([event.id, ownEvent.id].sort());
    const completions = await db()
      .selectFrom('audit_logs')
      .selectAll()
      .where('resource_id', '=', order.id)
      .where('action', '=', 'order.completed')
      .execute();
    expect(completions).toHaveLength(1);
  });

  it('an event whose amount does not match its order does not complete it', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const product = await createProduct(suite.server, seller, { priceCents: 1000 });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    const row = await orderRow(suite.server, order.id);
    const delivery = signed({
      id: `evt_short_${order.id}`,
      type: 'payment.succeeded',
      created: 0,
      data: {
        order_id: order.id,
        session_id: row.payment_session_id,
        payment_id: 'sbxpay_short',
        amount_cents: 1,
        currency: 'USD',
      },
    });
    expect((await fetch(webhookUrl(), { method: 'POST', headers: delivery.headers, body: delivery.body })).status).toBe(
      200,
    );
    expect((await orderRow(suite.server, order.id)).status).toBe('pending');
  });

  it('pending orders past their payment window expire (the periodic job) and release their holds', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const product = await createProduct(suite.server, seller, { licenseType: 'exclusive', priceCents: 90000 });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    const rival = await createUser(suite.server);
    expect(errorOf(await rival.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }))).toEqual(
      [409, 'CONFLICT'],
    );
    await lapsePaymentWindow(suite.server, order.id);
    const result = await runJob<{ expired: number }>(suite.server, 'marketplace.orders-expire');
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect(await orderRow(suite.server, order.id)).toMatchObject({ status: 'failed', payment_status: 'failed' });
    expectStatus(await rival.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }), 201);
  });
});
