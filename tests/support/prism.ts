/**
 * Runs Stoplight Prism (the locally installed @stoplight/prism-cli) against openapi.json, either
 * as a mock server or as a validating proxy in front of the real server; tells replies that Prism
 * made itself apart from replies of the server it forwards to; and puts a relay (the gate) in
 * front of the proxy so that any client can go through it unchanged.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { connect, createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prismDocument } from './prism-document.js';
import {
  createStrictValidator,
  describeStrictViolations,
  type StrictValidator,
  type StrictViolation,
} from './strict-validator.js';

const require = createRequire(import.meta.url);

/** The committed document: what users of the API read, and what the tests hold the server to. */
export const OPENAPI_DOCUMENT = fileURLToPath(new URL('../../openapi.json', import.meta.url));

const PRISM_CLI = path.join(
  path.dirname(require.resolve('@stoplight/prism-cli/package.json')),
  (require('@stoplight/prism-cli/package.json') as { bin: { prism: string } }).bin.prism,
);

export interface PrismServer {
  mode: 'mock' | 'proxy';
  /** Where Prism listens, e.g. http://127.0.0.1:40123 (no trailing slash). */
  baseUrl: string;
  /** The server Prism forwards to (proxy mode). */
  upstream?: string;
  /** Time from spawn until Prism accepted a connection. */
  startupMs: number;
  /** The last lines Prism wrote (for failure messages). */
  output(): string;
  /** False once the Prism process has exited. */
  running(): boolean;
  close(): Promise<void>;
}

export interface PrismOptions {
  mode: 'mock' | 'proxy';
  /** Proxy mode: the server to forward to. */
  upstream?: string;
  document?: string;
  /** --errors: turn request/response violations into error replies (default true). */
  errors?: boolean;
  /** Log level passed to Prism (default warn; Prism is quiet then except for violations). */
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
  startupTimeoutMs?: number;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function launch(options: PrismOptions, port: number): Promise<PrismServer> {
  const document = options.document ?? OPENAPI_DOCUMENT;
  const args = [
    PRISM_CLI,
    options.mode,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--cors=false',
    `--errors=${options.errors ?? true}`,
    '--verboseLevel',
    options.logLevel ?? 'warn',
    prismDocument(document),
  ];
  if (options.mode === 'proxy') {
    if (!options.upstream) throw new Error('prism proxy needs an upstream');
    args.push(options.upstream);
  }
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  children.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-16_384);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      children.delete(child);
      resolve();
    }),
  );

  const deadline = Date.now() + (options.startupTimeoutMs ?? 60_000);
  while (!(await accepts(port))) {
    if (exited !== undefined)
      throw new Error(`prism ${options.mode} exited with ${exited} before listening:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `prism ${options.mode} did not listen on ${port} within ${options.startupTimeoutMs ?? 60_000} ms:\n${output}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const startupMs = Math.round(performance.now() - started);
  const baseUrl = `http://127.0.0.1:${port}`;
  const prism: PrismServer = {
    mode: options.mode,
    baseUrl,
    upstream: options.upstream?.replace(/\/+$/, ''),
    startupMs,
    output: () => output,
    running: () => exited === undefined,
    async close() {
      if (exited !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(timer);
    },
  };
  return prism;
}

/** Starts Prism on a free loopback port and resolves once it accepts connections. */
export async function startPrism(options: PrismOptions): Promise<PrismServer> {
  let lastError: unknown;
  // The port is free when chosen; another process may take it before Prism binds it, so retry.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await launch(options, await freePort());
    } catch (error) {
      lastError = error;
      if (!/EADDRINUSE/.test(String(error))) break;
    }
  }
  throw lastError;
}

/** The header a gate adds so that the suite's shared Prism reaches that gate's own server (see startSharedPrism). */
export const UPSTREAM_HEADER = 'x-riff-upstream';
const LOOPBACK_UPSTREAM = /^http:\/\/127\.0\.0\.1:(\d{1,5})$/;

/**
 * One `prism proxy --errors` for a whole test run (tests/support/global-setup.ts): each Prism costs
 * about 4.6 s of CPU and 180 MB to start, and the suite starts a hundred test servers. Prism forwards
 * to a router here, which sends each request on to the loopback server its gate named in
 * x-riff-upstream. Should Prism die, it is started again on the same port.
 */
