import { z } from 'zod';
import {
  pageOf,
  PaginationQuerySchema,
  queryInt,
  ShareTokenSchema,
  TimestampSchema,
  UserIdOrMeSchema,
  UuidSchema,
} from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named, withOpenApi } from '../../common/openapi-meta.js';
import { TrackSchema } from '../tracks/tracks.schemas.js';
import { ProfileSchema } from '../users/users.schemas.js';
import { ModerationStateFields } from '../moderation/moderation-states.js';

/** Playlists. */
export const PLAYLIST_PERMISSIONS = ['read', 'write', 'admin'] as const;
export type PlaylistPermission = (typeof PLAYLIST_PERMISSIONS)[number];

export const PLAYLIST_EXCHANGE_FORMATS = ['m3u', 'xspf'] as const;
export type PlaylistExchangeFormat = (typeof PLAYLIST_EXCHANGE_FORMATS)[number];

export const PLAYLIST_TITLE_MAX = 200;
export const PLAYLIST_DESCRIPTION_MAX = 1000;
/** At most this many tracks in one playlist. */
export const PLAYLIST_MAX_TRACKS = 10_000;
/** Tracks in one reply about a playlist: by default, and at most (a client pages through a longer one). */
export const PLAYLIST_TRACKS_PAGE_DEFAULT = 100;
export const PLAYLIST_TRACKS_PAGE_MAX = 1000;
/** The text of an imported playlist: at most this many bytes (UTF-8). */
export const PLAYLIST_IMPORT_MAX_BYTES = 1024 * 1024;
export const PLAYLIST_SHARE_MAX_DAYS = 365;
/** At most this many collaborators on one playlist. */
export const PLAYLIST_MAX_COLLABORATORS = 100;
/** At most this many playlists per user (the favorites playlist included). */
export const PLAYLISTS_PER_USER_MAX = 1000;
/** followers_daily in analytics covers this many days, today included. */
export const PLAYLIST_ANALYTICS_DAYS = 30;

const title = z
  .string()
  .trim()
  .min(1)
  .max(PLAYLIST_TITLE_MAX)
  .describe(`1 to ${PLAYLIST_TITLE_MAX} characters, trimmed`);
const description = z
  .string()
  .trim()
  .max(PLAYLIST_DESCRIPTION_MAX)
  .describe(`At most ${PLAYLIST_DESCRIPTION_MAX} characters`);

/** An opaque version of a playlist's details and tracks; the ETag is this value, quoted. */
export const SnapshotIdSchema = z
  .string()
  .describe(
    'Changes with every change of the playlist’s details or tracks; the ETag is this value, quoted. Send it back in If-Match',
  );

export const PlaylistTrackSchema = named(
  'PlaylistTrack',
  z.object({
    id: UuidSchema,
    playlist_id: UuidSchema,
    track_id: UuidSchema,
    added_by: UuidSchema.nullable().describe('The user who added it; null once that account was deleted'),
    position: z
      .number()
      .int()
      .min(0)
      .describe('0…n-1 over the whole playlist; tracks you may not see are left out, the others keep their positions'),
    added_at: TimestampSchema,
    track: TrackSchema,
  }),
);
export type PlaylistTrack = z.infer<typeof PlaylistTrackSchema>;

