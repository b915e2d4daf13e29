import { z } from 'zod';
import { TimestampSchema, UuidSchema, queryInt } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';

export const DASHBOARD_PERIODS = ['7d', '30d', '90d', 'all'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

const change = z
  .string()
  .regex(/^(?:[+-]\d+%|0%|new)$/)
  .describe(
    'Against the previous period of the same length: "+12%", "-3%", "0%" (also 0 → 0), or "new" when the previous period had 0; always "0%" for all',
  );

export const DashboardStatsSchema = named(
  'DashboardStats',
  z.object({
    period: z.enum(DASHBOARD_PERIODS),
    tracks_played: z.number().int().min(0).describe('Plays you listened to in the period'),
    favorites: z.number().int().min(0).describe('Tracks you liked in the period (still liked)'),
    messages_sent: z.number().int().min(0).describe('Chat messages you wrote in live sessions in the period'),
    active_friends: z.number().int().min(0).describe('Mutual follows who played something in the period'),
    tracks_played_change: change,
    favorites_change: change,
    messages_sent_change: change,
    active_friends_change: change,
  }),
);
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;

export const DashboardActivitySchema = named(
  'DashboardActivity',
  z.object({
    id: z.string(),
    type: z
      .string()
      .describe('What happened, e.g. track.uploaded, track.liked, user.followed, user.new_follower, order.completed'),
    title: z.string(),
    description: z.string(),
    icon: z
      .string()
      .describe(
        'A stable icon name: upload, like, repost, follow, comment, playlist, order, product, session, key, edit, delete, activity',
      ),
    timestamp: TimestampSchema,
    metadata: z.record(z.unknown()),
  }),
);

export const DashboardLibraryItemSchema = named(
  'DashboardLibraryItem',
  z.object({
    id: UuidSchema,
    title: z.string(),
    artist: z.string().nullable(),
    cover_art_path: z.string().nullable(),
    created_at: TimestampSchema,
    duration: z.number().int(),
    like_count: z.number().int(),
    play_count: z.number().int(),
  }),
);

export const DashboardResponseSchema = named(
  'DashboardResponse',
  z.object({
    stats: DashboardStatsSchema,
    recent_activity: z.array(DashboardActivitySchema),
    library_preview: z.object({
      items: z.array(DashboardLibraryItemSchema).describe('Your own tracks, newest first'),
      total_count: z.number().int().min(0),
      has_more: z.boolean(),
    }),
  }),
);
export type DashboardResponse = z.infer<typeof DashboardResponseSchema>;

export const DashboardQuerySchema = z.object({
  activity_limit: queryInt(1, 50).default(10),
  library_limit: queryInt(1, 50).default(5),
  stats_period: z.enum(DASHBOARD_PERIODS).default('30d'),
});
export type DashboardQuery = z.infer<typeof DashboardQuerySchema>;
