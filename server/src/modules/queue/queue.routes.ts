import type { RiffResponse as Response } from '../../platform/http/http-exchange.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { contract } from '@riff/contract';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import { ok } from '../../platform/http/envelope.js';
import { parseIfMatch, type QueueService } from './queue.service.js';
import type { SessionsService } from './sessions.service.js';

/** The queue's ETag: its version, quoted. */
const tag = (res: Response, version: number) => res.setHeader('ETag', `"${version}"`);

/** If-None-Match: a list of ETags (weak ones compare too), or `*`. */
function matchesVersion(ifNoneMatch: string | undefined, version: number): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value.replace(/^W\//, '') === `"${version}"`;
  });
}

export function queueRoutes(queue: QueueService, sessions: SessionsService) {
  return contractRoutes(contract.queue, {
    get: async ({ headers, req, res }) => {
      const reply = await queue.get(signedInActor(req));
      tag(res, reply.queue.version);
      // another device may change it at any time: a cache asks again each time (If-None-Match: 304)
      res.setHeader('Cache-Control', 'private, no-cache');
      if (matchesVersion(headers['if-none-match'], reply.queue.version)) return { status: 304, body: undefined };
      return { status: 200, body: ok(reply) };
    },
    update: async ({ headers, body, req, res }) => {
      const { queue: saved, version } = await queue.update(signedInActor(req), parseIfMatch(headers['if-match']), body);
      tag(res, version);
      return { status: 200, body: ok({ queue: saved }) };
    },
    addItem: async ({ headers, body, req, res }) => {
      const { item, version } = await queue.addItem(signedInActor(req), parseIfMatch(headers['if-match']), body);
      tag(res, version);
      return { status: 201, body: ok({ item }) };
    },
    removeItem: async ({ headers, params, req, res }) => {
      const { message, version } = await queue.removeItem(
        signedInActor(req),
        parseIfMatch(headers['if-match']),
        params.id,
      );
      tag(res, version);
      return { status: 200, body: ok({ message }) };
    },
    clear: async ({ headers, req, res }) => {
      const { message, version } = await queue.clear(signedInActor(req), parseIfMatch(headers['if-match']));
      tag(res, version);
      return { status: 200, body: ok({ message }) };
    },
    createSession: async ({ body, req }) => ({
      status: 201,
      body: ok(await sessions.create(signedInActor(req), body)),
    }),
    getSession: async ({ params, req }) => ({ status: 200, body: ok(await sessions.get(actorOf(req), params.token)) }),
    updateSession: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await sessions.update(signedInActor(req), params.token, body)),
    }),
    endSession: async ({ params, req }) => ({
      status: 200,
      body: ok(await sessions.end(signedInActor(req), params.token)),
    }),
    addSessionItem: async ({ params, body, req }) => ({
      status: 201,
      body: ok(await sessions.addItem(signedInActor(req), params.token, body.track_id)),
    }),
    removeSessionItem: async ({ params, req }) => ({
      status: 200,
      body: ok(await sessions.removeItem(signedInActor(req), params.token, params.id)),
    }),
  });
}