export async function startSharedPrism(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const router = createHttpServer((req, res) => {
    const match = LOOPBACK_UPSTREAM.exec(String(req.headers[UPSTREAM_HEADER] ?? ''));
    if (!match) {
      res.writeHead(421, { 'content-type': 'text/plain' });
      return res.end(`the shared Prism needs ${UPSTREAM_HEADER}: http://127.0.0.1:<port>`);
    }
    const headers = { ...req.headers };
    for (const name of [...HOP_BY_HOP, UPSTREAM_HEADER]) delete headers[name];
    const outgoing = httpRequest(
      { host: '127.0.0.1', port: Number(match[1]), method: req.method, path: req.url, headers, agent: false },
      (incoming) => {
        const out: string[] = [];
        for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
          if (!HOP_BY_HOP.has(incoming.rawHeaders[i]!.toLowerCase()))
            out.push(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
        }
        res.writeHead(incoming.statusCode ?? 502, out);
        incoming.pipe(res);
      },
    );
    outgoing.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`shared Prism router: ${String(error)}`);
    });
    req.pipe(outgoing);
  });
  await new Promise<void>((resolve) => router.listen(0, '127.0.0.1', resolve));
  const upstream = `http://127.0.0.1:${(router.address() as AddressInfo).port}`;
  const options: PrismOptions = { mode: 'proxy', upstream, errors: true };
  let prism = await startPrism(options);
  const port = Number(new URL(prism.baseUrl).port);
  let restarting = false;
  const supervise = setInterval(() => {
    if (restarting || prism.running()) return;
    console.warn(`the shared Prism exited; starting it again. Its last output:\n${prism.output()}`);
    restarting = true;
    launch(options, port)
      .then((next) => (prism = next))
      .finally(() => (restarting = false));
  }, 200);
  return {
    baseUrl: prism.baseUrl,
    async close() {
      clearInterval(supervise);
      await prism.close();
      router.closeAllConnections();
      await new Promise<void>((resolve) => router.close(() => resolve()));
    },
  };
}

export interface PrismViolation {
  location: (string | number)[];
  severity: string;
  code?: string | number;
  message: string;
}

/**
 * What a reply that came through a Prism proxy (started with --errors) is:
 * - server: the server's own reply, forwarded without a response violation;
 * - refused: Prism answered itself because the REQUEST is outside the document (invalid
 *   parameters or body, missing credentials, a path or method the document does not have,
 *   JSON it could not parse). The server never saw it; the caller may send it there directly.
 * - violation: the server's RESPONSE is outside the document (or Prism could not reach the
 *   server). A test must fail.
 */
export type ProxyVerdict =
  | { kind: 'server' }
  | { kind: 'refused'; reason: string }
  | { kind: 'violation'; message: string; violations: PrismViolation[] };

/** Prism's own error types that mean "this request does not fit the document". */
const REQUEST_REFUSALS = new Set([
  'UNPROCESSABLE_ENTITY',
  'UNAUTHORIZED',
  'INVALID_CONTENT_TYPE',
  'NOT_ACCEPTABLE',
  'NO_PATH_MATCHED_ERROR',
  'NO_METHOD_MATCHED_ERROR',
  'NO_SERVER_MATCHED_ERROR',
  'PROXY_UNSUPPORTED_REQUEST_BODY',
]);

