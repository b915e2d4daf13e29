/**
 * Requests for the contract fuzzer: a valid request generated from the route's zod schemas, then
 * zero or more mutations (missing and extra keys, wrong types, malformed JSON, wrong content
 * types and encodings, odd path and query values, odd credentials). Every request stays small
 * (a few KB) except one oversized body used as a fixed example.
 */
import fc from 'fast-check';
import { convertQueryParamsToUrlString, type AppRoute } from '@ts-rest/core';
import { bodySchema, headersSchema, isMultipart, pathParamNames, type Operation } from './operations.js';
import { pathSafe, validRequest, type RequestInput } from './inputs.js';

/** A value put in a URL: `raw` ones are inserted as they are (to send %zz, %00, ..%2F). */
interface UrlValue {
  text: string;
  raw: boolean;
}

export type Mutation =
  | { kind: 'body-drop-key'; index: number }
  | { kind: 'body-extra-key'; key: string; value: unknown }
  | { kind: 'body-wrong-type'; index: number; value: unknown }
  | { kind: 'body-odd-string'; index: number; value: string }
  | { kind: 'body-raw-number'; index: number; token: string }
  | { kind: 'body-replace'; value: unknown }
  | { kind: 'body-malformed'; text: string }
  | { kind: 'body-truncated'; at: number }
  | { kind: 'body-content-type'; contentType: string }
  | { kind: 'body-encoding'; encoding: string }
  | { kind: 'body-nesting'; depth: number; array: boolean }
  | { kind: 'body-oversized' }
  | { kind: 'body-unexpected'; text: string }
  | { kind: 'multipart-malformed'; text: string }
  | { kind: 'multipart-no-boundary' }
  | { kind: 'multipart-file-first' }
  | { kind: 'multipart-extra-file'; key: string }
  | { kind: 'query-drop'; index: number }
  | { kind: 'query-extra'; key: string; value: UrlValue }
  | { kind: 'query-set'; key: string; value: UrlValue }
  | { kind: 'query-odd-value'; index: number; value: UrlValue }
  | { kind: 'query-array'; index: number; value: UrlValue }
  | { kind: 'query-object'; index: number; sub: string }
  | { kind: 'query-key-only'; index: number }
  | { kind: 'path-odd-value'; index: number; value: UrlValue }
  | { kind: 'header-drop'; index: number }
  | { kind: 'header-odd-value'; index: number; value: string }
  | { kind: 'header-extra'; name: string; value: string }
  | { kind: 'auth'; authorization?: string; apiKey?: string }
  | { kind: 'auth-tamper'; position: number }
  | { kind: 'refresh-cookie'; value: string; origin?: string };

export interface FuzzCase {
  input: RequestInput;
  mutations: Mutation[];
  transport: 'prism' | 'direct';
}

export interface BuiltRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string>;
  /** JSON or other text, or multipart/form-data (fetch sets its content type with the boundary). */
  body?: string | FormData;
  /** Mutation kinds applied, for reports. */
  labels: string[];
  /** The JSON body as sent, when it was JSON text (undefined when absent or not JSON). */
  json?: { value: unknown } | undefined;
}

// ---------------------------------------------------------------- values

/** What fetch accepts in a header value: visible ASCII, space and 0x80-0xFF (not DEL). */
const latin1Printable = fc.string({
  unit: fc
    .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
    .map((code) => String.fromCharCode(code)),
  maxLength: 64,
});

