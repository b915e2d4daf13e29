import { initContract } from '@ts-rest/core';
import { ErrorEnvelopeSchema } from './common/envelope.schemas.js';
import { auditContract } from './areas/audit/audit.contract.js';
import { commentsContract } from './areas/comments/comments.contract.js';
import { authContract } from './areas/auth/auth.contract.js';
import { systemContract } from './areas/system/system.contract.js';
import { marketplaceContract } from './areas/marketplace/marketplace.contract.js';
import { mediaPipelineContract } from './areas/media/media.contract.js';
import { playlistsContract } from './areas/playlists/playlists.contract.js';
import { queueContract } from './areas/queue/queue.contract.js';
import { tracksContract } from './areas/tracks/tracks.contract.js';
import { usersContract } from './areas/users/users.contract.js';
import { developerContract } from './areas/developer/developer.contract.js';
import { notificationsContract } from './areas/notifications/notifications.contract.js';
import { moderationContract } from './areas/moderation/moderation.contract.js';
import { sanctionsContract } from './areas/sanctions/sanctions.contract.js';
import { copyrightContract } from './areas/copyright/copyright.contract.js';
import { appealsContract } from './areas/appeals/appeals.contract.js';
import { frontendContract } from './areas/frontend/frontend.contract.js';
import { dashboardContract } from './areas/dashboard/dashboard.contract.js';
import { socialContract } from './areas/social/social.contract.js';
import { searchContract } from './areas/search/search.contract.js';
import { webhooksContract } from './areas/webhooks/webhooks.contract.js';
import { adminContract } from './areas/admin/admin.contract.js';
import { subsonicContract } from './areas/subsonic/subsonic.contract.js';
import { groupPostsContract } from './areas/group-posts/group-posts.contract.js';
import { analyticsContract } from './areas/analytics/analytics.contract.js';
import { groupsContract } from './areas/groups/groups.contract.js';
import { gearContract } from './areas/gear/gear.contract.js';
import { coursesContract } from './areas/courses/courses.contract.js';
import { cloudContract } from './areas/cloud/cloud.contract.js';

const c = initContract();

export const API_PREFIX = '/api/v1';

/**
 * Options every router shares: undeclared statuses are type errors; every route may answer 429
 * (the per-address request limit), 500, and 503 (while the service starts).
 */
const areaOptions = {
  strictStatusCodes: true,
  commonResponses: { 429: ErrorEnvelopeSchema, 500: ErrorEnvelopeSchema, 503: ErrorEnvelopeSchema },
} as const;

const apiOptions = { ...areaOptions, pathPrefix: API_PREFIX } as const;

// Each area's router is a named constant, so the whole contract's declared type names them
// instead of spelling every route out (TS7056: the spelled-out type grew past what tsc emits).
export const systemRouter = c.router(systemContract, areaOptions);
export const authRouter = c.router(authContract, apiOptions);
export const usersRouter = c.router(usersContract, apiOptions);
export const auditRouter = c.router(auditContract, apiOptions);
export const tracksRouter = c.router(tracksContract, apiOptions);
export const mediaRouter = c.router(mediaPipelineContract, apiOptions);
export const socialRouter = c.router(socialContract, apiOptions);
export const commentsRouter = c.router(commentsContract, apiOptions);
export const queueRouter = c.router(queueContract, apiOptions);
export const playlistsRouter = c.router(playlistsContract, apiOptions);
export const marketplaceRouter = c.router(marketplaceContract, apiOptions);
export const developerRouter = c.router(developerContract, apiOptions);
export const frontendRouter = c.router(frontendContract, apiOptions);
export const dashboardRouter = c.router(dashboardContract, apiOptions);
export const searchRouter = c.router(searchContract, apiOptions);
export const webhooksRouter = c.router(webhooksContract, apiOptions);
export const notificationsRouter = c.router(notificationsContract, apiOptions);
export const moderationRouter = c.router(moderationContract, apiOptions);
export const copyrightRouter = c.router(copyrightContract, apiOptions);
export const adminRouter = c.router(adminContract, apiOptions);
export const sanctionsRouter = c.router(sanctionsContract, apiOptions);
export const appealsRouter = c.router(appealsContract, apiOptions);
export const subsonicRouter = c.router(subsonicContract, apiOptions);
export const analyticsRouter = c.router(analyticsContract, apiOptions);
export const groupsRouter = c.router(groupsContract, apiOptions);
export const groupPostsRouter = c.router(groupPostsContract, apiOptions);
export const gearRouter = c.router(gearContract, apiOptions);
export const coursesRouter = c.router(coursesContract, apiOptions);
export const cloudRouter = c.router(cloudContract, apiOptions);

