import type { SandboxOutcome } from '@riff/contract';
import type { Logger } from 'pino';
import type { Clock } from '../../../platform/clock.js';
import { notFound } from '../../../platform/errors/app-error.js';
import type { JobQueue } from '../../../platform/jobs/job-queue.js';
import type { ModuleJob } from '../../../platform/module.js';
import '../marketplace.jobs.js';
import { formatMoney } from '../order-mail.js';
import type { OrdersRepository } from '../orders.repository.js';
import { sandboxPaymentId, signSandboxDelivery, type SandboxEventBody } from './sandbox-provider.js';

const DELIVERY_TIMEOUT_MS = 10_000;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
  '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
  `<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto"><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

export interface SandboxCheckoutDeps {
  enabled: boolean;
  orders: OrdersRepository;
  jobs: JobQueue;
  clock: Clock;
  logger: Logger;
  secret: string;
  webhookUrl: string;
}

/**
 * The sandbox's hosted checkout page and its event delivery. The outcome is recorded as a delivery
 * job (durable, retried with backoff) that POSTs the signed event to this service's public webhook
 * URL, as a real provider calls back over the network.
 */
export class SandboxCheckout {
  constructor(private readonly deps: SandboxCheckoutDeps) {}

  async page(sessionId: string, outcome: SandboxOutcome | undefined): Promise<string> {
    const { enabled, orders, jobs, clock } = this.deps;
    const order = enabled ? await orders.findBySession(sessionId) : undefined;
    if (!order || order.payment_provider !== 'sandbox') throw notFound('Payment');
    const items = await orders.itemsOf([order.id]);
    const total = formatMoney(Number(order.total_cents), order.currency);
    const open =
      order.status === 'pending' &&
      (!order.payment_expires_at || order.payment_expires_at.getTime() > clock.now().getTime());
    if (!open)
      return page('This checkout is closed', `<p>Order ${escapeHtml(order.id)} is ${escapeHtml(order.status)}.</p>`);
    if (!outcome) {
      const base = `?outcome=`;
      return page(
        'Sandbox checkout',
        `<p>Order ${escapeHtml(order.id)}</p><ul>${items.map((item) => `<li>${escapeHtml(item.title)}</li>`).join('')}</ul>` +
          `<p>Total: <strong>${escapeHtml(total)}</strong></p>` +
          `<p><a href="${base}succeed">Pay ${escapeHtml(total)}</a> · <a href="${base}fail">Decline the payment</a></p>` +
          '<p><small>Sandbox: no money moves.</small></p>',
      );
    }
    // one event per checkout and outcome: reloading the page sends the same event, applied once
    const event: SandboxEventBody = {
      id: `evt_${sessionId.slice('sbx_'.length)}_${outcome}`,
      type: outcome === 'succeed' ? 'payment.succeeded' : 'payment.failed',
      created: Math.floor(clock.now().getTime() / 1000),
      data:
        outcome === 'succeed'
          ? {
              order_id: order.id,
              session_id: sessionId,
              payment_id: sandboxPaymentId(sessionId),
              amount_cents: Number(order.total_cents),
              currency: order.currency,
            }
          : { order_id: order.id, session_id: sessionId, reason: 'card_declined' },
    };
    await jobs.enqueue('marketplace.sandbox-deliver', { eventId: event.id, body: JSON.stringify(event) });
    return page(
      outcome === 'succeed' ? 'Payment accepted' : 'Payment declined',
      `<p>${outcome === 'succeed' ? `You paid ${escapeHtml(total)}.` : 'The payment was declined.'} You may close this page.</p>`,
    );
  }

  /** Delivers one signed event; a failure (network, non-2xx) throws, so the queue retries with backoff. */
  async deliver({ eventId, body }: { eventId: string; body: string }): Promise<{ status: number }> {
    const { secret, webhookUrl, clock } = this.deps;
    const headers = signSandboxDelivery(secret, eventId, body, Math.floor(clock.now().getTime() / 1000));
    const reply = await fetch(webhookUrl, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await reply.arrayBuffer().catch(() => undefined);
    if (reply.status < 200 || reply.status >= 300) throw new Error(`the payment webhook answered ${reply.status}`);
    return { status: reply.status };
  }

  job(): ModuleJob {
    return {
      name: 'marketplace.sandbox-deliver',
      retryLimit: 10,
      retryDelaySeconds: 2,
      expireInSeconds: 60,
      handle: (data) => this.deliver(data),
    };
  }
}
