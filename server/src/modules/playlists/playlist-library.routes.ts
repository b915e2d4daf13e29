import { Readable } from 'node:stream';
import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { contractRoute } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { PlaylistLibraryService } from './playlist-library.service.js';

const routes = contract.playlists;

/** Import, export, search, recommendations and analytics: the library part of contract.playlists. */
export function playlistLibraryRoutes(library: PlaylistLibraryService) {
  return {
    import: contractRoute(routes.import, async ({ body, req }) => ({
      status: 201,
      body: ok(await library.importPlaylist(signedInActor(req), body)),
    })),
    export: contractRoute(routes.export, async ({ params, query, req, res }) => {
      const file = await library.exportPlaylist(signedInActor(req), params.id, query.format);
      const bytes = Buffer.from(file.content, 'utf8');
      // sent as a stream so that the router keeps this Content-Type (the contract names the m3u one)
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Content-Disposition', file.disposition);
      res.setHeader('Content-Length', String(bytes.length));
      res.setHeader('Cache-Control', 'private, no-store');
      return { status: 200, body: Readable.from([bytes]) };
    }),
    search: contractRoute(routes.search, async ({ query, req }) => ({
      status: 200,
      body: ok(await library.search(signedInActor(req), query)),
    })),
    recommendations: contractRoute(routes.recommendations, async ({ query, req }) => ({
      status: 200,
      body: ok(await library.recommendations(signedInActor(req), query)),
    })),
    analytics: contractRoute(routes.analytics, async ({ params, req }) => ({
      status: 200,
      body: ok(await library.analytics(signedInActor(req), params.id)),
    })),
  };
}
