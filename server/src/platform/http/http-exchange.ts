import { IncomingMessage, ServerResponse } from 'node:http';
import type { AppRoute } from '@ts-rest/core';
import * as contentType from 'content-type';
import { serialize as serializeCookie, type CookieSerializeOptions } from 'cookie';
import fresh from 'fresh';
import * as mime from 'mime-types';
import proxyaddr from 'proxy-addr';
import { parse as parseQuery } from 'qs';
import typeis from 'type-is';
import type { Logger } from 'pino';
import type { Actor } from '../access/actor.js';
import { requestFields } from '../logging/logger.js';

/**
 * The request every handler and middleware sees: Node's own, made by the HTTP server as this class
 * (createServer's IncomingMessage option), with the few helpers the service uses. Express set its
 * prototype onto every request instead, which cost more than a third of a simple read.
 * The helpers behave as Express 5's do, so the replies are byte for byte the same.
 */
export class RiffRequest extends IncomingMessage {
  /** The request id: the caller's X-Request-Id when sane, else a new UUID (request-log.middleware). */
  id = '';
  /** The path values of the matched contract route, as strings. */
  params: Record<string, string> = {};
  /** The parsed body, when the route declares one. */
  body: unknown = undefined;
  /** The raw JSON body, for routes that check a signature over it. */
  rawBody: Buffer | undefined = undefined;
  /** Set once per request by the authentication middleware. */
  actor: Actor | undefined = undefined;
  /** The contract route this request matched. */
  tsRestRoute: AppRoute | undefined = undefined;
  /** Whether X-Forwarded-For is believed (TRUST_PROXY); set by the app before any middleware. */
  trustProxy = false;
  declare res: RiffResponse;
  private parsedQuery: Record<string, unknown> | undefined = undefined;
  private logger: Logger | undefined = undefined;
  /** Where request-log.middleware puts the service's logger; `log` makes the request's child from it lazily. */
  baseLogger: Logger | undefined = undefined;

  /** The path without the query string. */
  get path(): string {
    const url = this.url ?? '/';
    const query = url.indexOf('?');
    return query === -1 ? url : url.slice(0, query);
  }

  /** The query string parsed as Express's 'extended' parser does (qs), once. */
  get query(): Record<string, unknown> {
    if (this.parsedQuery === undefined) {
      const url = this.url ?? '';
      const start = url.indexOf('?');
      this.parsedQuery =
        start === -1 ? {} : (parseQuery(url.slice(start + 1), { allowPrototypes: true }) as Record<string, unknown>);
    }
    return this.parsedQuery;
  }

  set query(value: Record<string, unknown>) {
    this.parsedQuery = value;
  }

  /** The client's address; with TRUST_PROXY, the first address X-Forwarded-For names. */
  get ip(): string | undefined {
    return this.trustProxy ? proxyaddr(this, () => true) : this.socket.remoteAddress;
  }

  /** A child logger carrying this request's id, made on first use (most requests never log beyond their line). */
  get log(): Logger {
    if (!this.logger) {
      if (!this.baseLogger) throw new Error('the request logger has not run');
      this.logger = this.baseLogger.child({ req: requestFields(this) });
    }
    return this.logger;
  }

  set log(logger: Logger) {
    this.logger = logger;
  }

  /** The first of `types` the body's Content-Type matches, false when none, null without a body. */
  is(types: string | string[]): string | false | null {
    return typeis(this, Array.isArray(types) ? types : [types]);
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

function setCharset(type: string, charset: string): string {
  // what json() sets, on every reply: no need to parse it
  if (type === JSON_TYPE && charset === 'utf-8') return type;
  const parsed = contentType.parse(type);
  parsed.parameters['charset'] = charset;
  return contentType.format(parsed);
}

/** The response every handler sees, with Express 5's status/json/send/type/cookie semantics. */
export class RiffResponse<Request extends IncomingMessage = RiffRequest> extends ServerResponse<Request> {
  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  /** Sets Content-Type: a bare extension or name ('html') becomes its full type, as Express does. */
  type(type: string): this {
    const full = type.includes('/') ? type : mime.contentType(type) || 'application/octet-stream';
    this.setHeader('Content-Type', mime.contentType(full) || full);
    return this;
  }

  json(value: unknown): this {
    const body = JSON.stringify(value);
    // send() gives a string the JSON type (with its charset) when no type was set
    return this.send(body ?? '', JSON_TYPE);
  }

  /** Strings and buffers as Express's res.send (no generated ETag: the app never made one). */
  send(body: string | Buffer | null | undefined, defaultType?: string): this {
    let chunk: string | Buffer = body ?? '';
    // each header is looked up once: a lookup lower-cases its name every time
    const type = this.getHeader('Content-Type');
    if (typeof chunk === 'string') {
      this.setHeader(
        'Content-Type',
        typeof type === 'string' ? setCharset(type, 'utf-8') : (defaultType ?? 'text/html; charset=utf-8'),
      );
    } else if (type === undefined) {
      this.setHeader('Content-Type', 'application/octet-stream');
    }
    if (this.getHeader('Transfer-Encoding') === undefined) this.setHeader('Content-Length', Buffer.byteLength(chunk));
    if (this.isFresh()) this.statusCode = 304;
    if (this.statusCode === 204 || this.statusCode === 304) {
      this.removeHeader('Content-Type');
      this.removeHeader('Content-Length');
      this.removeHeader('Transfer-Encoding');
      chunk = '';
    }
    if (this.req.method === 'HEAD') this.end();
    else this.end(chunk);
    return this;
  }

  /** Express's req.fresh: a GET or HEAD whose validators match what this reply carries. */
  private isFresh(): boolean {
    const method = this.req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const etag = this.getHeader('ETag') as string | undefined;
    const lastModified = this.getHeader('Last-Modified') as string | undefined;
    if (etag === undefined && lastModified === undefined) return false;
    const status = this.statusCode;
    if ((status < 200 || status >= 300) && status !== 304) return false;
    return fresh(this.req.headers, { etag, 'last-modified': lastModified });
  }

  cookie(name: string, value: string, options: CookieSerializeOptions & { maxAge?: number } = {}): this {
    const opts: CookieSerializeOptions = { ...options };
    if (options.maxAge != null) {
      opts.expires = new Date(Date.now() + options.maxAge);
      opts.maxAge = Math.floor(options.maxAge / 1000);
    }
    opts.path ??= '/';
    this.appendHeader('Set-Cookie', serializeCookie(name, value, opts));
    return this;
  }

  clearCookie(name: string, options: CookieSerializeOptions = {}): this {
    const { maxAge: _ignored, ...rest } = options;
    return this.cookie(name, '', { path: '/', ...rest, expires: new Date(1) });
  }
}

/** The server options that make every request and response one of the classes above. */
export const exchangeClasses = { IncomingMessage: RiffRequest, ServerResponse: RiffResponse } as const;
