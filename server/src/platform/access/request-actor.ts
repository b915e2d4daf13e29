import type { RiffRequest as Request } from '../http/http-exchange.js';
import { unauthenticated } from '../errors/app-error.js';
import { anonymousActor, type Actor, type RequestOrigin, type UserActor } from './actor.js';

/** Where the request came from (the address honours TRUST_PROXY). */
export function originOf(req: Request): RequestOrigin {
  const userAgent = req.headers['user-agent'];
  const id = req.id;
  return {
    ip: req.ip ?? req.socket.remoteAddress ?? null,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
    requestId: typeof id === 'string' ? id : null,
  };
}

/** A request as a route handler sees it (ts-rest types its own): only the actor is read. */
interface WithActor {
  actor?: Actor | undefined;
}

/** The caller, signed in or not: set on every contract route by the authentication middleware. */
export function actorOf(req: WithActor): Actor {
  return req.actor ?? anonymousActor();
}

/** The caller on a route whose metadata requires one. */
export function signedInActor(req: WithActor): UserActor {
  const actor = actorOf(req);
  if (actor.kind !== 'user') throw unauthenticated('Authentication required');
  return actor;
}
