import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';

// Apart from playlists.schemas.ts, which reads the users area's ProfileSchema: the users area's
// export document reads these, and a cycle of schema modules would leave one of them undefined.

/** Your part of the data export: your playlists with their track ids. */
export const ExportedPlaylistSchema = named(
  'ExportedPlaylist',
  z.object({
    id: UuidSchema,
    title: z.string(),
    description: z.string().nullable(),
    is_public: z.boolean(),
    is_default_favorites: z.boolean(),
    track_ids: z.array(UuidSchema).describe('Every track of the playlist, in order'),
    created_at: TimestampSchema,
  }),
);

export const ExportedPlaylistCollaborationSchema = named(
  'ExportedPlaylistCollaboration',
  z.object({ playlist_id: UuidSchema, permission: z.enum(['read', 'write', 'admin']), since: TimestampSchema }),
);

export const ExportedPlaylistFollowSchema = named(
  'ExportedPlaylistFollow',
  z.object({ playlist_id: UuidSchema, since: TimestampSchema }),
);
