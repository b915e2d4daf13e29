import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@riff/contract';
import { exchangeClasses } from './http-exchange.js';
import { replyOnSocket } from './socket-reply.js';

/** The headers must arrive within 10 s; a body idle for 30 s is cut. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const IDLE_TIMEOUT_MS = 30_000;
/** A bound on a whole request, so a body trickling a byte at a time cannot hold a connection for ever; large enough for a 512 MiB upload at 1 MB/s. */
export const REQUEST_TIMEOUT_MS = 15 * 60_000;
/** A request line longer than this that overflows the header limit is a long URL (414), not large headers (431). */
const LONG_REQUEST_LINE = 8 * 1024;

export interface HttpServerOptions {
  headersTimeoutMs?: number;
  idleTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/** Node's own refusals (the parser's and the timeouts'), as status, code and message. */
function describeClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): [number, ErrorCode, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW': {
      const head = error.rawPacket?.toString('latin1') ?? '';
      const lineEnd = head.indexOf('\r\n');
      return /^[A-Z]+ /.test(head) && (lineEnd === -1 || lineEnd > LONG_REQUEST_LINE)
        ? [414, 'URI_TOO_LONG', 'The URL is too long']
        : [431, 'HEADERS_TOO_LARGE', 'The request headers are too large'];
    }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive'];
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return [400, 'BAD_REQUEST', 'Conflicting Content-Length and Transfer-Encoding headers'];
    default:
      return [400, 'BAD_REQUEST', 'The request is not valid HTTP'];
  }
}

const requestIdOf = (exchange: { res: ServerResponse } | undefined) => {
  const id = exchange?.res.getHeader('X-Request-Id');
  return typeof id === 'string' ? id : randomUUID();
};

/**
 * Creates the HTTP server with the service's limits, used by main.ts and the test server alike:
 * headers within 10 s, a connection idle for 30 s is cut (408 when a request body stalls), and
 * every reply Node makes on its own (431, 414, 400, 408) is in the error envelope with a request id.
 */
export function createHttpServer(handler?: RequestListener, options: HttpServerOptions = {}): Server {
  const server = createServer({
    ...exchangeClasses,
    headersTimeout: options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
    requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    // how often Node checks the headers and request timeouts (30 s by default: a 10 s limit would take up to 40)
    connectionsCheckingInterval: 1_000,
  });
  // the exchange in flight on each socket, for the idle timeout below
  const inFlight = new WeakMap<Duplex, { req: IncomingMessage; res: ServerResponse }>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.set(req.socket, { req, res });
    const done = () => {
      if (inFlight.get(req.socket)?.res === res) inFlight.delete(req.socket);
    };
    res.once('finish', done);
    res.once('close', done);
  });
  if (handler) server.on('request', handler);

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // a client that went away (reset, aborted) gets nothing; a socket already answering is only closed
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight.get(socket)?.res.headersSent) {
      socket.destroy();
      return;
    }
    const [status, code, message] = describeClientError(error);
    replyOnSocket(socket, status, code, message, requestIdOf(inFlight.get(socket)));
  });

  server.setTimeout(options.idleTimeoutMs ?? IDLE_TIMEOUT_MS, (socket: Duplex) => {
    const exchange = inFlight.get(socket);
    // between requests Node's own limits apply (headersTimeout, keepAliveTimeout); cutting here could drop a
    // request still unread after a long pause of the event loop
    if (!exchange) return;
    // the body is complete and the service is still working on the reply: not the client's fault
    if (exchange.req.complete && !exchange.res.headersSent) return;
    if (!exchange.res.headersSent)
      replyOnSocket(socket, 408, 'REQUEST_TIMEOUT', 'The request body stopped arriving', requestIdOf(exchange));
    // a reply that has not moved for the whole period: the reader is gone or stalled
    else socket.destroy();
  });
  return server;
}
