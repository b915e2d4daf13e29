import type { RiffRequest as Request, RiffResponse as Response } from '../../platform/http/http-exchange.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { contract } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, notFound } from '../../platform/errors/app-error.js';
import { ok } from '../../platform/http/envelope.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { verifyCallback } from './callback-signature.js';
import { withToken } from './hls-playlists.js';
import type { MediaService } from './media.service.js';

export interface MediaRoutesDeps {
  media: MediaService;
  storage: ObjectStorage;
  clock: Clock;
  callbackSecret: string | undefined;
}

/** A presigned segment URL lives as long as a stream's (5 minutes). */
const PRESIGNED_SECONDS = 5 * 60;
const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';

/**
 * The stream token the caller authenticated with (as ?token= or as a bearer), to be carried on
 * every URI of a private track's playlists, so a plain HLS player that sends no header works.
 */
function streamToken(req: Request, actor: Actor): string | undefined {
  if (actor.kind !== 'user' || actor.via !== 'stream_token') return undefined;
  const query = (req.query as Record<string, unknown>)['token'];
  if (typeof query === 'string') return query;
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** ADDENDUM: segments of public tracks immutable for a year, playlists a minute; private: private. */
function cacheControl(isPublic: boolean, kind: 'playlist' | 'segment'): string {
  if (!isPublic) return kind === 'playlist' ? 'private, max-age=60' : 'private, max-age=31536000, immutable';
  return kind === 'playlist' ? 'public, max-age=60' : 'public, max-age=31536000, immutable';
}

export function mediaRoutes({ media, storage, clock, callbackSecret }: MediaRoutesDeps) {
  async function playlist(req: Request, res: Response, trackId: string, name: string, secret: string | undefined) {
    const actor = actorOf(req);
    const { key, track } = await media.hlsKey(actor, trackId, name, secret);
    const text = (await storage.get(key).then((body) => body.toArray())).map((chunk: Buffer) => chunk.toString('utf8')).join('');
    const token = track.is_public ? undefined : streamToken(req, actor);
    res.setHeader('Cache-Control', cacheControl(track.is_public, 'playlist'));
    res.setHeader('Content-Type', PLAYLIST_TYPE);
    // a private track opened by its secret link keeps the secret on every URI, as a stream token would be kept
    const body = token ? withToken(text, token) : !track.is_public && secret ? withToken(text, secret, 'secret') : text;
    return { status: 200 as const, body };
  }

  return contractRoutes(contract.media, {
    waveform: async ({ params, query, req, res }) => {
      const peaks = await media.waveform(actorOf(req), params.id, query.secret);
      res.setHeader('Cache-Control', 'private, max-age=60');
      return { status: 200, body: peaks };
    },
    cover: async ({ params, query, req, res }) => {
      const cover = await media.cover(actorOf(req), params.id, query.secret);
      res.setHeader('Content-Type', cover.contentType);
      if (cover.size !== undefined) res.setHeader('Content-Length', String(cover.size));
      cover.body.on('error', () => res.destroy());
      return { status: 200, body: cover.body };
    },
    hlsMaster: ({ params, query, req, res }) => playlist(req, res, params.id, 'master.m3u8', query.secret),
    hlsVariant: ({ params, query, req, res }) => playlist(req, res, params.id, `${params.variant}/index.m3u8`, query.secret),
    hlsSegment: async ({ params, query, req, res }) => {
      const { key, track } = await media.hlsKey(actorOf(req), params.id, `${params.variant}/${params.file}`, query.secret);
      const contentType = 'audio/mp4';
      const presigned = await storage.presignedGetUrl(key, { expiresInSeconds: PRESIGNED_SECONDS, contentType });
      if (presigned) {
        res.setHeader('Location', presigned);
        res.setHeader('Cache-Control', 'no-store');
        return { status: 302, body: undefined };
      }
      const size = await storage.size(key);
      if (size === undefined) throw notFound('Segment');
      const body = await storage.get(key);
      body.on('error', () => res.destroy());
      res.setHeader('Content-Type', contentType);
      res.setHeader('Content-Length', String(size));
      res.setHeader('Cache-Control', cacheControl(track.is_public, 'segment'));
      return { status: 200, body };
    },
    versions: async ({ params, req }) => ({ status: 200, body: ok(await media.versions(signedInActor(req), params.id)) }),
    hlsCallback: async ({ params, body, req }) => {
      const raw = (req as Request & { rawBody?: Buffer }).rawBody;
      if (!verifyCallback(callbackSecret, req.headers, raw, Math.floor(clock.now().getTime() / 1000))) {
        throw new AppError('UNAUTHENTICATED', 'The callback signature is missing or not valid');
      }
      return { status: 200, body: ok(await media.completeExternal(params.id, body)) };
    },
  });
}
