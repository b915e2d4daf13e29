import type { RiffRequest as Request, RiffResponse as Response } from '../../platform/http/http-exchange.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { contract } from '@riff/contract';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import type { Clock } from '../../platform/clock.js';
import { notFound, unauthenticated } from '../../platform/errors/app-error.js';
import { ok } from '../../platform/http/envelope.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { verifyCallback } from './callback-signature.js';
import { withQuery } from './hls-playlists.js';
import type { HlsAccess, HlsStreams } from './hls-streams.js';
import type { MediaService } from './media.service.js';

export interface MediaRoutesDeps {
  media: MediaService;
  hls: HlsStreams;
  storage: ObjectStorage;
  clock: Clock;
  callbackSecret: string | undefined;
}

/** A presigned segment URL lives as long as a stream's (5 minutes). */
const PRESIGNED_SECONDS = 5 * 60;
const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';

/** Segments of public tracks never change (immutable for a year); playlists may (a minute); anything private: private. */
function cacheControl(isPublic: boolean, kind: 'playlist' | 'segment'): string {
  if (!isPublic) return kind === 'playlist' ? 'private, max-age=60' : 'private, max-age=31536000, immutable';
  return kind === 'playlist' ? 'public, max-age=60' : 'public, max-age=31536000, immutable';
}

export function mediaRoutes({ media, hls, storage, clock, callbackSecret }: MediaRoutesDeps) {
  async function playlist(req: Request, res: Response, trackId: string, name: string, access: HlsAccess) {
    const actor = actorOf(req);
    const file = await hls.open(actor, trackId, name, access);
    const text = (await storage.get(file.key).then((body) => body.toArray()))
      .map((chunk: Buffer) => chunk.toString('utf8'))
      .join('');
    const query = await hls.childQuery(actor, file, access);
    res.setHeader('Cache-Control', cacheControl(file.track.is_public, 'playlist'));
    res.setHeader('Content-Type', PLAYLIST_TYPE);
    return { status: 200 as const, body: withQuery(text, query) };
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
    hlsMaster: ({ params, query, req, res }) => playlist(req, res, params.id, 'master.m3u8', { secret: query.secret }),
    hlsVariant: ({ params, query, req, res }) =>
      playlist(req, res, params.id, `${params.variant}/index.m3u8`, {
        secret: query.secret,
        playback: query.playback,
        generation: query.v,
      }),
    hlsSegment: async ({ params, query, req, res }) => {
      const access = { secret: query.secret, playback: query.playback, generation: query.v };
      const { key, track } = await hls.open(actorOf(req), params.id, `${params.variant}/${params.file}`, access);
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
    versions: async ({ params, req }) => ({
      status: 200,
      body: ok(await media.versions(signedInActor(req), params.id)),
    }),
    hlsCallback: async ({ params, body, req }) => {
      const raw = (req as Request & { rawBody?: Buffer }).rawBody;
      if (!verifyCallback(callbackSecret, req.headers, raw, Math.floor(clock.now().getTime() / 1000))) {
        throw unauthenticated('The callback signature is missing or not valid');
      }
      return { status: 200, body: ok(await media.completeExternal(params.id, body)) };
    },
  });
}
