import type { contract, playlistLibraryContract } from '@riff/contract';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import type { RoutesOf } from '../../platform/http/contract-routes.js';
import type { RiffResponse as Response } from '../../platform/http/http-exchange.js';
import { ok } from '../../platform/http/envelope.js';
import { hashShareToken, type CollaboratorsService } from './collaborators.service.js';
import type { PlaylistTracksService } from './playlist-tracks.service.js';
import type { PlaylistsService } from './playlists.service.js';

/** The core routes of contract.playlists; the library routes (import, export, search, …) are another part. */
export type PlaylistCoreRoutes = Omit<RoutesOf<typeof contract.playlists>, keyof typeof playlistLibraryContract>;

/** The ETag of a playlist: its snapshot_id, quoted. */
const tag = (res: Response, version: number) => res.setHeader('ETag', `"${version}"`);

/** If-None-Match: a list of ETags (weak ones compare too), or `*`. */
function isCurrent(ifNoneMatch: string | undefined, version: number): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value.replace(/^W\//, '') === `"${version}"`;
  });
}

export function playlistCoreRoutes(services: {
  playlists: PlaylistsService;
  tracks: PlaylistTracksService;
  collaborators: CollaboratorsService;
}): PlaylistCoreRoutes {
  const { playlists, tracks, collaborators } = services;
  const window = (query: { tracks_offset: number; tracks_limit: number }) => ({
    offset: query.tracks_offset,
    limit: query.tracks_limit,
  });
  return {
    list: async ({ query, req }) => ({ status: 200, body: ok(await playlists.list(signedInActor(req), query)) }),
    create: async ({ body, req }) => ({
      status: 201,
      body: ok({ playlist: await playlists.create(signedInActor(req), body) }),
    }),
    favorites: async ({ query, headers, req, res }) => {
      const { playlist, version } = await playlists.favorites(signedInActor(req), window(query));
      tag(res, version);
      // each like changes it: a cache asks again each time (If-None-Match: 304)
      res.setHeader('Cache-Control', 'private, no-cache');
      if (isCurrent(headers['if-none-match'], version)) return { status: 304, body: undefined };
      return { status: 200, body: ok({ playlist }) };
    },
    shared: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await playlists.shared(actorOf(req), hashShareToken(params.token), window(query))),
    }),
    get: async ({ params, query, headers, req, res }) => {
      const { playlist, version } = await playlists.get(signedInActor(req), params.id, window(query));
      tag(res, version);
      // collaborators change it at any time: a cache asks again each time (If-None-Match: 304)
      res.setHeader('Cache-Control', 'private, no-cache');
      if (isCurrent(headers['if-none-match'], version)) return { status: 304, body: undefined };
      return { status: 200, body: ok({ playlist }) };
    },
    update: async ({ params, headers, body, req, res }) => {
      const { playlist, version } = await playlists.update(signedInActor(req), params.id, headers['if-match'], body);
      tag(res, version);
      return { status: 200, body: ok({ playlist }) };
    },
    remove: async ({ params, headers, req }) => ({
      status: 200,
      body: ok(await playlists.remove(signedInActor(req), params.id, headers['if-match'])),
    }),
    addTrack: async ({ params, headers, body, req, res }) => {
      const { version, ...reply } = await tracks.add(signedInActor(req), params.id, headers['if-match'], body);
      tag(res, version);
      return { status: 200, body: ok(reply) };
    },
    removeTrack: async ({ params, headers, req, res }) => {
      const { version, ...reply } = await tracks.remove(
        signedInActor(req),
        params.id,
        headers['if-match'],
        params.trackId,
      );
      tag(res, version);
      return { status: 200, body: ok(reply) };
    },
    reorder: async ({ params, headers, body, req, res }) => {
      const { version, ...reply } = await tracks.reorder(
        signedInActor(req),
        params.id,
        headers['if-match'],
        body.track_ids,
      );
      tag(res, version);
      return { status: 200, body: ok(reply) };
    },
    addCollaborator: async ({ params, body, req }) => ({
      status: 201,
      body: ok(await collaborators.add(signedInActor(req), params.id, body)),
    }),
    collaborators: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await collaborators.list(signedInActor(req), params.id, query)),
    }),
    updateCollaborator: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await collaborators.update(signedInActor(req), params.id, params.userId, body.permission)),
    }),
    removeCollaborator: async ({ params, req }) => ({
      status: 200,
      body: ok(await collaborators.remove(signedInActor(req), params.id, params.userId)),
    }),
    share: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await collaborators.share(signedInActor(req), params.id, body)),
    }),
    revokeShare: async ({ params, req }) => ({
      status: 200,
      body: ok(await collaborators.revokeShare(signedInActor(req), params.id)),
    }),
    duplicate: async ({ params, body, req }) => ({
      status: 201,
      body: ok({ playlist: await playlists.duplicate(signedInActor(req), params.id, body) }),
    }),
    follow: async ({ params, req }) => ({
      status: 200,
      body: ok(await playlists.follow(signedInActor(req), params.id)),
    }),
    unfollow: async ({ params, req }) => ({
      status: 200,
      body: ok(await playlists.unfollow(signedInActor(req), params.id)),
    }),
  };
}
