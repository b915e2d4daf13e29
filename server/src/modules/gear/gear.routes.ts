import { buffer } from 'node:stream/consumers';
import { contract, GEAR_PHOTO_MAX_BYTES } from '@riff/contract';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import { validationFailed } from '../../platform/errors/app-error.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import { parseMultipart } from '../../platform/http/multipart.js';
import type { GearDiscoveryService } from './gear-discovery.service.js';
import type { GearPhotosService } from './gear-photos.service.js';
import type { GearTracksService } from './gear-tracks.service.js';
import type { GearService } from './gear.service.js';

export interface GearRoutesDeps {
  gear: GearService;
  photos: GearPhotosService;
  tracks: GearTracksService;
  discovery: GearDiscoveryService;
}

export function gearRoutes({ gear, photos, tracks, discovery }: GearRoutesDeps) {
  return contractRoutes(contract.gear, {
    search: async ({ query, req }) => ({ status: 200, body: ok(await discovery.search(actorOf(req), query)) }),
    popular: async ({ query, req }) => ({ status: 200, body: ok(await discovery.popular(actorOf(req), query)) }),
    owners: async ({ query, req }) => ({ status: 200, body: ok(await discovery.owners(actorOf(req), query)) }),
    create: async ({ body, req }) => ({ status: 201, body: ok({ gear: await gear.create(signedInActor(req), body) }) }),
    get: async ({ params, req }) => ({ status: 200, body: ok({ gear: await gear.get(actorOf(req), params.id) }) }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: ok({ gear: await gear.update(signedInActor(req), params.id, body) }),
    }),
    remove: async ({ params, req }) => ({ status: 200, body: ok(await gear.remove(signedInActor(req), params.id)) }),
    userGear: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await gear.listOf(actorOf(req), params.id, query)),
    }),
    addPhoto: async ({ params, req }) => {
      const actor = signedInActor(req);
      // refused before the upload is read: another user's item (403, or 404 when they may not see it)
      await photos.assertMayAdd(actor, params.id);
      // at most 10 MiB, streamed: a larger file is cut at the limit and answered 413, nothing stored
      const { file } = await parseMultipart(req, {
        fileField: 'file',
        maxFileBytes: GEAR_PHOTO_MAX_BYTES,
        onFile: (stream) => buffer(stream),
      });
      if (!file) throw validationFailed('Send the image in the field "file"');
      return { status: 201, body: ok({ gear: await photos.add(actor, params.id, file) }) };
    },
    photo: async ({ params, query, req, res }) => {
      const image = await photos.photo(actorOf(req), params.id, params.photoId, query.size);
      res.setHeader('Content-Type', image.contentType);
      res.setHeader('Cache-Control', 'private, max-age=60');
      image.body.on('error', () => res.destroy());
      return { status: 200, body: image.body };
    },
    removePhoto: async ({ params, req }) => ({
      status: 200,
      body: ok({ gear: await photos.remove(signedInActor(req), params.id, params.photoId) }),
    }),
    setTrackGear: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await tracks.set(signedInActor(req), params.id, body.gear_ids)),
    }),
    trackGear: async ({ params, req }) => ({ status: 200, body: ok(await tracks.get(actorOf(req), params.id)) }),
  });
}