/** Strings that tend to break things: NUL, lone surrogates, RTL marks, emoji, very long, traversal. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff x',
    '\u202e\u0041\u0042',
    '🎸🥁🎹',
    'e\u0301',
    '..',
    '../../etc/passwd',
    '..%2F..%2F',
    '%00',
    '${jndi:ldap://x}',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '__proto__',
    'constructor',
    'null',
    'true',
    '-1',
    '1e309',
    'NaN',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 300, maxLength: 4000 }),
  fc.integer().map(String),
);

const oddUrlValue: fc.Arbitrary<UrlValue> = fc.oneof(
  oddString.map((text) => ({ text, raw: false })),
  fc
    .constantFrom('..%2F', '%2e%2e%2f', '%00', '%zz', '%', '%E0%A4%A', '%C0%AF', '%252F', 'a+b', '%20')
    .map((text) => ({ text, raw: true })),
);

const jsonScalarOrShape = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, '', [], {}),
  fc.jsonValue({ maxDepth: 2 }),
  oddString,
);

const credentialKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'extra',
  'id',
  'role',
  'is_admin',
  'token_version',
  'user_id',
  '',
  'ÿ',
);

// ---------------------------------------------------------------- mutations per route

export const MALFORMED_JSON = [
  '{',
  '{"a":',
  '[1,2',
  'nul',
  '{"a":1}}',
  "{'a':1}",
  '\u0000',
  '{"a":1,}',
  'NaN',
  '{"a":01}',
  '"\\u12"',
  '\ufeff{}',
  '{"a":"\udc00"}',
  ' ',
];

export function mutationArbitraries(
  operation: Operation,
  mode: 'anonymous' | 'bearer',
): Record<string, fc.Arbitrary<Mutation>> {
  const { route } = operation;
  const hasJsonBody = bodySchema(route) !== undefined;
  const index = fc.nat({ max: 16 });
  const arbitraries: Record<string, fc.Arbitrary<Mutation>> = {};
  if (hasJsonBody) {
    Object.assign(arbitraries, {
      'body-drop-key': index.map((i) => ({ kind: 'body-drop-key', index: i })),
      'body-extra-key': fc
        .record({ key: fc.oneof(credentialKey, fc.string({ maxLength: 12 })), value: jsonScalarOrShape })
        .map((m) => ({ kind: 'body-extra-key', ...m })),
      'body-wrong-type': fc.record({ index, value: jsonScalarOrShape }).map((m) => ({ kind: 'body-wrong-type', ...m })),
      'body-odd-string': fc.record({ index, value: oddString }).map((m) => ({ kind: 'body-odd-string', ...m })),
      'body-raw-number': fc
        .record({
          index,
          token: fc.constantFrom(
            '1e400',
            '-1e400',
            '-0',
            '1e-400',
            '123456789012345678901234567890',
            '0.1e1',
            '9007199254740993',
          ),
        })
        .map((m) => ({ kind: 'body-raw-number', ...m })),
      'body-replace': jsonScalarOrShape.map((value) => ({ kind: 'body-replace', value })),
      'body-malformed': fc.constantFrom(...MALFORMED_JSON).map((text) => ({ kind: 'body-malformed', text })),
      'body-truncated': fc.nat({ max: 200 }).map((at) => ({ kind: 'body-truncated', at })),
      'body-content-type': fc
        .constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=riff',
          'application/xml',
          'application/json; charset=latin1',
          'application/json; charset=utf-16',
          'application/json; charset=utf-8',
          'application/merge-patch+json',
          'application/jsonx',
          '*/*',
          'application/json;;;',
          'json',
        )
        .map((contentType) => ({ kind: 'body-content-type', contentType })),
      'body-encoding': fc
        .constantFrom('gzip', 'deflate', 'br', 'x-unknown', 'identity')
        .map((encoding) => ({ kind: 'body-encoding', encoding })),
      'body-nesting': fc
        .record({ depth: fc.integer({ min: 50, max: 20_000 }), array: fc.boolean() })
        .map((m) => ({ kind: 'body-nesting', ...m })),
    } satisfies Record<string, fc.Arbitrary<Mutation>>);
    if (isMultipart(route)) {
      Object.assign(arbitraries, {
        'multipart-malformed': fc
          .constantFrom(
            '--riff\r\nContent-Disposition: form-data; name="title"\r\n\r\nx',
            '--riff\r\n\r\n--riff--',
            '--other\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF\r\n--other--\r\n',
            'not multipart at all',
            '',
          )
          .map((text) => ({ kind: 'multipart-malformed', text })),
        'multipart-no-boundary': fc.constant({ kind: 'multipart-no-boundary' }),
        'multipart-file-first': fc.constant({ kind: 'multipart-file-first' }),
        'multipart-extra-file': fc
          .constantFrom('file', 'chunk', 'title', 'extra', 'upload_id')
          .map((key) => ({ kind: 'multipart-extra-file', key })),
      } satisfies Record<string, fc.Arbitrary<Mutation>>);
    }
  } else if (route.method !== 'GET') {
    arbitraries['body-unexpected'] = fc
      .oneof(
        fc.constantFrom(...MALFORMED_JSON),
        fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
      )
      .map((text) => ({ kind: 'body-unexpected', text }));
  }
  Object.assign(arbitraries, {
    'query-drop': index.map((i) => ({ kind: 'query-drop', index: i })),
    'query-extra': fc
      .record({
        key: fc.oneof(
          fc.constantFrom(
            'extra',
            '__proto__',
            '__proto__[polluted]',
            'constructor[prototype][polluted]',
            'a[b][c][d][e][f][g][h]',
            'a[]',
            'a[999999]',
            'token',
            'page',
          ),
          fc.stringMatching(/^[a-z_]{1,10}$/),
        ),
        value: oddUrlValue,
      })
      .map((m) => ({ kind: 'query-extra', ...m })),
    'query-odd-value': fc.record({ index, value: oddUrlValue }).map((m) => ({ kind: 'query-odd-value', ...m })),
    'query-array': fc.record({ index, value: oddUrlValue }).map((m) => ({ kind: 'query-array', ...m })),
    'query-object': fc
      .record({ index, sub: fc.constantFrom('b', '', '0', '__proto__', 'length') })
      .map((m) => ({ kind: 'query-object', ...m })),
    'query-key-only': index.map((i) => ({ kind: 'query-key-only', index: i })),
    'header-extra': fc
      .record({
        name: fc.constantFrom(
          'x-request-id',
          'accept',
          'accept-charset',
          'x-forwarded-for',
          'x-http-method-override',
          'origin',
          'range',
          'if-none-match',
        ),
        value: latin1Printable,
      })
      .map((m) => ({ kind: 'header-extra', ...m })),
  } satisfies Record<string, fc.Arbitrary<Mutation>>);
  if (pathParamNames(route).length > 0) {
    arbitraries['path-odd-value'] = fc
      .record({ index, value: oddUrlValue })
      .map((m) => ({ kind: 'path-odd-value', ...m }));
  }
  if (headersSchema(route)) {
    arbitraries['header-drop'] = index.map((i) => ({ kind: 'header-drop', index: i }));
    arbitraries['header-odd-value'] = fc
      .record({ index, value: fc.oneof(latin1Printable, fc.string({ minLength: 300, maxLength: 3000 })) })
      .map((m) => ({ kind: 'header-odd-value', ...m }));
  }
  if (operation.meta.auth !== 'public') {
    arbitraries['auth'] = fc
      .oneof(
        fc.constantFrom(
          { authorization: 'Bearer garbage' },
          { authorization: 'Bearer a.b.c' },
          { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' },
          { authorization: 'Basic dXNlcjpwYXNzd29yZA==' },
          { authorization: 'Bearer' },
          { authorization: 'Bearer   ' },
          { authorization: 'bearer x y' },
          { authorization: `Bearer ${'x'.repeat(3000)}` },
          { apiKey: 'riff_0123456789abcdef' },
          { apiKey: 'x' },
        ),
        latin1Printable.map((authorization) => ({ authorization })),
      )
      .map((m) => ({ kind: 'auth', ...m }));
    if (mode === 'bearer')
      arbitraries['auth-tamper'] = fc.nat({ max: 400 }).map((position) => ({ kind: 'auth-tamper', position }));
  }
  if (operation.meta.refreshCookie) {
    arbitraries['refresh-cookie'] = fc
      .record({
        value: fc.oneof(oddString, fc.constant('a.b')),
        origin: fc.option(fc.constantFrom('http://evil.example', 'null', ''), { nil: undefined }),
      })
      .map((m) => ({ kind: 'refresh-cookie', ...m }));
  }
  return arbitraries;
}

