import { initClient, validateResponse as checkResponse, type ApiFetcherArgs } from '@ts-rest/core';
import { contract, routeMeta, TokenResponseSchema } from '@riff/contract';
import type { LoginBody, LoginReply, LogoutReply, RiffApi, TwoFactorLoginBody } from './contract-types.js';
import { crossTabCoordinator, soloCoordinator, type AnnouncedPair, type CrossTabOptions } from './cross-tab.js';
import { defaultSessionHint, type SessionHint } from './session-hint.js';

// The contract's types and nothing that names @riff/contract or @ts-rest/core: see contract-types.ts.
export * from './contract-types.js';
export type { CrossTabOptions, LockManagerLike } from './cross-tab.js';
export { memorySessionHint, storageSessionHint, type SessionHint } from './session-hint.js';
export * from './live-messages.js';

/** Where the client keeps the tokens between calls (memory by default; bring your own storage). */
export interface TokenStore {
  getAccessToken(): string | undefined | Promise<string | undefined>;
  setAccessToken(token: string | undefined): void | Promise<void>;
  /** For clients that cannot use the HttpOnly cookie (Node, mobile); browsers leave it undefined. */
  getRefreshToken?(): string | undefined | Promise<string | undefined>;
  setRefreshToken?(token: string | undefined): void | Promise<void>;
}

export function memoryTokenStore(initial: { accessToken?: string; refreshToken?: string } = {}): Required<TokenStore> {
  let accessToken = initial.accessToken;
  let refreshToken = initial.refreshToken;
  return {
    getAccessToken: () => accessToken,
    setAccessToken: (token) => {
      accessToken = token;
    },
    getRefreshToken: () => refreshToken,
    setRefreshToken: (token) => {
      refreshToken = token;
    },
  };
}

export interface RiffClientOptions {
  /** Service address, without /api/v1 (e.g. https://api.riff.example). */
  baseUrl: string;
  tokens?: TokenStore;
  /** Validate every reply against the contract (default true); a mismatch throws ResponseValidationError. */
  validateResponse?: boolean;
  /** Extra headers on every request (e.g. X-Request-Id). */
  headers?: Record<string, string>;
  /**
   * Called when a refresh is refused (400, 401 or 403): the session is over and the tokens are
   * cleared. Not called when there was no session to renew (a first visit).
   */
  onSessionExpired?: () => void;
  /**
   * Whether a refresh cookie is worth trying when the client holds no token (default: a flag in
   * localStorage where there is one, else memory).
   */
  sessionHint?: SessionHint;
  /**
   * Refreshes one at a time across the browser's tabs (Web Locks, else BroadcastChannel), each new
   * pair passed to the tabs of the same user. Default: on where there is a document (browsers), off elsewhere.
   */
  crossTab?: boolean | CrossTabOptions;
  /** The fetch to use (default: globalThis.fetch at call time). */
  fetch?: typeof globalThis.fetch;
  /** Fetch credentials mode (default 'include', so browsers send the refresh_token cookie). */
  credentials?: RequestCredentials;
}

export interface FetchReply {
  status: number;
  body: unknown;
  headers: Headers;
}

type HeaderMap = Record<string, string>;

