import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import { LyricsEnvelope } from './tracks.schemas.js';

const c = initContract();

/** Plain or synced (LRC) lyrics of a track. */
export const lyricsContract = c.router({
  getLyrics: {
    method: 'GET',
    path: '/tracks/:id/lyrics',
    summary: 'Lyrics of a track',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    responses: { 200: LyricsEnvelope, ...errors(400, 401, 403, 404) },
  },
  putLyrics: {
    method: 'PUT',
    path: '/tracks/:id/lyrics',
    summary: 'Set the lyrics of a track',
    description:
      'Plain text, or LRC ([mm:ss.xx] timestamps) which is recognised and returned with its timed lines. Empty content removes them.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: named('UpdateLyricsRequest', z.object({ content: z.string().max(50_000) })),
    responses: { 200: LyricsEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
});
