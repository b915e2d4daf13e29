// Apart from group-posts.schemas.ts because the users area's data export names it, and the posts'
// schemas name the users area's profiles (through tracks and playlists).
import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';

/** A post in its author's data export: what they wrote and what it referred to. */
export const ExportedGroupPostSchema = named(
  'ExportedGroupPost',
  z.object({
    id: UuidSchema,
    group_id: UuidSchema,
    parent_id: UuidSchema.nullable(),
    content: z.string(),
    track_id: UuidSchema.nullable(),
    playlist_id: UuidSchema.nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type ExportedGroupPost = z.infer<typeof ExportedGroupPostSchema>;
