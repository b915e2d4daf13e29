import { connect, type Socket } from 'node:net';

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
}

/** Parses what a server wrote on a socket (one reply, closed or not) into status, headers and JSON body. */
export function parseRawReply(raw: string): RawReply {
  const headEnd = raw.indexOf('\r\n\r\n');
  const head = headEnd === -1 ? raw : raw.slice(0, headEnd);
  const text = headEnd === -1 ? '' : raw.slice(headEnd + 4);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body, text };
}

export function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server writes on the socket until it closes it (or the deadline passes: then what came so far). */
export function collect(socket: Socket, deadlineMs = 5_000): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(text);
    }, deadlineMs);
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

/** Sends bytes exactly as given (no client-side HTTP checks) and returns the server's reply. */
export async function rawRequest(url: string, bytes: string): Promise<RawReply> {
  const socket = await openSocket(url);
  const reply = collect(socket);
  socket.write(bytes);
  return parseRawReply(await reply);
}