/** Valid request (from the schemas) with 0 to 2 mutations, sent through Prism or directly. */
export function fuzzCase(route: AppRoute, mutations: Record<string, fc.Arbitrary<Mutation>>): fc.Arbitrary<FuzzCase> {
  const some = fc.array(fc.oneof(...Object.values(mutations)), { minLength: 1, maxLength: 2 });
  return fc.record({
    input: validRequest(route),
    mutations: fc.oneof({ weight: 1, arbitrary: fc.constant([] as Mutation[]) }, { weight: 4, arbitrary: some }),
    transport: fc.constantFrom('prism' as const, 'direct' as const),
  });
}

/** The same, forced to one mutation kind (fixed examples cover every kind whatever FUZZ_RUNS is). */
export function fuzzCaseWith(
  route: AppRoute,
  mutations: Record<string, fc.Arbitrary<Mutation>>,
  kind: string,
): fc.Arbitrary<FuzzCase> {
  return fc.record({
    input: validRequest(route),
    mutations: mutations[kind]!.map((mutation) => [mutation]),
    transport: fc.constantFrom('prism' as const, 'direct' as const),
  });
}

// ---------------------------------------------------------------- building the request

/** encodeURIComponent, except that a lone surrogate becomes its (invalid) UTF-8 bytes instead of throwing. */
export function percentEncode(text: string): string {
  return text.replace(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g, (char) => {
    if (char.length === 1 && char >= '\ud800' && char <= '\udfff') {
      const code = char.charCodeAt(0);
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    }
    return encodeURIComponent(char);
  });
}

