import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, PaginationQuerySchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { withOpenApi } from '../../common/openapi-meta.js';
import { userRoute } from '../../common/route-meta.js';
import {
  ImportPlaylistRequestSchema,
  PLAYLIST_ANALYTICS_DAYS,
  PLAYLIST_IMPORT_MAX_BYTES,
  PLAYLIST_MAX_TRACKS,
  PlaylistAnalyticsEnvelope,
  PlaylistExportQuerySchema,
  PlaylistImportEnvelope,
  PlaylistPageEnvelope,
  PlaylistSearchQuerySchema,
} from './playlists.schemas.js';

const c = initContract();

/** Import and export, search, recommendations and analytics of playlists. */
export const playlistLibraryContract = {
  import: {
    method: 'POST',
    path: '/playlists/import',
    summary: 'Import an M3U/M3U8 or XSPF playlist',
    description:
      'Makes a private playlist of yours from the file. Each entry is matched to a track you may see: by a Riff track URL ' +
      'or id in its location, else by artist and title (case and accents ignored). Entries with no match are listed in ' +
      `unmatched with their line; a track matched twice is added once. At most ${PLAYLIST_IMPORT_MAX_BYTES} bytes of text ` +
      `(413) and ${PLAYLIST_MAX_TRACKS} entries (400 LIMIT_REACHED); a file that is not the format named is 400.`,
    // the text travels JSON-escaped (a newline is two bytes): room for a file at the limit
    metadata: { ...userRoute, jsonBodyLimit: 8 * PLAYLIST_IMPORT_MAX_BYTES },
    body: ImportPlaylistRequestSchema,
    responses: { 201: PlaylistImportEnvelope, ...errors(400, 401, 403, 413, 415) },
  },
  export: {
    method: 'GET',
    path: '/playlists/:id/export',
    summary: 'Export as M3U8 or XSPF',
    description:
      'Not enveloped: the file, as an attachment. m3u: extended M3U in UTF-8 (audio/x-mpegurl), #EXTINF with duration and ' +
      '"artist - title", then the track’s URL. xspf: application/xspf+xml with location, identifier, title, creator, album ' +
      'and duration (ms). The tracks you may see, in order; importing the file again gives the same order.',
    // format=xspf answers in its own media type: openapi.json lists both
    metadata: { ...userRoute, alsoContentTypes: ['application/xspf+xml'] },
    pathParams: IdParamsSchema,
    query: PlaylistExportQuerySchema,
    responses: {
      200: c.otherResponse({
        contentType: 'audio/x-mpegurl',
        body: withOpenApi(z.any(), {
          type: 'string',
          description: 'The playlist file (M3U8, or XSPF as application/xspf+xml)',
        }),
      }),
      ...errors(400, 401, 403, 404),
    },
  },
  search: {
    method: 'GET',
    path: '/playlists/search',
    summary: 'Search playlists',
    description: 'Public playlists, and your own, whose title or description match q; best match first.',
    metadata: userRoute,
    query: PlaylistSearchQuerySchema,
    responses: { 200: PlaylistPageEnvelope, ...errors(400, 401, 403) },
  },
  recommendations: {
    method: 'GET',
    path: '/playlists/recommendations',
    summary: 'Playlists for you',
    description:
      'Public playlists of others, ranked by how many of their tracks you liked or played, then by followers; editorial ' +
      'ones first among equals. Playlists you follow and those of users you blocked (or who blocked you) are left out.',
    metadata: userRoute,
    query: PaginationQuerySchema,
    responses: { 200: PlaylistPageEnvelope, ...errors(400, 401, 403) },
  },
  analytics: {
    method: 'GET',
    path: '/playlists/:id/analytics',
    summary: 'A playlist’s analytics',
    description:
      `The owner or an admin collaborator; others who may see the playlist get 403. followers_daily covers the last ` +
      `${PLAYLIST_ANALYTICS_DAYS} days.`,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    responses: { 200: PlaylistAnalyticsEnvelope, ...errors(400, 401, 403, 404) },
  },
} as const;
