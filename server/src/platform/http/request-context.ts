import type { Request } from 'express';
import type { RequestContext } from '../../modules/audit/audit.repository.js';

export function requestContext(req: Request): RequestContext {
  const userAgent = req.headers['user-agent'];
  return {
    ip: req.ip ?? req.socket.remoteAddress ?? null,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
  };
}
