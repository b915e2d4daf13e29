import type { RiffResponse as Response } from '../../platform/http/http-exchange.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { contract } from '@riff/contract';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import { ok } from '../../platform/http/envelope.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { streamTrack, type StreamReply } from './track-streaming.js';
import type { TracksService } from './tracks.service.js';
import type { TrackSearchService } from './track-search.service.js';
import type { TrackFileService } from './track-file.service.js';
import { uploadsRoutes, withForm, type UploadsRoutesDeps } from './uploads.routes.js';
import { z } from 'zod';

export interface TracksRoutesDeps extends UploadsRoutesDeps {
  tracks: TracksService;
  search: TrackSearchService;
  storage: ObjectStorage;
  files: TrackFileService;
}

/** Sets the headers; a stream body is piped by the router, and a failing read ends the reply. */
function reply(res: Response, result: StreamReply) {
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  if (result.body) {
    if (!Buffer.isBuffer(result.body)) result.body.on('error', () => res.destroy());
    return { status: result.status, body: result.body };
  }
  return { status: result.status, body: undefined };
}

export function tracksRoutes({ tracks, search, storage, files, ...uploads }: TracksRoutesDeps) {
  return contractRoutes(contract.tracks, {
    ...uploadsRoutes(uploads),
    list: async ({ query, req }) => ({ status: 200, body: ok(await tracks.list(actorOf(req), query)) }),
    search: async ({ query, req }) => ({ status: 200, body: ok(await search.searchTracks(actorOf(req), query)) }),
    batchDelete: async ({ body, req }) => ({
      status: 200,
      body: ok(await tracks.batchDelete(signedInActor(req), body.track_ids)),
    }),
    batchUpdate: async ({ body, req }) => ({
      status: 200,
      body: ok(await tracks.batchUpdate(signedInActor(req), body.track_ids, body.updates)),
    }),
    get: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await tracks.get(actorOf(req), params.id, query.secret)),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await tracks.update(signedInActor(req), params.id, body)),
    }),
    remove: async ({ params, req }) => ({ status: 200, body: ok(await tracks.remove(signedInActor(req), params.id)) }),
    status: async ({ params, req }) => ({ status: 200, body: ok(await tracks.status(signedInActor(req), params.id)) }),
    getLyrics: async ({ params, req }) => ({ status: 200, body: ok(await tracks.lyrics(actorOf(req), params.id)) }),
    putLyrics: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await tracks.setLyrics(signedInActor(req), params.id, body.content)),
    }),
    replaceFile: async ({ params, req, res }) => {
      const actor = signedInActor(req);
      const reply = await withForm(req, res, { fileField: 'file', schema: z.object({}) }, (form) =>
        files.replace(actor, params.id, form),
      );
      return { status: 200, body: ok(reply) };
    },
    restoreVersion: async ({ params, req }) => ({
      status: 200,
      body: ok(await files.restore(signedInActor(req), params.id, params.versionId)),
    }),
    stream: async ({ params, query, headers, req, res }) => {
      const track = await tracks.streamable(actorOf(req), params.id, query.secret);
      const request = { range: headers.range, ifNoneMatch: headers['if-none-match'], ifRange: headers['if-range'] };
      return reply(res, await streamTrack(storage, track, request, 'inline'));
    },
    download: async ({ params, query, headers, req, res }) => {
      const actor = actorOf(req);
      const track = await tracks.streamable(actor, params.id, query.secret);
      const request = { range: headers.range, ifNoneMatch: headers['if-none-match'], ifRange: headers['if-range'] };
      const result = await streamTrack(storage, track, request, 'attachment');
      await tracks.downloaded(actor, track, result);
      return reply(res, result);
    },
  });
}