export function parseViolationsHeader(value: string | null): PrismViolation[] {
  if (!value) return [];
  try {
    return JSON.parse(value) as PrismViolation[];
  } catch {
    // "Too many violations! <truncated JSON>": keep what can be told from the text.
    const location = /"location":\["response"/.test(value) ? ['response'] : ['request'];
    return [{ location, severity: 'Error', message: value.slice(0, 2000) }];
  }
}

const listViolations = (violations: PrismViolation[]) =>
  violations.map((v) => `  - [${v.severity}] ${v.location.join('.')}: ${v.message}`).join('\n');

export function inspectProxyReply(reply: { status: number; headers: Headers; text: string }): ProxyVerdict {
  const violations = parseViolationsHeader(reply.headers.get('sl-violations'));
  const responseViolations = violations.filter((v) => v.location[0] === 'response');
  if (responseViolations.length > 0) {
    // With --errors, Prism answers its own 500 VIOLATIONS instead of an invalid reply.
    const replaced =
      /#VIOLATIONS"/.test(reply.text) && (reply.headers.get('content-type') ?? '').includes('problem+json');
    return {
      kind: 'violation',
      violations: responseViolations,
      message:
        `the server's ${replaced ? '' : `${reply.status} `}reply violates openapi.json${replaced ? ' (Prism answered 500 in its place)' : ''}:\n` +
        `${listViolations(responseViolations)}\nbody: ${reply.text.slice(0, 1000)}`,
    };
  }
  const type = reply.headers.get('content-type') ?? '';
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    body = undefined;
  }
  if (type.includes('application/problem+json') && body && typeof body === 'object') {
    const problem = body as { type?: string; title?: string; detail?: string; validation?: PrismViolation[] };
    const kind = String(problem.type ?? '').replace(/^https:\/\/stoplight\.io\/prism\/errors#/, '');
    if (REQUEST_REFUSALS.has(kind)) {
      return {
        kind: 'refused',
        reason: `${kind}: ${problem.title ?? ''} ${JSON.stringify(problem.validation ?? problem.detail ?? '')}`,
      };
    }
    const found = problem.validation ?? [];
    return {
      kind: 'violation',
      violations: found,
      message: `prism answered ${reply.status} ${kind}: ${problem.title ?? ''} ${problem.detail ?? ''}\n${listViolations(found)}`,
    };
  }
  // Prism's HTTP layer (micri) refuses a body it cannot parse before any validation, e.g.
  // {"error":{"code":"invalid_json","message":"Invalid JSON"}}. The server's errors always carry success:false.
  if (reply.status >= 400 && body && typeof body === 'object' && !('success' in body)) {
    const error = (body as { error?: { code?: unknown; message?: unknown } }).error;
    if (error && typeof error.code === 'string' && /^[a-z_]+$/.test(error.code)) {
      return { kind: 'refused', reason: `prism could not read the request: ${error.code} ${String(error.message)}` };
    }
  }
  return { kind: 'server' };
}

/** Thrown by the test HTTP helpers when a reply through the gate violates openapi.json. */
export class PrismViolationError extends Error {
  constructor(
    message: string,
    readonly violations: PrismViolation[],
  ) {
    super(message);
    this.name = 'PrismViolationError';
  }
}

// ---------------------------------------------------------------------------------------------
// The gate: a small relay in front of `prism proxy --errors`, so that any client (the test
// helpers, @riff/client, plain fetch) can talk to the server through Prism unchanged.

/** Set on every reply of the gate: `prism` (checked by Prism), `direct`, `violation` or `error`. */
export const GATE_HEADER = 'x-riff-prism';
/** On `direct` replies: why the request did not go through Prism. */
export const GATE_REASON_HEADER = 'x-riff-prism-reason';
/** On `violation` and `error` replies: the id of the recorded violation. */
export const GATE_VIOLATION_HEADER = 'x-riff-prism-violation';

export interface GateViolation {
  id: number;
  method: string;
  url: string;
  message: string;
  violations: PrismViolation[];
  /** A test helper already failed a test with it. */
  reported: boolean;
}

export interface PrismGate {
  /** Where clients send requests. */
  baseUrl: string;
  /** The server behind Prism. */
  upstream: string;
  prism: PrismServer;
  /** Milliseconds Prism took to start. */
  startupMs: number;
  /** Replies that broke openapi.json (or that Prism failed to relay), in order. */
  violations: GateViolation[];
  /** Marks a violation as reported and returns it. */
  report(id: number): GateViolation | undefined;
  close(): Promise<void>;
}

const gates = new Map<string, PrismGate>();

/** The gate listening at this address, if any. */
export function prismGateAt(baseUrl: string): PrismGate | undefined {
  return gates.get(baseUrl.replace(/\/+$/, ''));
}

/** Prism 5 dies (uncaught URIError) on a malformed percent-escape in a path matching a templated path. */
function hasMalformedPathEscape(url: string): boolean {
  try {
    decodeURIComponent(url.split(/[?#]/, 1)[0] ?? '');
    return false;
  } catch {
    return true;
  }
}

/** Prism 5 dies (stack overflow while logging the request) on deeply nested JSON. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') deepest = Math.max(deepest, ++depth);
    else if (char === ']' || char === '}') depth--;
  }
  return deepest;
}

/** Why a request cannot go through Prism (without crashing it or corrupting it), if it cannot. */
export function prismCannotCarry(url: string, body: Buffer, contentType: string | undefined): string | undefined {
  if (hasMalformedPathEscape(url)) return 'malformed percent-escape in the path (crashes Prism 5)';
  if (body.length > 0 && contentType && !/json|^text\/|xml|x-www-form-urlencoded/i.test(contentType)) {
    return `${contentType.split(';')[0]} body (Prism reads bodies as text, which corrupts binary data)`;
  }
  if (body.length > 0 && nestingDepth(body.toString('latin1')) > 500)
    return 'JSON nested more than 500 deep (crashes Prism 5)';
  return undefined;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

interface RawReply {
  status: number;
  /** [name, value, name, value, …] as received (several Set-Cookie stay apart). */
  rawHeaders: string[];
  body: Buffer;
}

function forward(
  target: string,
  method: string,
  url: string,
  rawHeaders: string[],
  body: Buffer,
  hadLength: boolean,
): Promise<RawReply> {
  const headers: Record<string, string[]> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const lower = rawHeaders[i]!.toLowerCase();
    if (HOP_BY_HOP.has(lower) || lower === 'host' || lower === 'content-length' || lower === 'expect') continue;
    (headers[lower] ??= []).push(rawHeaders[i + 1]!);
  }
  if (body.length > 0 || hadLength) headers['content-length'] = [String(body.length)];
  const { hostname, port } = new URL(target);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: hostname, port, method, path: url, headers, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 502, rawHeaders: incoming.rawHeaders, body: Buffer.concat(chunks) }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body.length > 0 ? body : undefined);
  });
}