const encode = (value: UrlValue) => (value.raw ? value.text : percentEncode(value.text));
const pick = <T>(list: T[], index: number) => (list.length === 0 ? undefined : list[index % list.length]);
const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);
/** Placeholder for a number token JSON.stringify cannot write (1e400, -0, 30 digits). */
const RAW_NUMBER = 'riff-raw-number-7f3a';

/** A path value that would stop the path matching the route (empty, or a dot segment once decoded). */
function breaksPath(encoded: string): boolean {
  let decoded = encoded;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    // stays as sent
  }
  return (
    !pathSafe(decoded) ||
    !pathSafe(encoded) ||
    /^(\.|%2e){1,2}$/i.test(encoded) ||
    encoded.includes('/') ||
    encoded.includes('?') ||
    encoded.includes('#')
  );
}

/**
 * A multipart body as a careful client sends it: text fields as they are (not JSON-encoded), then
 * the files (the server reads the text fields that come before the file).
 */
function formData(body: Record<string, unknown>, fileFirst: boolean, rawNumber: string | undefined): FormData {
  const form = new FormData();
  const entries = Object.entries(body).filter(([, value]) => value !== undefined);
  const files = entries.filter(([, value]) => value instanceof Blob);
  const texts = entries.filter(([, value]) => !(value instanceof Blob));
  for (const [key, value] of fileFirst ? [...files, ...texts] : [...texts, ...files]) {
    if (value instanceof File) form.append(key, value, value.name);
    else if (value instanceof Blob) form.append(key, value, 'file.bin');
    else if (value === RAW_NUMBER) form.append(key, rawNumber ?? '');
    else form.append(key, typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  }
  return form;
}

export function buildRequest(route: AppRoute, fuzz: FuzzCase, accessToken: string | undefined): BuiltRequest {
  const { input, mutations } = fuzz;
  const names = pathParamNames(route);
  const params = Object.fromEntries(names.map((name) => [name, percentEncode(input.params[name] ?? '')]));
  const query = convertQueryParamsToUrlString(input.query ?? {})
    .replace(/^\?/, '')
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return at < 0
        ? ([pair, undefined] as [string, string | undefined])
        : ([pair.slice(0, at), pair.slice(at + 1)] as [string, string | undefined]);
    });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {}))
    if (value !== undefined) headers[name.toLowerCase()] = value;
  const declaredHeaders = Object.keys(headers);
  if (accessToken) headers['authorization'] = `Bearer ${accessToken}`;
  let body: unknown = input.body;
  let text: string | undefined;
  let rawNumber: string | undefined;
  const multipart = isMultipart(route);
  /** Object mutations keep the route's own encoding: JSON, or multipart (whose type fetch sets). */
  const objectType = multipart ? undefined : 'application/json';
  let contentType: string | undefined = body !== undefined ? objectType : undefined;
  let fileFirst = false;
  let noBoundary = false;
  const labels: string[] = [];

  for (const mutation of mutations) {
    labels.push(mutation.kind);
    switch (mutation.kind) {
      case 'body-drop-key': {
        if (!isObject(body)) body = {};
        const key = pick(Object.keys(body as object), mutation.index);
        if (key !== undefined) {
          const copy = { ...(body as Record<string, unknown>) };
          delete copy[key];
          body = copy;
        }
        break;
      }
      case 'body-extra-key':
        body = { ...(isObject(body) ? body : {}), [mutation.key]: mutation.value };
        contentType ??= objectType;
        break;
      case 'body-wrong-type':
      case 'body-odd-string':
      case 'body-raw-number': {
        if (!isObject(body)) body = {};
        const key = pick(Object.keys(body as object), mutation.index) ?? 'value';
        if (mutation.kind === 'body-raw-number') rawNumber = mutation.token;
        body = {
          ...(body as Record<string, unknown>),
          [key]: mutation.kind === 'body-raw-number' ? RAW_NUMBER : mutation.value,
        };
        contentType ??= objectType;
        break;
      }
      case 'body-replace':
        body = mutation.value;
        contentType ??= objectType;
        break;
      case 'body-malformed':
        text = mutation.text;
        contentType ??= 'application/json';
        break;
      case 'body-truncated': {
        const full = JSON.stringify(body ?? {});
        text = full.slice(0, Math.max(1, Math.min(full.length - 1, mutation.at)));
        contentType ??= 'application/json';
        break;
      }
      case 'body-content-type':
        contentType = mutation.contentType;
        break;
      case 'body-encoding':
        headers['content-encoding'] = mutation.encoding;
        break;
      case 'body-nesting':
        text = mutation.array
          ? `${'['.repeat(mutation.depth)}${']'.repeat(mutation.depth)}`
          : `${'{"a":'.repeat(mutation.depth)}1${'}'.repeat(mutation.depth)}`;
        contentType ??= 'application/json';
        break;
      case 'body-oversized':
        text = JSON.stringify({ ...(isObject(body) ? body : {}), padding: 'x'.repeat(1_100_000) });
        contentType ??= 'application/json';
        break;
      case 'body-unexpected':
        text = mutation.text;
        contentType = 'application/json';
        break;
      case 'multipart-malformed':
        text = mutation.text;
        contentType = 'multipart/form-data; boundary=riff';
        break;
      case 'multipart-no-boundary':
        noBoundary = true;
        break;
      case 'multipart-file-first':
        fileFirst = true;
        break;
      case 'multipart-extra-file':
        body = {
          ...(isObject(body) ? body : {}),
          [mutation.key]: new File([new Uint8Array([0x52, 0x49, 0x46, 0x46])], 'extra.bin'),
        };
        break;
      case 'query-drop': {
        if (query.length > 0) query.splice(mutation.index % query.length, 1);
        break;
      }
      case 'query-extra':
        query.push([mutation.key.replace(/[&=#]/g, encodeURIComponent), encode(mutation.value)]);
        break;
      case 'query-set': {
        const key = percentEncode(mutation.key);
        for (let i = query.length - 1; i >= 0; i--) if (query[i]![0] === key) query.splice(i, 1);
        query.push([key, encode(mutation.value)]);
        break;
      }
      case 'query-odd-value': {
        const pair = pick(query, mutation.index);
        if (pair) pair[1] = encode(mutation.value);
        else query.push(['q', encode(mutation.value)]);
        break;
      }
      case 'query-array': {
        const pair = pick(query, mutation.index);
        if (pair) query.push([pair[0], encode(mutation.value)]);
        else query.push(['a', '1'], ['a', '2']);
        break;
      }
      case 'query-object': {
        const pair = pick(query, mutation.index);
        if (pair) pair[0] = `${pair[0]}[${mutation.sub}]`;
        else query.push([`a[${mutation.sub}]`, '1']);
        break;
      }
      case 'query-key-only': {
        const pair = pick(query, mutation.index);
        if (pair) pair[1] = undefined;
        else query.push(['a', undefined]);
        break;
      }
      case 'path-odd-value': {
        const name = pick(names, mutation.index);
        const encoded = encode(mutation.value);
        if (name !== undefined && !breaksPath(encoded)) params[name] = encoded;
        break;
      }
      case 'header-drop': {
        const name = pick(declaredHeaders, mutation.index);
        if (name) delete headers[name];
        break;
      }
      case 'header-odd-value': {
        const name = pick(declaredHeaders, mutation.index);
        const value = mutation.value.trim();
        if (name && value.length > 0) headers[name] = value;
        break;
      }
      case 'header-extra': {
        const value = mutation.value.trim();
        if (value.length > 0) headers[mutation.name] = value;
        break;
      }
      case 'auth':
        delete headers['authorization'];
        if (mutation.authorization !== undefined && mutation.authorization.trim().length > 0)
          headers['authorization'] = mutation.authorization.trim();
        if (mutation.apiKey !== undefined) headers['x-api-key'] = mutation.apiKey;
        break;
      case 'auth-tamper': {
        const token = headers['authorization']?.replace(/^Bearer /, '');
        if (token) {
          const at = mutation.position % token.length;
          const flipped = token[at] === 'A' ? 'B' : 'A';
          headers['authorization'] = `Bearer ${token.slice(0, at)}${flipped}${token.slice(at + 1)}`;
        }
        break;
      }
      case 'refresh-cookie': {
        headers['cookie'] = `refresh_token=${percentEncode(mutation.value)}`;
        if (mutation.origin !== undefined) headers['origin'] = mutation.origin;
        break;
      }
    }
  }

  let payload: string | FormData | undefined;
  if (route.method === 'GET' || (text === undefined && body === undefined)) {
    payload = undefined;
  } else if (text !== undefined) {
    payload = text;
  } else if (multipart && contentType === undefined && isObject(body)) {
    payload = formData(body, fileFirst, rawNumber);
    if (noBoundary) headers['content-type'] = 'multipart/form-data';
  } else {
    payload = JSON.stringify(body);
    if (rawNumber !== undefined) payload = payload.replace(`"${RAW_NUMBER}"`, rawNumber);
    contentType ??= 'application/json';
  }
  if (typeof payload === 'string' && contentType !== undefined) headers['content-type'] = contentType;

  const filled = route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => params[name] ?? '');
  const queryString = query.map(([key, value]) => (value === undefined ? key : `${key}=${value}`)).join('&');
  let json: { value: unknown } | undefined;
  if (
    typeof payload === 'string' &&
    /^application\/json(;\s*charset=utf-8)?$/i.test(contentType ?? '') &&
    !headers['content-encoding']
  ) {
    try {
      json = { value: JSON.parse(payload) };
    } catch {
      json = undefined;
    }
  }
  return {
    method: route.method,
    url: `${filled}${queryString ? `?${queryString}` : ''}`,
    headers,
    body: payload,
    labels,
    json,
  };
}
