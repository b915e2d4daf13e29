import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { streamRoute } from '../../common/route-meta.js';
import { binaryField, SecretField, StreamHeadersSchema } from './tracks.schemas.js';

const c = initContract();

const audioResponse = c.otherResponse({ contentType: 'audio/*', body: binaryField('The audio bytes') });

const streamResponses = {
  200: audioResponse,
  206: audioResponse,
  302: c.noBody(),
  304: c.noBody(),
  ...errors(400, 401, 403, 404, 416),
} as const;

/** The audio itself: streaming with byte ranges, and download. */
export const mediaContract = c.router({
  stream: {
    method: 'GET',
    path: '/tracks/:id/stream',
    summary: 'Stream the audio',
    description:
      'Serves the file with Range (206, 416), Accept-Ranges, ETag and If-None-Match. On S3 storage: 302 to a presigned URL ' +
      'valid 5 minutes. A private track streams only for its owner (bearer or stream token), or with its secret link (?secret=).',
    metadata: streamRoute,
    pathParams: IdParamsSchema,
    headers: StreamHeadersSchema,
    query: z.object({ token: z.string().max(4096).optional().describe('Stream token'), secret: SecretField }),
    responses: streamResponses,
  },
  download: {
    method: 'GET',
    path: '/tracks/:id/download',
    summary: 'Download the original file',
    description: 'Like stream, with Content-Disposition: attachment.',
    metadata: streamRoute,
    pathParams: IdParamsSchema,
    headers: StreamHeadersSchema,
    query: z.object({ token: z.string().max(4096).optional().describe('Stream token'), secret: SecretField }),
    responses: streamResponses,
  },
});
