import { GATE_HEADER, GATE_REASON_HEADER, GATE_VIOLATION_HEADER, prismGateAt, PrismViolationError } from './prism.js';

/** A small fetch wrapper for tests: JSON in, status, headers and parsed JSON out. */
export interface HttpReply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  /**
   * Which way the reply came when baseUrl is a Prism gate: `prism` (the server's reply, checked
   * against openapi.json on the way) or `direct` (Prism refused the request as outside the
   * document, or could not carry it, so the gate sent it to the server directly). Undefined
   * without a gate.
   */
  via?: 'prism' | 'direct';
  /** Why the request went directly (when via is `direct`). */
  prismRefusal?: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as it is: text, or a FormData (fetch then sets the multipart content type). */
  rawBody?: string | FormData;
  token?: string;
  headers?: Record<string, string>;
}

async function send<T>(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | FormData | undefined,
): Promise<HttpReply<T>> {
  const request = () => fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  // a kept-alive socket the server closed for idleness just as it was reused: the request never reached the server
  const response = await request().catch((error: { cause?: { code?: string } }) => {
    if (error.cause?.code !== 'ECONNRESET' || body instanceof FormData) throw error;
    return request();
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/**
 * Sends one request. When baseUrl is a Prism gate (see startTestServer and startPrismGate), a
 * reply that violates openapi.json throws PrismViolationError at once. (The gate itself sends a
 * request Prism refuses as outside the document to the server directly.)
 */
export async function request<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<HttpReply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | FormData | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const reply = await send<T>(baseUrl, method, path, headers, body);
  return { ...reply, ...gateVerdict(baseUrl, method, path, reply) };
}

/**
 * How a reply came through the Prism gate at baseUrl (nothing without a gate): throws
 * PrismViolationError when it broke openapi.json. Shared by `request` and the typed calls.
 */
export function gateVerdict(
  baseUrl: string,
  method: string,
  path: string,
  reply: { status: number; headers: Headers; text: string },
): Pick<HttpReply, 'via' | 'prismRefusal'> {
  const gate = prismGateAt(baseUrl);
  if (!gate) return {};
  const marker = reply.headers.get(GATE_HEADER);
  if (marker === 'violation' || marker === 'error') {
    const violation = gate.report(Number(reply.headers.get(GATE_VIOLATION_HEADER)));
    throw new PrismViolationError(
      violation?.message ?? `${method} ${path}: ${reply.status} ${reply.text.slice(0, 500)}`,
      violation?.violations ?? [],
    );
  }
  return marker === 'direct'
    ? { via: 'direct', prismRefusal: reply.headers.get(GATE_REASON_HEADER) ?? '' }
    : { via: 'prism' };
}

export const api = (baseUrl: string) => ({
  get: <T = any>(path: string, options?: RequestOptions) => request<T>(baseUrl, 'GET', `/api/v1${path}`, options),
  post: <T = any>(path: string, options?: RequestOptions) => request<T>(baseUrl, 'POST', `/api/v1${path}`, options),
  put: <T = any>(path: string, options?: RequestOptions) => request<T>(baseUrl, 'PUT', `/api/v1${path}`, options),
  delete: <T = any>(path: string, options?: RequestOptions) => request<T>(baseUrl, 'DELETE', `/api/v1${path}`, options),
  patch: <T = any>(path: string, options?: RequestOptions) => request<T>(baseUrl, 'PATCH', `/api/v1${path}`, options),
});
