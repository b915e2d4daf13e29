import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@riff/contract';

/** How long a socket that was answered with an error may take to close its side before it is cut. */
const LINGER_MS = 2_000;

const envelope = (code: ErrorCode, message: string, requestId: string) =>
  JSON.stringify({ success: false, error: { code, message, request_id: requestId } });

/**
 * Writes an enveloped error straight to the socket, then closes it: for refusals made outside any
 * response (Node's parser, the timeouts, a body arriving too slowly). A request in flight is left
 * to see its client go away (its response object untouched), as it would on an abort, so it cleans
 * up the same way.
 */
export function replyOnSocket(
  socket: Duplex,
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string = randomUUID(),
): void {
  const body = envelope(code, message, requestId);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
