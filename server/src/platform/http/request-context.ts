import type { Request } from 'express';

/** Where a request came from, recorded with every audit entry. */
export interface RequestContext {
  ip: string | null;
  userAgent: string | null;
}

export function requestContext(req: Request): RequestContext {
  const userAgent = req.headers['user-agent'];
  return {
    ip: req.ip ?? req.socket.remoteAddress ?? null,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
  };
}