const lowerCaseKeys = (headers: HeaderMap = {}): HeaderMap =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/** The `sub` of a JWT, read without checking it: only to tell whose pair another tab announced. */
function subjectOf(token: string): string | undefined {
  try {
    const payload = token.split('.')[1];
    if (!payload) return undefined;
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}

const withBearer = (headers: HeaderMap, token: string | undefined): HeaderMap =>
  token ? { ...headers, authorization: `Bearer ${token}` } : headers;

/** Reads a reply the way ts-rest's own fetcher does: JSON, text, or a Blob for anything else. */
async function readReply(response: Response): Promise<FetchReply> {
  const type = response.headers.get('content-type') ?? '';
  let body: unknown;
  if (type.includes('application/') && type.includes('json')) {
    const text = await response.text();
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } else if (type.includes('text/')) {
    body = await response.text();
  } else {
    body = await response.blob();
  }
  return { status: response.status, body, headers: response.headers };
}

/**
 * The body to send. ts-rest JSON-encodes every multipart field (a title arrives with its quotes);
 * Riff reads text fields as they are, and before the file: so plain objects are rebuilt as
 * FormData with text fields first, then files. A FormData given by the caller goes as it is.
 */
function requestBody(args: ApiFetcherArgs): BodyInit | null {
  const raw = args.rawBody;
  if (
    args.contentType !== 'multipart/form-data' ||
    raw === null ||
    typeof raw !== 'object' ||
    raw instanceof FormData
  ) {
    return (args.body ?? null) as BodyInit | null;
  }
  const form = new FormData();
  const entries = Object.entries(raw as Record<string, unknown>).filter(
    ([, value]) => value !== undefined && value !== null,
  );
  const isFile = (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;
  for (const [name, value] of entries) if (!isFile(value)) form.append(name, String(value));
  for (const [name, value] of entries)
    if (isFile(value)) form.append(name, value, value instanceof File ? value.name : 'blob');
  return form;
}

export interface RiffClientHelpers {
  tokens: TokenStore;
  /**
   * Logs in and keeps the tokens; the full LoginResponse is returned. For an account with 2FA on,
   * `body.requires_2fa` is true and no tokens are kept: pass `body.two_factor_token` and a code to
   * `loginTwoFactor`.
   */
  login(body: LoginBody): Promise<LoginReply>;
  /** Completes a 2FA login with a TOTP or recovery code and keeps the tokens. */
  loginTwoFactor(body: TwoFactorLoginBody): Promise<LoginReply>;
  /** Revokes the refresh token family on the server and forgets the tokens, whatever the server answers. */
  logout(): Promise<LogoutReply>;
  /**
   * Rotates the tokens now (shared with any refresh under way, in this tab and others); false when
   * it did not succeed, or when there is no session to renew (no token and no session hint).
   */
  refresh(): Promise<boolean>;
  /** Stops listening to other tabs (only needed for clients made and dropped repeatedly). */
  close(): void;
}

export type RiffClient = RiffApi & RiffClientHelpers;

/**
 * A typed client made from the contract. It sends the bearer token on authenticated routes and,
 * when one answers 401, refreshes once (a single refresh shared by every request that is waiting)
 * and retries. Works in browsers and Node (no Node-only imports).
 */
export function createRiffClient(options: RiffClientOptions): RiffClient {
  const tokens = options.tokens ?? memoryTokenStore();
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const baseHeaders = lowerCaseKeys(options.headers);
  const credentials = options.credentials ?? 'include';
  const shouldValidate = options.validateResponse ?? true;
  let refreshing: Promise<boolean> | undefined;

  const send = async (url: string, init: RequestInit): Promise<FetchReply> => {
    // Called unbound: browsers refuse window.fetch invoked as a method of another object.
    const fetchImpl = options.fetch ?? globalThis.fetch;
    return readReply(await fetchImpl(url, { credentials, ...init }));
  };

  const sendRoute = (args: ApiFetcherArgs, headers: HeaderMap): Promise<FetchReply> =>
    send(args.path, { ...args.fetchOptions, method: args.method, headers, body: requestBody(args) });

  const sessionHint = options.sessionHint ?? defaultSessionHint();
  /** Another tab's new pair is taken when it is for the user this client holds tokens of. */
  const adopt = async (pair: AnnouncedPair) => {
    const current = await tokens.getAccessToken();
    if (!current || subjectOf(current) !== pair.subject || current === pair.access_token) return;
    await tokens.setAccessToken(pair.access_token);
    await tokens.setRefreshToken?.(pair.refresh_token);
  };
  const crossTab = options.crossTab ?? 'document' in globalThis;
  const coordinator = crossTab
    ? crossTabCoordinator(crossTab === true ? {} : crossTab, (pair) => void adopt(pair))
    : soloCoordinator;

  /** One refresh request (body when stored, else the cookie); true when a new pair is kept. */
  const rotate = async (): Promise<boolean> => {
    const refreshToken = await tokens.getRefreshToken?.();
    // nothing to present and no cookie known: a first visit, not an expired session
    if (!refreshToken && !(await tokens.getAccessToken()) && !(await sessionHint.get())) return false;
    const reply = await send(`${baseUrl}${contract.auth.refresh.path}`, {
      method: 'POST',
      headers: { ...baseHeaders, 'content-type': 'application/json' },
      body: JSON.stringify(refreshToken ? { refresh_token: refreshToken } : {}),
    });
    const pair = reply.status === 200 ? TokenResponseSchema.safeParse(reply.body) : undefined;
    if (pair?.success) {
      await tokens.setAccessToken(pair.data.access_token);
      await tokens.setRefreshToken?.(pair.data.refresh_token);
      await sessionHint.set(true);
      const subject = subjectOf(pair.data.access_token);
      if (subject)
        coordinator.announce({ subject, access_token: pair.data.access_token, refresh_token: pair.data.refresh_token });
      return true;
    }
    if (reply.status === 400 || reply.status === 401 || reply.status === 403) {
      await tokens.setAccessToken(undefined);
      await tokens.setRefreshToken?.(undefined);
      await sessionHint.set(false);
      options.onSessionExpired?.();
    }
    // 429, 5xx or a malformed pair: the session may still be fine; the caller gets its 401.
    return false;
  };

  /**
   * Rotates the tokens: concurrent callers in this tab share one request, and other tabs wait
   * for it; a tab that waited and meanwhile got the new pair from another tab sends none.
   */
  const refreshOnce = (): Promise<boolean> => {
    refreshing ??= (async () => {
      try {
        const before = await tokens.getAccessToken();
        return await coordinator.exclusive(async () => {
          const now = await tokens.getAccessToken();
          if (now && now !== before) return true;
          return rotate();
        });
      } finally {
        refreshing = undefined;
      }
    })();
    return refreshing;
  };

  const authenticated = async (args: ApiFetcherArgs, headers: HeaderMap): Promise<FetchReply> => {
    if (refreshing) await refreshing.catch(() => false);
    const used = await tokens.getAccessToken();
    const reply = await sendRoute(args, withBearer(headers, used));
    if (reply.status !== 401) return reply;
    const current = await tokens.getAccessToken();
    // Another request refreshed while this one was in flight: retry with its token.
    if (current && current !== used) return sendRoute(args, withBearer(headers, current));
    // Another request's refresh failed meanwhile and ended the session.
    if (used && !current) return reply;
    if (!(await refreshOnce())) return reply;
    return sendRoute(args, withBearer(headers, await tokens.getAccessToken()));
  };

  const api = async (args: ApiFetcherArgs): Promise<FetchReply> => {
    const headers = { ...baseHeaders, ...lowerCaseKeys(args.headers) };
    // Public routes get no token; a call that brings its own credentials (API key) is left alone.
    const ownCredentials = 'authorization' in headers || 'x-api-key' in headers;
    const reply =
      routeMeta(args.route).auth === 'public' || ownCredentials
        ? await sendRoute(args, headers)
        : await authenticated(args, headers);
    if (!shouldValidate) return reply;
    const checked = checkResponse({ appRoute: args.route, response: reply });
    return { status: checked.status, body: checked.body, headers: reply.headers };
  };

  const client: RiffApi = initClient(contract, {
    baseUrl,
    validateResponse: shouldValidate,
    throwOnUnknownStatus: true,
    api,
  });

  const keepTokens = async (reply: LoginReply): Promise<LoginReply> => {
    if (reply.status === 200 && !reply.body.requires_2fa) {
      await tokens.setAccessToken(reply.body.token.access_token);
      await tokens.setRefreshToken?.(reply.body.token.refresh_token);
      await sessionHint.set(true);
    }
    return reply;
  };

  const helpers: RiffClientHelpers = {
    tokens,
    login: async (body) => keepTokens(await client.auth.login({ body })),
    loginTwoFactor: async (body) => keepTokens(await client.auth.loginTwoFactor({ body })),
    logout: async () => {
      try {
        const refreshToken = await tokens.getRefreshToken?.();
        return await client.auth.logout({ body: refreshToken ? { refresh_token: refreshToken } : {} });
      } finally {
        await tokens.setAccessToken(undefined);
        await tokens.setRefreshToken?.(undefined);
        await sessionHint.set(false);
      }
    },
    refresh: refreshOnce,
    close: () => coordinator.close(),
  };
  return Object.assign(client, helpers);
}
