import type { Response } from 'express';
import { initServer } from '@ts-rest/express';
import { ok } from '../../platform/http/envelope.js';
import { contract } from '@riff/contract';
import { principalOf } from '../../platform/auth/authenticate.middleware.js';
import { forbidden } from '../../platform/errors/app-error.js';
import { requestContext } from '../../platform/http/request-context.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { toTrackDto } from './track.mapper.js';
import { streamTrack, type StreamReply } from './track-streaming.js';
import type { TracksService } from './tracks.service.js';
import type { UploadsService } from './uploads.service.js';

const s = initServer();

export interface TracksRoutesDeps {
  tracks: TracksService;
  uploads: UploadsService;
  storage: ObjectStorage;
}

/** Sends headers now; the body (a stream) is piped by ts-rest. A failing read ends the reply. */
function reply(res: Response, result: StreamReply) {
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  if (result.body) {
    result.body.on('error', () => res.destroy());
    return { status: result.status, body: result.body };
  }
  return { status: result.status, body: undefined };
}

export function tracksRoutes({ tracks, uploads, storage }: TracksRoutesDeps) {
  return s.router(contract.tracks, {
    upload: async ({ req }) => {
      const viewer = principalOf(req).user;
      const track = await uploads.uploadSingle(req, viewer, requestContext(req));
      return { status: 201, body: ok({ track: toTrackDto(track, viewer) }) };
    },
    list: async ({ query, req }) => ({ status: 200, body: ok(await tracks.list(query, req.principal?.user)) }),
    initiate: async ({ body, req }) => ({ status: 200, body: ok(await uploads.initiate(principalOf(req).user, body, requestContext(req))) }),
    chunk: async ({ req }) => ({ status: 200, body: ok(await uploads.chunk(req, principalOf(req).user)) }),
    complete: async ({ body, req }) => {
      const viewer = principalOf(req).user;
      const { track, md5 } = await uploads.complete(body.upload_id, viewer, requestContext(req));
      return { status: 201, body: ok({ track: toTrackDto(track, viewer), md5, message: 'Upload complete' }) };
    },
    resume: async ({ params, req }) => ({ status: 200, body: ok(await uploads.resume(params.uploadId, principalOf(req).user)) }),
    cancel: async ({ params, req }) => ({ status: 200, body: ok(await uploads.cancel(params.uploadId, principalOf(req).user, requestContext(req))) }),
    quota: async ({ params, req }) => {
      const viewer = principalOf(req).user;
      const id = params.id === 'me' ? viewer.id : params.id;
      if (id !== viewer.id && !viewer.is_admin) throw forbidden('You can only see your own quota');
      return { status: 200, body: ok({ quota: await uploads.quota(id) }) };
    },
    batchDelete: async ({ body, req }) => ({
      status: 200,
      body: ok(await tracks.batchDelete(body.track_ids, principalOf(req).user, requestContext(req))),
    }),
    batchUpdate: async ({ body, req }) => ({
      status: 200,
      body: ok(await tracks.batchUpdate(body.track_ids, body.updates, principalOf(req).user, requestContext(req))),
    }),
    get: async ({ params, req }) => ({ status: 200, body: ok(await tracks.get(params.id, req.principal?.user)) }),
    update: async ({ params, body, req }) => ({ status: 200, body: ok(await tracks.update(params.id, principalOf(req).user, body, requestContext(req))) }),
    remove: async ({ params, req }) => ({ status: 200, body: ok(await tracks.remove(params.id, principalOf(req).user, requestContext(req))) }),
    status: async ({ params, req }) => ({ status: 200, body: ok(await tracks.status(params.id, principalOf(req).user)) }),
    getLyrics: async ({ params, req }) => ({ status: 200, body: ok(await tracks.lyrics(params.id, req.principal?.user)) }),
    putLyrics: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await tracks.setLyrics(params.id, principalOf(req).user, body.content, requestContext(req))),
    }),
    stream: async ({ params, headers, req, res }) => {
      const track = await tracks.visible(params.id, req.principal?.user);
      const request = { range: headers.range, ifNoneMatch: headers['if-none-match'], ifRange: headers['if-range'] };
      return reply(res, await streamTrack(storage, track, request, 'inline'));
    },
    download: async ({ params, headers, req, res }) => {
      const track = await tracks.visible(params.id, req.principal?.user);
      const request = { range: headers.range, ifNoneMatch: headers['if-none-match'], ifRange: headers['if-range'] };
      return reply(res, await streamTrack(storage, track, request, 'attachment'));
    },
  });
}