/**
 * The whole API. Each top-level key is an area: its routes share the area's OpenAPI tag. Every
 * area except `system` lives under /api/v1.
 */
export const contract: {
  system: typeof systemRouter;
  auth: typeof authRouter;
  users: typeof usersRouter;
  audit: typeof auditRouter;
  tracks: typeof tracksRouter;
  media: typeof mediaRouter;
  social: typeof socialRouter;
  comments: typeof commentsRouter;
  queue: typeof queueRouter;
  playlists: typeof playlistsRouter;
  marketplace: typeof marketplaceRouter;
  developer: typeof developerRouter;
  frontend: typeof frontendRouter;
  dashboard: typeof dashboardRouter;
  search: typeof searchRouter;
  webhooks: typeof webhooksRouter;
  notifications: typeof notificationsRouter;
  moderation: typeof moderationRouter;
  copyright: typeof copyrightRouter;
  admin: typeof adminRouter;
  sanctions: typeof sanctionsRouter;
  appeals: typeof appealsRouter;
  subsonic: typeof subsonicRouter;
  analytics: typeof analyticsRouter;
  groups: typeof groupsRouter;
  groupPosts: typeof groupPostsRouter;
  gear: typeof gearRouter;
  courses: typeof coursesRouter;
  cloud: typeof cloudRouter;
} = c.router({
  system: systemRouter,
  auth: authRouter,
  users: usersRouter,
  audit: auditRouter,
  tracks: tracksRouter,
  media: mediaRouter,
  social: socialRouter,
  comments: commentsRouter,
  queue: queueRouter,
  playlists: playlistsRouter,
  marketplace: marketplaceRouter,
  developer: developerRouter,
  frontend: frontendRouter,
  dashboard: dashboardRouter,
  search: searchRouter,
  webhooks: webhooksRouter,
  notifications: notificationsRouter,
  moderation: moderationRouter,
  copyright: copyrightRouter,
  admin: adminRouter,
  sanctions: sanctionsRouter,
  appeals: appealsRouter,
  subsonic: subsonicRouter,
  analytics: analyticsRouter,
  groups: groupsRouter,
  groupPosts: groupPostsRouter,
  gear: gearRouter,
  courses: coursesRouter,
  cloud: cloudRouter,
});

export type RiffContract = typeof contract;