function headersOf(rawHeaders: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    try {
      headers.append(rawHeaders[i]!, rawHeaders[i + 1]!);
    } catch {
      // a value Headers will not hold: irrelevant to the verdict
    }
  }
  return headers;
}

const isTextual = (contentType: string | null) => !contentType || /json|^text\/|xml|javascript|html/i.test(contentType);
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 400);

const strictValidators = new Map<string, StrictValidator>();

/** The strict validator of a document, compiled once per test file (its validators are cached inside). */
export function strictValidatorFor(document: string): StrictValidator {
  let validator = strictValidators.get(document);
  if (!validator) {
    validator = createStrictValidator(JSON.parse(readFileSync(document, 'utf8')) as Record<string, unknown>);
    strictValidators.set(document, validator);
  }
  return validator;
}

const asPrismViolation = (violation: StrictViolation): PrismViolation => ({
  location: ['response', ...violation.pointer.split('/').filter(Boolean)],
  severity: 'Error',
  code: `strict:${violation.operationId}`,
  message: `${violation.operationId} ${violation.status} ${violation.pointer}: ${violation.message}`,
});

/** A handle on the run's shared Prism (started by global-setup.ts, which also stops it). */
function sharedPrismAt(baseUrl: string, upstream: string): PrismServer {
  return {
    mode: 'proxy',
    baseUrl,
    upstream,
    startupMs: 0,
    output: () => '(the shared Prism writes to the output of the vitest run itself)',
    running: () => true,
    close: async () => undefined,
  };
}

/**
 * Starts `prism proxy --errors openapi.json <upstream>` and a relay in front of it. The relay sends
 * every request to Prism and answers with the server's reply as Prism passed it on, except:
 * - Prism refused the request as outside the document (invalid input, missing credentials, a path
 *   the document lacks, JSON it cannot parse): the server never saw it, so the relay sends it to
 *   the server directly (tests send invalid requests on purpose);
 * - the request would crash Prism 5, has a binary body (multipart uploads), or is a GET/HEAD whose
 *   reply is binary (Prism reads bodies as text): directly as well;
 * - the server's reply breaks openapi.json: the violation is recorded (see `violations`) and the
 *   reply carries `x-riff-prism: violation`. tests/support/http.ts fails the request at once;
 *   startTestServer's close() fails on any violation no helper reported.
 * Besides Prism, every reply the gate answers with (through Prism or direct, JSON or not) is held
 * to the document by the strict validator (strict-validator.ts: declared status, content type and
 * headers, closed schemas); what it finds is a violation like Prism's. `strict: false` turns it off.
 */