export const PlaylistCollaboratorSchema = named(
  'PlaylistCollaborator',
  z.object({
    id: UuidSchema,
    playlist_id: UuidSchema,
    user_id: UuidSchema,
    permission: z
      .enum(PLAYLIST_PERMISSIONS)
      .describe(
        'read: see a private playlist; write: also add, remove and reorder tracks; admin: also edit details, manage collaborators and share',
      ),
    user: ProfileSchema.describe('The collaborator as others see their profile (never their email)'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type PlaylistCollaborator = z.infer<typeof PlaylistCollaboratorSchema>;

export const PlaylistSchema = named(
  'Playlist',
  z.object({
    id: UuidSchema,
    user_id: UuidSchema.describe('The owner'),
    title: z.string(),
    description: z.string().nullable(),
    cover_url: z.string().nullable().describe('The cover of its first track you may see, else null'),
    is_public: z.boolean(),
    is_default_favorites: z.boolean().describe('Your favorites playlist: its tracks are your likes'),
    is_editorial: z.boolean().describe('Chosen by the editors (set by admins only)'),
    follower_count: z.number().int().min(0),
    track_count: z.number().int().min(0).describe('The tracks you may see'),
    snapshot_id: SnapshotIdSchema,
    is_following: z.boolean().optional().describe('Whether you follow it'),
    tracks: z
      .array(PlaylistTrackSchema)
      .optional()
      .describe('By position; only on replies about one playlist, never in lists'),
    collaborators: z
      .array(PlaylistCollaboratorSchema)
      .optional()
      .describe('Only on replies about one playlist, never in lists'),
    ...ModerationStateFields,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type Playlist = z.infer<typeof PlaylistSchema>;

export const CreatePlaylistRequestSchema = named(
  'CreatePlaylistRequest',
  z.object({
    title,
    description: description.optional(),
    is_public: z.boolean().optional().describe('Default false'),
  }),
);
export type CreatePlaylistRequest = z.infer<typeof CreatePlaylistRequestSchema>;

export const UpdatePlaylistRequestSchema = named(
  'UpdatePlaylistRequest',
  z.object({
    title: title.optional(),
    description: description.nullable().optional().describe('null clears it'),
    is_public: z.boolean().optional().describe('The favorites playlist stays private (400)'),
    is_editorial: z.boolean().optional().describe('Admins only (403 for others)'),
    user_id: UuidSchema.optional().describe(
      'Give the playlist to one of its collaborators (the owner only; 400 for a user who is not a collaborator). You stay on as an admin collaborator',
    ),
  }),
);
export type UpdatePlaylistRequest = z.infer<typeof UpdatePlaylistRequestSchema>;

export const AddPlaylistTrackRequestSchema = named(
  'AddPlaylistTrackRequest',
  z.object({
    track_id: UuidSchema,
    position: z
      .number()
      .int()
      .min(0)
      .max(PLAYLIST_MAX_TRACKS)
      .optional()
      .describe('Where to insert it (0 is first); past the end, or absent, appends'),
  }),
);
export type AddPlaylistTrackRequest = z.infer<typeof AddPlaylistTrackRequestSchema>;

export const ReorderTracksRequestSchema = named(
  'ReorderTracksRequest',
  z.object({
    track_ids: z
      .array(UuidSchema)
      .min(1)
      .max(PLAYLIST_MAX_TRACKS)
      .describe('The complete new order: every track id of the playlist exactly once (400 otherwise)'),
  }),
);
export type ReorderTracksRequest = z.infer<typeof ReorderTracksRequestSchema>;

export const AddCollaboratorRequestSchema = named(
  'AddCollaboratorRequest',
  z.object({ user_id: UuidSchema, permission: z.enum(PLAYLIST_PERMISSIONS) }),
);
export type AddCollaboratorRequest = z.infer<typeof AddCollaboratorRequestSchema>;

export const UpdateCollaboratorRequestSchema = named(
  'UpdateCollaboratorRequest',
  z.object({ permission: z.enum(PLAYLIST_PERMISSIONS) }),
);
export type UpdateCollaboratorRequest = z.infer<typeof UpdateCollaboratorRequestSchema>;

export const SharePlaylistRequestSchema = named(
  'SharePlaylistRequest',
  z.object({
    expires_in_days: z
      .number()
      .int()
      .min(1)
      .max(PLAYLIST_SHARE_MAX_DAYS)
      .optional()
      .describe(`1 to ${PLAYLIST_SHARE_MAX_DAYS}; without it the link works until it is revoked`),
  }),
);
export type SharePlaylistRequest = z.infer<typeof SharePlaylistRequestSchema>;

export const PlaylistShareSchema = named(
  'PlaylistShare',
  z.object({
    token: z
      .string()
      .describe('Shown once: only its hash is stored. Sharing again makes a new link and the old one stops working'),
    share_url: z.string().url(),
    expires_at: TimestampSchema.nullable().describe('null: until revoked'),
  }),
);

export const DuplicatePlaylistRequestSchema = named(
  'DuplicatePlaylistRequest',
  z.object({ title: title.optional().describe('Default: the original title followed by " (copy)", cut to fit') }),
);
export type DuplicatePlaylistRequest = z.infer<typeof DuplicatePlaylistRequestSchema>;

export const ImportPlaylistRequestSchema = named(
  'ImportPlaylistRequest',
  z.object({
    title: title.optional().describe('Default: the title inside the file, else "Imported playlist"'),
    format: z.enum(PLAYLIST_EXCHANGE_FORMATS).describe('m3u covers M3U and extended M3U8'),
    // No character can be shorter than a byte in UTF-8, so the byte limit bounds the length too
    // (documented for clients; the server counts the bytes).
    content: withOpenApi(
      z
        .string()
        .min(1)
        .describe(`The playlist file’s text, at most ${PLAYLIST_IMPORT_MAX_BYTES} bytes in UTF-8 (413 beyond)`),
      {
        maxLength: PLAYLIST_IMPORT_MAX_BYTES,
      },
    ),
  }),
);
export type ImportPlaylistRequest = z.infer<typeof ImportPlaylistRequestSchema>;

export const UnmatchedEntrySchema = named(
  'UnmatchedPlaylistEntry',
  z.object({
    line: z.number().int().min(1).describe('Where the entry is in the file: its line, from 1'),
    title: z.string().nullable(),
    artist: z.string().nullable(),
  }),
);

export const PlaylistAnalyticsSchema = named(
  'PlaylistAnalytics',
  z.object({
    follower_count: z.number().int().min(0),
    track_count: z.number().int().min(0),
    total_duration: z.number().min(0).describe('Seconds, over every track of the playlist'),
    plays_from_playlist: z
      .number()
      .int()
      .min(0)
      .describe('Counted plays reported with source playlist and this playlist_id'),
    top_tracks: z
      .array(z.object({ track_id: UuidSchema, plays: z.number().int().min(0) }))
      .describe('At most 10, most played first'),
    followers_daily: z
      .array(
        z.object({
          date: z.string().describe('YYYY-MM-DD (UTC)'),
          count: z.number().int().min(0).describe('New followers that day'),
        }),
      )
      .describe(`The last ${PLAYLIST_ANALYTICS_DAYS} days, oldest first, days without followers included`),
  }),
);

export const PlaylistTokenParamsSchema = z.object({
  token: ShareTokenSchema.describe('The share token (base64url): unknown, revoked or expired is 404'),
});
export const PlaylistTrackParamsSchema = z.object({ id: UuidSchema, trackId: UuidSchema });
export const PlaylistCollaboratorParamsSchema = z.object({ id: UuidSchema, userId: UuidSchema });

export const PlaylistListQuerySchema = PaginationQuerySchema.extend({
  user_id: UserIdOrMeSchema.optional().describe(
    'That user’s playlists you may see; without it, yours and those you collaborate on',
  ),
});
export const PlaylistSearchQuerySchema = PaginationQuerySchema.extend({
  q: z.string().trim().min(1).max(200).describe('Words of the title or description'),
});
export const PlaylistDetailQuerySchema = z.object({
  tracks_offset: queryInt(0, PLAYLIST_MAX_TRACKS).default(0).describe('Skip this many of the tracks you may see'),
  tracks_limit: queryInt(1, PLAYLIST_TRACKS_PAGE_MAX)
    .default(PLAYLIST_TRACKS_PAGE_DEFAULT)
    .describe(
      `At most this many tracks in the reply (default ${PLAYLIST_TRACKS_PAGE_DEFAULT}, at most ${PLAYLIST_TRACKS_PAGE_MAX}); track_count says how many there are`,
    ),
});
export const PlaylistExportQuerySchema = z.object({ format: z.enum(PLAYLIST_EXCHANGE_FORMATS) });

/** If-Match on playlist writes: the snapshot_id, bare or quoted as an ETag, or `*`. */
/** If-None-Match on a playlist read: the ETag you hold (a list, weak ones too, or `*`). */
export const PlaylistIfNoneMatchHeadersSchema = z.object({
  'if-none-match': z.string().max(1024).optional().describe('The ETag you hold: 304 while it is current'),
});

export const PlaylistIfMatchHeadersSchema = z.object({
  'if-match': z
    .string()
    .max(256)
    .optional()
    .describe(
      'The snapshot_id you last read (bare or as the ETag); a stale one answers 412 PRECONDITION_FAILED and changes nothing',
    ),
});

export { ExportedPlaylistSchema } from './playlist-account.schemas.js';

export const PlaylistEnvelope = envelope(named('PlaylistReply', z.object({ playlist: PlaylistSchema })));
export const PlaylistPageEnvelope = envelope(named('PlaylistPage', pageOf('playlists', PlaylistSchema)));
export const PlaylistChangeEnvelope = envelope(
  named(
    'PlaylistChange',
    z.object({
      message: z.string(),
      snapshot_id: SnapshotIdSchema.describe('The playlist’s new snapshot_id (also the reply’s ETag)'),
    }),
  ),
);
export const CollaboratorEnvelope = envelope(
  named('PlaylistCollaboratorReply', z.object({ collaborator: PlaylistCollaboratorSchema })),
);
export const CollaboratorPageEnvelope = envelope(
  named('PlaylistCollaboratorPage', pageOf('collaborators', PlaylistCollaboratorSchema)),
);
export const PlaylistShareEnvelope = envelope(PlaylistShareSchema);
export const PlaylistImportEnvelope = envelope(
  named(
    'PlaylistImportReply',
    z.object({
      playlist: PlaylistSchema,
      matched: z
        .number()
        .int()
        .min(0)
        .describe('Entries matched to a track you may see (each track once: repeats count once)'),
      unmatched: z.array(UnmatchedEntrySchema).describe('Entries with no track you may see, in file order'),
    }),
  ),
);
export const PlaylistAnalyticsEnvelope = envelope(
  named('PlaylistAnalyticsReply', z.object({ analytics: PlaylistAnalyticsSchema })),
);
