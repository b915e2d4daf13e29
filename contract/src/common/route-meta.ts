/**
 * How a route is authenticated. This one declaration drives both the server's authentication
 * middleware and the operation's `security` in openapi.json.
 *
 * - public: no credentials are read.
 * - optional: credentials are used when sent (an invalid one is still 401), e.g. to show a caller
 *   their own private items.
 * - user: a bearer access token is required.
 * - stream: like optional, and a stream token (`?token=` or bearer) is accepted too: public audio
 *   streams for anyone, private audio only for its owner.
 *
 * `apiKey` says whether a developer API key may stand in for the user. The scope a key needs
 * follows from the method: GET and HEAD need read, every other
 * method needs write; admin allows everything.
 */
export type RouteAuth = 'public' | 'optional' | 'user' | 'stream';

export interface RouteMeta {
  auth: RouteAuth;
  apiKey: boolean;
  /** The route also reads the refresh token from the `refresh_token` cookie. */
  refreshCookie?: boolean;
  /** A JSON body may be this many bytes (default 1 MiB): for a body that carries a whole document. */
  jsonBodyLimit?: number;
  /** optional auth only: credentials that fail are ignored (the caller is anonymous) instead of refused. */
  lenient?: boolean;
  /**
   * user auth only: the route is for staff (role moderator or admin) or for admins alone; anyone
   * else signed in gets 403 FORBIDDEN before the route runs.
   */
  staff?: StaffLevel;
}

/** Who counts as staff: `staff` is a moderator or an admin, `admin` an admin only. */
export type StaffLevel = 'staff' | 'admin';

export const API_KEY_SCOPES = ['read', 'write', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const publicRoute = { auth: 'public', apiKey: false } as const satisfies RouteMeta;
export const optionalAuth = { auth: 'optional', apiKey: true } as const satisfies RouteMeta;
/** Optional auth that never refuses: for a route that must work with a stale token (a frontend's error log). */
export const lenientAuth = { auth: 'optional', apiKey: false, lenient: true } as const satisfies RouteMeta;
export const userRoute = { auth: 'user', apiKey: true } as const satisfies RouteMeta;
/** For account-security operations that a developer key must never perform. */
export const userOnlyRoute = { auth: 'user', apiKey: false } as const satisfies RouteMeta;
export const streamRoute = { auth: 'stream', apiKey: true } as const satisfies RouteMeta;
/** Moderators and admins, signed in with their password (a developer key never acts as staff). */
export const staffRoute = { auth: 'user', apiKey: false, staff: 'staff' } as const satisfies RouteMeta;
/** Admins only, signed in with their password. */
export const adminRoute = { auth: 'user', apiKey: false, staff: 'admin' } as const satisfies RouteMeta;

export function requiredScope(method: string): Exclude<ApiKeyScope, 'admin'> {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/**
 * The route's auth metadata. There is no default: a route that declares none fails when the
 * server registers it and when openapi.json is generated, so a forgotten tag cannot fail open.
 */
export function routeMeta(route: { metadata?: unknown; method?: string; path?: string }): RouteMeta {
  const meta = route.metadata as Partial<RouteMeta> | undefined;
  const auth = meta?.auth;
  if (auth !== 'public' && auth !== 'optional' && auth !== 'user' && auth !== 'stream') {
    throw new Error(
      `route ${route.method ?? ''} ${route.path ?? ''} declares no auth metadata (metadata.auth: public, optional, user or stream)`,
    );
  }
  return {
    auth,
    apiKey: meta?.apiKey ?? false,
    refreshCookie: meta?.refreshCookie ?? false,
    lenient: meta?.lenient ?? false,
    ...(meta?.staff === 'staff' || meta?.staff === 'admin' ? { staff: meta.staff } : {}),
    ...(typeof meta?.jsonBodyLimit === 'number' ? { jsonBodyLimit: meta.jsonBodyLimit } : {}),
  };
}