export async function startPrismGate(options: {
  upstream: string;
  document?: string;
  shared?: string;
  strict?: boolean;
}): Promise<PrismGate> {
  const upstream = options.upstream.replace(/\/+$/, '');
  const strict = options.strict === false ? undefined : strictValidatorFor(options.document ?? OPENAPI_DOCUMENT);
  const prism = options.shared
    ? sharedPrismAt(options.shared, upstream)
    : await startPrism({ mode: 'proxy', upstream, document: options.document, errors: true });
  // the shared Prism learns from each request which server it is for
  const toPrism = options.shared ? [UPSTREAM_HEADER, upstream] : [];
  const violations: GateViolation[] = [];
  const record = (method: string, url: string, message: string, found: PrismViolation[]) => {
    const violation = { id: violations.length + 1, method, url, message, violations: found, reported: false };
    violations.push(violation);
    return violation;
  };

  const relay = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const method = req.method ?? 'GET';
      const url = req.url ?? '/';
      const body = Buffer.concat(chunks);
      const hadLength = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
      const answer = (reply: RawReply, gate: Record<string, string>) => {
        if (strict && gate[GATE_HEADER] !== 'violation') {
          const found = strict.check({
            method,
            url,
            status: reply.status,
            headers: headersOf(reply.rawHeaders),
            body: reply.body,
          });
          if (found && found.length > 0) {
            const violation = record(
              method,
              url,
              `${method} ${url}: the server's ${reply.status} reply (${gate[GATE_HEADER]}) breaks openapi.json by the strict check:\n` +
                `${describeStrictViolations(method, url, found.slice(0, 20))}${found.length > 20 ? `\n(and ${found.length - 20} more)` : ''}\n` +
                `body: ${isTextual(headersOf(reply.rawHeaders).get('content-type')) ? reply.body.toString('utf8').slice(0, 1000) : `(${reply.body.length} bytes)`}`,
              found.map(asPrismViolation),
            );
            gate = { ...gate, [GATE_HEADER]: 'violation', [GATE_VIOLATION_HEADER]: String(violation.id) };
          }
        }
        const out: string[] = [];
        for (let i = 0; i < reply.rawHeaders.length; i += 2) {
          const lower = reply.rawHeaders[i]!.toLowerCase();
          if (HOP_BY_HOP.has(lower) || (lower === 'content-length' && method !== 'HEAD')) continue;
          out.push(reply.rawHeaders[i]!, reply.rawHeaders[i + 1]!);
        }
        if (method !== 'HEAD' && reply.status !== 204 && reply.status !== 304)
          out.push('content-length', String(reply.body.length));
        for (const [name, value] of Object.entries(gate)) out.push(name, value);
        res.writeHead(reply.status, out);
        res.end(method === 'HEAD' ? undefined : reply.body);
      };
      const direct = async (reason: string) =>
        answer(await forward(upstream, method, url, req.rawHeaders, body, hadLength), {
          [GATE_HEADER]: 'direct',
          [GATE_REASON_HEADER]: headerSafe(reason),
        });
      try {
        const bypass = prismCannotCarry(url, body, req.headers['content-type']);
        if (bypass) return await direct(bypass);
        let reply: RawReply;
        try {
          reply = await forward(prism.baseUrl, method, url, [...req.rawHeaders, ...toPrism], body, hadLength);
        } catch (error) {
          const violation = record(
            method,
            url,
            `Prism did not answer (${String(error)}); it ${prism.running() ? 'still runs' : 'has exited'}. Its last output:\n${prism.output()}`,
            [],
          );
          res.writeHead(502, {
            'content-type': 'text/plain',
            [GATE_HEADER]: 'error',
            [GATE_VIOLATION_HEADER]: String(violation.id),
          });
          return res.end(violation.message);
        }
        const headers = headersOf(reply.rawHeaders);
        const verdict = inspectProxyReply({ status: reply.status, headers, text: reply.body.toString('utf8') });
        if (verdict.kind === 'refused') return await direct(verdict.reason);
        if (verdict.kind === 'violation') {
          // Prism's proxy follows redirects: what it checked was the target's reply (an S3 object), not
          // the server's. The server's own redirect goes to the caller directly (the strict check holds it).
          if (method === 'GET' || method === 'HEAD') {
            const own = await forward(upstream, method, url, req.rawHeaders, body, hadLength);
            if (own.status >= 300 && own.status < 400)
              return answer(own, { [GATE_HEADER]: 'direct', [GATE_REASON_HEADER]: 'a redirect (Prism follows it)' });
          }
          const violation = record(method, url, `${method} ${url}: ${verdict.message}`, verdict.violations);
          return answer(reply, { [GATE_HEADER]: 'violation', [GATE_VIOLATION_HEADER]: String(violation.id) });
        }
        if ((method === 'GET' || method === 'HEAD') && !isTextual(headers.get('content-type')))
          return await direct('binary reply (Prism reads bodies as text)');
        return answer(reply, { [GATE_HEADER]: 'prism' });
      } catch (error) {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', [GATE_HEADER]: 'error' });
        res.end(`prism gate: ${String(error)}`);
      }
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
  const gate: PrismGate = {
    baseUrl,
    upstream,
    prism,
    startupMs: prism.startupMs,
    violations,
    report(id) {
      const violation = violations.find((entry) => entry.id === id);
      if (violation) violation.reported = true;
      return violation;
    },
    async close() {
      gates.delete(baseUrl);
      relay.closeAllConnections();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      await prism.close();
    },
  };
  gates.set(baseUrl, gate);
  return gate;
}
