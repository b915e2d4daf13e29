import {
  initClient,
  validateResponse,
  type ApiFetcher,
  type ApiFetcherArgs,
  type InitClientReturn,
} from '@ts-rest/core';
import { expect } from 'vitest';
import { contract, type RiffContract } from '@riff/contract';
import { gateVerdict, type HttpReply } from './http.js';

/**
 * Typed calls for tests: one function per contract route (`api.users.follow({ params: { id } })`),
 * typed inputs, and replies typed per status. Requests go to `server.baseUrl`, the Prism gate, so
 * a reply that breaks openapi.json fails the call (PrismViolationError); a reply that did not go
 * through Prism (the gate sent the request directly, or no gate runs) is checked against the
 * contract's own schemas instead, and a status the route does not declare throws
 * UnknownStatusError. Bodies are returned as the server sent them (never reshaped by the
 * schemas), with the raw text beside them.
 *
 * Path parameters are plain strings, so a malformed id can be sent typed. For what the types
 * refuse (a query value outside its enum, a missing required field, raw bytes), use the untyped
 * `api(baseUrl)` of http.ts.
 */
export interface TypedApiOptions {
  /** Sent as `Authorization: Bearer <token>` on every call. */
  token?: string;
  /** Extra headers on every call (per call: `extraHeaders`). */
  headers?: Record<string, string>;
}

/** What every typed reply carries besides status, body and headers. */
export type ReplyExtras = Pick<HttpReply, 'text' | 'via' | 'prismRefusal'>;

type Fetched = { status: number; body: unknown; headers: Headers } & ReplyExtras;

type PlainApi = InitClientReturn<
  RiffContract,
  { baseUrl: string; validateResponse: false; throwOnUnknownStatus: true; api: ApiFetcher }
>;

type WithExtras<T> = T extends (...args: infer A) => Promise<infer R>
  ? (...args: A) => Promise<R & ReplyExtras>
  : { [K in keyof T]: WithExtras<T[K]> };

/** The whole contract as typed functions: `api.auth.me()`, `api.tracks.get({ params: { id } })`. */
export type TypedApi = WithExtras<PlainApi>;

const isFile = (value: unknown): value is Blob => value instanceof Blob;

/**
 * ts-rest JSON-encodes every multipart field (a title would arrive with its quotes): a plain
 * object is sent as FormData with its text fields as they are, first, then its files (as
 * @riff/client does). A FormData goes as it is.
 */
function bodyOf(args: ApiFetcherArgs): BodyInit | undefined {
  const raw = args.rawBody;
  if (
    args.contentType !== 'multipart/form-data' ||
    raw === null ||
    typeof raw !== 'object' ||
    raw instanceof FormData
  ) {
    return (args.body ?? undefined) as BodyInit | undefined;
  }
  const form = new FormData();
  const entries = Object.entries(raw as Record<string, unknown>).filter(
    ([, value]) => value !== undefined && value !== null,
  );
  for (const [name, value] of entries) if (!isFile(value)) form.append(name, String(value));
  for (const [name, value] of entries)
    if (isFile(value)) form.append(name, value, value instanceof File ? value.name : 'blob');
  return form;
}

async function readBody(response: Response): Promise<{ body: unknown; text: string }> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return { body: text.length > 0 ? JSON.parse(text) : undefined, text };
    } catch {
      return { body: undefined, text };
    }
  }
  if (type.startsWith('text/') || bytes.length === 0) return { body: text, text };
  return { body: new Blob([bytes], { type }), text };
}

function fetcher(baseUrl: string): ApiFetcher {
  return async (args: ApiFetcherArgs): Promise<Fetched> => {
    const response = await fetch(args.path, {
      method: args.method,
      headers: args.headers,
      body: bodyOf(args),
      redirect: 'manual',
    });
    const { body, text } = await readBody(response);
    const url = new URL(args.path);
    const reply = { status: response.status, headers: response.headers, body, text };
    const verdict = gateVerdict(baseUrl, args.method, `${url.pathname}${url.search}`, reply);
    // Prism did not check this one: the contract's schemas do (the body is returned unparsed)
    if (verdict.via !== 'prism' && typeof body === 'object' && !(body instanceof Blob)) {
      validateResponse({ appRoute: args.route, response: { status: reply.status, body } });
    }
    return { ...reply, ...verdict };
  };
}

/** Typed calls to a test server (or any base URL), optionally as a signed-in user. */
export function typedApi(target: { baseUrl: string } | string, options: TypedApiOptions = {}): TypedApi {
  const baseUrl = (typeof target === 'string' ? target : target.baseUrl).replace(/\/+$/, '');
  const baseHeaders: Record<string, string> = { ...options.headers };
  if (options.token) baseHeaders['authorization'] = `Bearer ${options.token}`;
  return initClient(contract, {
    baseUrl,
    baseHeaders,
    validateResponse: false,
    throwOnUnknownStatus: true,
    api: fetcher(baseUrl),
  }) as unknown as TypedApi;
}

/**
 * Asserts the status and narrows the reply to it, so its body is typed:
 * `const { body } = expectStatus(await api.users.get({ params: { id } }), 200)`.
 */
export function expectStatus<R extends { status: number; text: string }, S extends R['status']>(
  reply: R,
  status: S,
): Extract<R, { status: S }> {
  expect(reply.status, reply.text.slice(0, 1000)).toBe(status);
  return reply as Extract<R, { status: S }>;
}