/** Area descriptions, used as OpenAPI tag descriptions. */
export const AREA_DESCRIPTIONS: Record<keyof RiffContract, string> = {
  system: 'Liveness, readiness and the public keys for tokens (outside /api/v1)',
  auth: 'Registration, email verification, login, refresh rotation, 2FA, password reset, stream and chat tokens',
  users: 'Profiles, follows and blocks, privacy, preferences, data export and account deletion',
  audit: 'Your audit log: every security-relevant and mutating action, read-only',
  tracks: 'Uploads (one request or resumable chunks), metadata, lyrics, quota, streaming and download',
  media:
    'The media pipeline: HLS streams, waveform peaks, cover art, audio versions, the external transcoder’s callback',
  social:
    'Track social: likes (your favorites playlist), reposts and the feed, shares and secret links, plays and listening history, stats, recommendations and suggested tags',
  comments: 'Timestamped comments on tracks, with one level of replies',
  queue:
    'Your play queue, synced between devices (versioned, If-Match), and shared listening sessions reached by a share token. ' +
    'Live updates of a session (items, playback, chat, presence, end) come over the WebSocket GET /api/v1/ws?token=<chat or stream token> ' +
    '(not an HTTP operation, so not listed here): send {"type":"subscribe","session_token"}, receive {"type","session_token","data"}; ' +
    'the message formats are in docs/live-sessions.md and, as zod schemas, in @riff/contract (LiveClientMessageSchema, LiveServerMessageSchema).',
  playlists:
    'Playlists with ordered tracks (snapshot_id, ETag, If-Match), collaborators with read, write or admin, share links, ' +
    'copies and followers, your favorites playlist (your likes), import and export (M3U8, XSPF), search, recommendations and analytics',
  marketplace:
    'Products (tracks, packs, services) with licenses, images, previews and files; orders with Idempotency-Key, payment through a ' +
    'provider (built-in sandbox or Stripe), refunds, invoices, promo codes, reviews, downloads and seller stats. Replies are not enveloped',
  developer: 'Developer API keys: scoped (read, write, admin), rate-limited per key, managed with a bearer token only',
  frontend:
    'What a frontend needs beside the areas: its log entries into the service log, request bodies validated before sending, WebRTC ICE servers',
  dashboard:
    'Your dashboard: listening, likes, chat and friends against the previous period, recent activity, a preview of your library',
  search:
    'Search over tracks, users, playlists and products (PostgreSQL full text with typo tolerance, accents ignored) and suggestions as you type. ' +
    'The same engine answers /tracks/search, /users/search, /playlists/search and the products’ q; trending tracks are under social',
  webhooks:
    'Outgoing webhooks: events of your tracks, playlists, followers and sales POSTed to your URL, signed (Standard Webhooks), retried, ' +
    'logged; each webhook’s key reads the API as you',
  moderation:
    'Reports of abuse by users, and for staff the moderation queue (reports grouped by target), its decisions and actions on content.',
  copyright:
    'Copyright claims against tracks (hidden at once), the owner’s counter-notice, staff’s decisions, and the strikes an upheld ' +
    'claim gives: two stop uploads, three suspend the account',
  notifications:
    'Your inbox: follows, likes, reposts, comments and replies, collaborations, sales and orders, moderation decisions and announcements, ' +
    'made from what happens by a job; folded, read and deleted here; per type in the inbox and in a daily mail digest (preferences)',
  admin:
    'Administration: the platform’s settings (registration, uploads, quotas, the announcement), accounts as staff see them, ' +
    'roles, quotas and sign-outs, the platform’s figures, and the append-only staff log',
  sanctions:
    'Staff’s sanctions of accounts: warnings, suspensions (moderators up to 30 days) and bans (admins), lifted by unsuspend and unban; ' +
    'a suspended or banned account is signed out everywhere at once and told by a notification and a mail with a one-time appeal link',
  appeals:
    'Appeals of moderation decisions about your content, of sanctions (also by the one-time link mailed to a suspended or banned ' +
    'account) and of copyright strikes; your standing; and staff’s decisions on appeals, never by the staff member who decided first',
  subsonic:
    'App passwords for Subsonic player apps. The Subsonic REST API 1.16.1 with the OpenSubsonic extensions is served under /rest/ ' +
    '(outside /api/v1 and outside this document, as the apps expect it): docs/subsonic.md lists its methods and how to sign in',
  analytics:
    'Your tracks’ analytics from daily roll-ups: plays, listeners, listening time, likes, reposts, comments, shares, downloads, ' +
    'followers and sales against the previous period, series by day, week or month, top tracks, play sources, one track’s ' +
    'completion and retention, your audience (top listeners, countries) and a CSV export',
  groups:
    'Groups of users (a band, a label, a class, a scene): public or private, open, on request or by invite; members and their ' +
    'roles (owner, admins, moderators), join requests, invites, removals, bans and transfer of ownership',
  groupPosts:
    'The posts of a group: pinned first, then newest, with one level of replies and references to tracks and playlists each reader ' +
    'sees only if they may; members post (30 an hour per group), moderators pin and remove',
  gear:
    'What musicians play and record with: their items (public or private), photos, the tracks that name them, and ' +
    'discovery (search, the most owned models, who owns one)',
  courses:
    'Education: courses by creators (drafts, publication, archive), their lessons and who may read them, and enrollment',
  cloud:
    'A musician’s file storage for stems, projects, samples and documents: folders, files streamed both ways with byte ' +
    'ranges, sharing the upload quota with tracks',
};
