import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from './middleware-chain.js';
import { replyOnSocket } from './socket-reply.js';

export interface RequestBodyRules {
  /** Bytes of an unread body taken and discarded after an early refusal, so the client sees the answer; then the connection closes. */
  drainMaxBytes: number;
  /** How long that may take. */
  drainTimeoutMs: number;
  /** The slowest a body may arrive, in bytes per second averaged since it started (0: no minimum). */
  minBytesPerSecond: number;
  /** Time a body has before that minimum applies. */
  minRateGraceMs: number;
}

/** Whether the request announced a body (a length above 0, or chunked). */
export const announcesBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

const bodyRules = new WeakMap<IncomingMessage, RequestBodyRules>();

/**
 * A minimum upload rate after a grace period (as Kestrel does): a body that trickles in (a byte
 * every few seconds keeps the idle timeout from ever firing) is cut with 408 REQUEST_TIMEOUT once
 * its average rate falls below the minimum. Only time the client is waited for counts: while the
 * service is not taking the body (the request's buffer full: storage slow, or a handler still
 * checking before it reads), the clock stops. The cut closes the socket, so the handler sees an
 * interrupted body and removes what it wrote, as on any abort. Also records the drain bounds for
 * replies sent before the body is read (replyBeforeBody).
 */
export function requestBodyGuard(rules: RequestBodyRules): Middleware {
  return (req, res, next) => {
    bodyRules.set(req, rules);
    if (rules.minBytesPerSecond > 0 && !req.complete && announcesBody(req)) watchRate(req, res, rules);
    next();
  };
}

function watchRate(req: IncomingMessage & { id?: string }, res: ServerResponse, rules: RequestBodyRules): void {
  const socket = req.socket;
  const startBytes = socket.bytesRead;
  const tickMs = Math.max(50, Math.min(1_000, rules.minRateGraceMs / 4));
  let waitedMs = 0;
  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    const step = now - last;
    last = now;
    if (req.complete || res.headersSent || socket.destroyed || socket.writableEnded) return stop();
    // the service is not reading: not the client's slowness
    if (req.readableLength >= req.readableHighWaterMark) return;
    waitedMs += step;
    if (waitedMs < rules.minRateGraceMs) return;
    const received = socket.bytesRead - startBytes;
    if (received >= (rules.minBytesPerSecond * waitedMs) / 1000) return;
    stop();
    replyOnSocket(
      socket,
      408,
      'REQUEST_TIMEOUT',
      `The request body arrives too slowly (under ${rules.minBytesPerSecond} bytes per second)`,
      req.id || undefined,
    );
  }, tickMs);
  const stop = () => clearInterval(timer);
  res.once('close', stop);
  res.once('finish', stop);
}

/**
 * Sends a reply made before the request body was read whole (a refusal: too large, unauthorized,
 * malformed). Closing at once would make the client's next writes fail (EPIPE, a reset) before it
 * reads the answer, so the reply goes out first, the rest of the body is read and discarded up to
 * the drain bounds, and then the connection closes. Returns false when the body is already read
 * (or the connection already gone): the caller replies as usual.
 */
export function replyBeforeBody(req: IncomingMessage, res: ServerResponse, body: string): boolean {
  const socket = req.socket;
  if (req.complete || req.destroyed || !announcesBody(req) || socket.destroyed || socket.writableEnded) return false;
  const rules = bodyRules.get(req);
  if (!rules) return false;
  res.setHeader('Connection', 'close');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  // the whole reply goes out now; the response ends once the body is drained
  res.write(body);
  let drained = 0;
  const done = (cut: boolean) => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('close', onEnd);
    res.end();
    if (cut) socket.destroy();
  };
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > rules.drainMaxBytes) done(true);
  };
  const onEnd = () => done(false);
  const timer = setTimeout(() => done(true), rules.drainTimeoutMs);
  timer.unref();
  req.on('data', onData);
  req.once('end', onEnd);
  req.once('close', onEnd);
  req.resume();
  return true;
}
