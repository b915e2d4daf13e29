import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request Stripe's API received: its form fields flattened as Stripe encodes them (`metadata[order_id]`). */
export interface StripeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  form: Record<string, string>;
}

export interface StripeStandIn {
  url: string;
  requests: StripeRequest[];
  /** Metadata of payment intents, as GET /v1/payment_intents/{id} answers it. */
  paymentIntents: Map<string, Record<string, string>>;
  close(): Promise<void>;
}

/**
 * A local stand-in for the parts of Stripe's API the provider calls (POST /v1/checkout/sessions,
 * POST /v1/refunds, GET /v1/refunds, GET /v1/payment_intents/{id}), answering in Stripe's shapes and
 * replaying the first reply for a repeated Idempotency-Key, as Stripe does. No network beyond loopback.
 */
export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StripeRequest[] = [];
  const paymentIntents = new Map<string, Record<string, string>>();
  const replies = new Map<string, { status: number; body: unknown }>();
  // ids unique across runs: orders keep payment_session_id unique, and a PostgreSQL database outlives a run
  let counter = Math.floor(Math.random() * 1e9);
  const created = () => Math.floor(Date.now() / 1000);

  const answer = (request: StripeRequest, port: number): { status: number; body: unknown } => {
    const { method, path, form } = request;
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_test_${++counter}`;
      const metadata = Object.fromEntries(
        Object.entries(form).flatMap(([key, value]) =>
          key.startsWith('metadata[') ? [[key.slice(9, -1), value]] : [],
        ),
      );
      return {
        status: 200,
        body: {
          id,
          object: 'checkout.session',
          mode: form.mode,
          url: `http://127.0.0.1:${port}/c/pay/${id}`,
          amount_total: Number(form['line_items[0][price_data][unit_amount]']),
          currency: form['line_items[0][price_data][currency]'],
          client_reference_id: form.client_reference_id ?? null,
          metadata,
          expires_at: Number(form.expires_at),
          payment_status: 'unpaid',
          status: 'open',
          created: created(),
        },
      };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      return {
        status: 200,
        body: {
          id: `re_test_${++counter}`,
          object: 'refund',
          amount: Number(form.amount),
          payment_intent: form.payment_intent,
          status: 'succeeded',
          created: created(),
        },
      };
    }
    if (method === 'GET' && path === '/v1/refunds') {
      return {
        status: 200,
        body: {
          object: 'list',
          url: '/v1/refunds',
          has_more: false,
          data: [{ id: `re_for_${request.query.get('charge')}`, object: 'refund', status: 'succeeded' }],
        },
      };
    }
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && intent && paymentIntents.has(intent[1]!)) {
      return {
        status: 200,
        body: { id: intent[1], object: 'payment_intent', metadata: paymentIntents.get(intent[1]!) },
      };
    }
    return {
      status: 404,
      body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } },
    };
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stripe.local');
      const request: StripeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
      };
      requests.push(request);
      const key = req.headers['idempotency-key'];
      const replayKey = typeof key === 'string' ? `${request.method} ${key}` : undefined;
      const reply = (replayKey && replies.get(replayKey)) || answer(request, (server.address() as AddressInfo).port);
      if (replayKey && !replies.has(replayKey)) replies.set(replayKey, reply);
      res.writeHead(reply.status, { 'Content-Type': 'application/json', 'Request-Id': `req_${requests.length}` });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    paymentIntents,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
