import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { SocketEndpoint } from '../module.js';
import type { HttpHandler } from './http-app.js';
import { RiffResponse } from './http-exchange.js';

export interface SocketRouter {
  /** Hands an HTTP upgrade request to the module's WebSocket endpoint for its path (any other path is answered as plain HTTP). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every WebSocket: call it when shutdown starts, before the HTTP server waits for its connections. */
  closeSockets(): Promise<void>;
}

/** A WebSocket asked for while the service starts or stops: 503 in the envelope on the raw socket, then closed. */
export function refuseUpgrade(socket: Duplex, message: string): void {
  const requestId = randomUUID();
  const body = JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message, request_id: requestId } });
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Node hands every request with an Upgrade header to the upgrade listener once there is one: those
 * for other paths (e.g. `Upgrade: h2c` from curl) are answered by the app as plain HTTP/1.1, then closed.
 */
function answerAsHttp(app: HttpHandler, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  if (head.length > 0) socket.unshift(head);
  const res = new RiffResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  res.once('finish', () => socket.end());
  socket.on('error', () => socket.destroy());
  app(req, res);
}

export function socketRouter(app: HttpHandler, endpoints: SocketEndpoint[]): SocketRouter {
  let closed: Promise<void> | undefined;
  return {
    upgrade(req, socket, head) {
      const path = (req.url ?? '/').split('?')[0];
      const endpoint = endpoints.find((candidate) => candidate.path === path);
      if (!endpoint) return answerAsHttp(app, req, socket, head);
      if (closed) return refuseUpgrade(socket, 'The service is shutting down');
      endpoint.upgrade(req, socket, head);
    },
    closeSockets() {
      closed ??= Promise.all(endpoints.map((endpoint) => endpoint.close())).then(() => undefined);
      return closed;
    },
  };
}
