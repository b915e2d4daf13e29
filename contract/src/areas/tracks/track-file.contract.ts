import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, UuidSchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { userRoute } from '../../common/route-meta.js';
import { TrackEnvelope, fileField } from './tracks.schemas.js';

const c = initContract();

/** A track's audio replaced, or an older version made current again. */
export const trackFileContract = c.router({
  replaceFile: {
    method: 'PUT',
    path: '/tracks/:id/file',
    summary: 'Replace the audio',
    description:
      'Owner or admin; multipart/form-data with the audio in field `file`, same rules and limits as POST /tracks. Metadata ' +
      'read from the new file updates duration, bitrate, sample_rate, format and file_size (not the title or tags); the ' +
      'previous audio becomes a version (at most 10 are kept, counted against the quota) and the media pipeline runs again.',
    metadata: userRoute,
    contentType: 'multipart/form-data',
    pathParams: IdParamsSchema,
    body: named('ReplaceTrackFileRequest', z.object({ file: fileField('The audio file') })).optional(),
    responses: { 200: TrackEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  restoreVersion: {
    method: 'POST',
    path: '/tracks/:id/versions/:versionId/restore',
    summary: 'Restore a version of the audio',
    description:
      'Owner or admin: that audio becomes current again (the one it replaces becomes a version) and the media pipeline runs ' +
      'again. 409 CONFLICT when it is already the current audio.',
    metadata: userRoute,
    pathParams: z.object({ id: UuidSchema, versionId: UuidSchema }),
    body: c.noBody(),
    responses: { 200: TrackEnvelope, ...errors(400, 401, 403, 404, 409) },
  },
});
