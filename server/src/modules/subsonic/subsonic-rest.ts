import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { anonymousActor, type Actor, type RequestOrigin } from '../../platform/access/actor.js';
import type { RateHeaders } from '../../platform/auth/api-key-limits.js';
import { toAppError } from '../../platform/errors/error-middleware.js';
import type { RiffRequest } from '../../platform/http/http-exchange.js';
import type { SubsonicAuthenticator } from './rest-auth.js';
import { SUBSONIC_ERROR, SubsonicError, fromAppError, missingParameter } from './rest-error.js';
import { REPLIED, type MethodRegistry } from './rest-methods.js';
import { SubsonicParams } from './rest-params.js';
import { toJson, toXml, type SubsonicNode } from './rest-serializer.js';

/** The Subsonic API version served: the XSD it validates against. */
export const SUBSONIC_API_VERSION = '1.16.1';
/** The server's name in every reply (OpenSubsonic's `type`). */
export const SERVER_TYPE = 'riff';

/** One call as the router hands it over: the method's name from the path, the raw parameters, where it came from. */
export interface SubsonicCall {
  /** The last path segment without `.view`. */
  method: string;
  query: string;
  /** A form POST's body, if any. */
  form?: string;
  origin: RequestOrigin;
  http: { req: IncomingMessage; res: ServerResponse };
}

/** A subsonic-response to send, or REPLIED when the method wrote its own reply. */
export type SubsonicAnswer = { format: 'xml' | 'json'; body: string; headers: Record<string, string> } | typeof REPLIED;

export interface SubsonicRestDeps {
  methods: MethodRegistry;
  auth: SubsonicAuthenticator;
  /** Riff's version (package.json), the reply's `serverVersion`. */
  serverVersion: string;
  logger: Logger;
}

/** `f`: xml unless json is asked for (jsonp is not served: its callback runs a caller-named function in a page). */
function formatOf(query: string, form: string | undefined): 'xml' | 'json' {
  const f = new URLSearchParams(query).get('f') ?? (form ? new URLSearchParams(form).get('f') : null);
  return f === 'json' ? 'json' : 'xml';
}

/** `v`: 1.x.y is served; a higher major needs a newer server (30), a lower one a newer app (20). */
function checkVersion(v: string): void {
  const match = /^(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?$/.exec(v);
  if (!match) throw new SubsonicError(SUBSONIC_ERROR.generic, 'Parameter v must be a version such as 1.16.1');
  const major = Number(match[1]);
  if (major > 1) {
    throw new SubsonicError(
      SUBSONIC_ERROR.serverMustUpgrade,
      `Incompatible Subsonic REST protocol version: this server speaks ${SUBSONIC_API_VERSION}`,
    );
  }
  if (major < 1) {
    throw new SubsonicError(
      SUBSONIC_ERROR.clientMustUpgrade,
      `Incompatible Subsonic REST protocol version: the app must speak 1.x (this server speaks ${SUBSONIC_API_VERSION})`,
    );
  }
}

/**
 * The Subsonic interface without HTTP: a call's parameters in, a reply out. Checks the version and
 * the credentials (the method's `needs`), runs the method, and turns every refusal into the Subsonic
 * error it is, so an app never sees anything but a subsonic-response.
 */
export class SubsonicRest {
  constructor(private readonly deps: SubsonicRestDeps) {}

  async answer(call: SubsonicCall): Promise<SubsonicAnswer> {
    const format = formatOf(call.query, call.form);
    const headers: Record<string, string> = {};
    const rateHeaders: RateHeaders = { setHeader: (name, value) => void (headers[name] = value) };
    try {
      const reply = await this.run(call, rateHeaders);
      if (reply === REPLIED) return REPLIED;
      return { format, headers, body: this.render(format, { status: 'ok', ...reply }) };
    } catch (error) {
      return this.refuse(call, error, headers);
    }
  }

  /** The error reply for a call that failed (also for a body the router could not read). */
  refuse(call: SubsonicCall, error: unknown, headers: Record<string, string> = {}): SubsonicAnswer {
    const refusal = this.refusal(error, call);
    if (call.http.res.headersSent) {
      // a method that had started its own reply cannot turn into an error reply: the connection ends
      call.http.res.destroy();
      return REPLIED;
    }
    const format = formatOf(call.query, call.form);
    return {
      format,
      headers: { ...headers, ...refusal.headers },
      body: this.render(format, { status: 'failed', error: { code: refusal.code, message: refusal.message } }),
    };
  }

  private async run(call: SubsonicCall, rateHeaders: RateHeaders) {
    const params = SubsonicParams.parse(call.query, call.form);
    const found = this.deps.methods.find(call.method);
    if (!found)
      throw new SubsonicError(SUBSONIC_ERROR.generic, `Method ${call.method} is not supported by this server`);
    const client = params.get('c') ?? '';
    if (found.needs === 'none') {
      const actor: Actor = anonymousActor(call.origin);
      return found.handle({ actor, params, client, http: call.http });
    }
    checkVersion(params.required('v'));
    if (client === '') throw missingParameter('c');
    const actor = await this.deps.auth.authenticate(params, found.needs, call.origin, rateHeaders);
    return found.handle({ actor, params, client, http: call.http });
  }

  /** What a thrown error tells the app: a SubsonicError as it is, a service's refusal as its Subsonic code, the rest as the generic code. */
  private refusal(error: unknown, call: SubsonicCall): SubsonicError {
    if (error instanceof SubsonicError) return error;
    const appError = toAppError(error, call.http.req as RiffRequest);
    if (appError) return fromAppError(appError);
    this.deps.logger.error(
      { err: error, method: call.method, requestId: call.origin.requestId },
      'unhandled error in a Subsonic method',
    );
    return new SubsonicError(SUBSONIC_ERROR.generic, 'Something went wrong on our side');
  }

  private render(format: 'xml' | 'json', { status, ...elements }: { status: 'ok' | 'failed' } & SubsonicNode): string {
    const root: SubsonicNode = {
      status,
      version: SUBSONIC_API_VERSION,
      type: SERVER_TYPE,
      serverVersion: this.deps.serverVersion,
      openSubsonic: true,
      ...elements,
    };
    return format === 'json' ? toJson(root) : toXml(root);
  }
}
