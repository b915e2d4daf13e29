import type { ModeratedContentType } from '@riff/contract';
import type { ModeratedContent } from '../platform/access/moderation.js';
import { systemActor, type UserActor } from '../platform/access/actor.js';
import { keyIsLive } from '../platform/auth/authenticate.middleware.js';
import type { KeyRef } from '../platform/auth/token-signer.js';
import { AppError } from '../platform/errors/app-error.js';
import type { Platform } from '../platform/platform.js';
import type { RiffModule } from '../platform/module.js';
import { createAccountPagesModule } from './account-pages/account-pages.module.js';
import { createAdminModule } from './admin/admin.module.js';
import { createAppealsModule } from './appeals/appeals.module.js';
import { createPlatformSettings } from './admin/platform-settings.js';
import { createAuditModule } from './audit/audit.module.js';
import { createAuthModule } from './auth/auth.module.js';
import { createCommentsModule } from './comments/comments.module.js';
import { createCopyrightModule } from './copyright/copyright.module.js';
import { createAnalyticsModule } from './analytics/analytics.module.js';
import { createDashboardModule } from './dashboard/dashboard.module.js';
import { createDeveloperModule } from './developer/developer.module.js';
import { createFrontendModule } from './frontend/frontend.module.js';
import { createGroupsModule } from './groups/groups.module.js';
import { createGroupPostsModule } from './group-posts/group-posts.module.js';
import { createGearModule } from './gear/gear.module.js';
import { createCoursesModule } from './courses/courses.module.js';
import { createCloudModule } from './cloud/cloud.module.js';
import { createMarketplaceModule } from './marketplace/marketplace.module.js';
import { createMediaModule } from './media/media.module.js';
import { createModerationModule } from './moderation/moderation.module.js';
import { createNotificationsModule } from './notifications/notifications.module.js';
import { createPlaylistsModule } from './playlists/playlists.module.js';
import { createSocialModule } from './social/social.module.js';
import { createQueueModule } from './queue/queue.module.js';
import { createSanctionsModule } from './sanctions/sanctions.module.js';
import { createSearchModule } from './search/search.module.js';
import { createSubsonicModule } from './subsonic/subsonic.module.js';
import { createWebhooksModule } from './webhooks/webhooks.module.js';
import { createSystemModule } from './system/system.module.js';
import { createTracksModule } from './tracks/tracks.module.js';
import { createUsersModule } from './users/users.module.js';

/** A read that answers 403 or 404 to this caller, as nothing. */
async function unlessRefused<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && (error.status === 403 || error.status === 404)) return undefined;
    throw error;
  }
}

/**
 * Every area of the service, by name. Each module is built after the modules whose ports it reads;
 * `modules` is the order in which account data is exported and erased.
 */
export function createAreas(platform: Platform) {
  const audit = createAuditModule(platform);
  // the key verifiers are the modules' (developer and webhook keys), listed below
  const liveKey = (key: KeyRef) =>
    keyIsLive(
      modules.flatMap((module) => module.keyVerifiers ?? []),
      key,
    );
  // users and tracks are made below (tracks records each new audio through media): playback tokens
  // ask users, and the pipeline reads and sets a track's stream columns, only when a request or job comes
  const media = createMediaModule(platform, {
    activeUser: (id) => users.activeUser!(id),
    keyIsLive: liveKey,
    tracks: { find: (id) => tracks.streams.find(id), set: (id, columns) => tracks.streams.set(id, columns) },
  });
  // the platform's settings (admin area): registration and uploads read them
  const settings = createPlatformSettings(platform);
  // users is made below: its account lock and quotas are asked only when an upload comes
  const tracks = createTracksModule(platform, {
    media: media.media,
    people: { lockAccount: (id) => users.people.lockAccount(id) },
    rules: {
      allowanceFor: async (userId) => {
        // copyright is made below: an account's strikes may stop its uploads too
        const [current, own, cleared] = await Promise.all([
          settings.current(),
          users.staffAccounts.quotaOf(userId),
          copyright.uploadsAllowed(userId),
        ]);
        return {
          enabled: current.uploads_enabled && cleared,
          maxFileBytes: current.max_upload_bytes,
          quotaBytes: own ?? current.default_quota_bytes,
        };
      },
    },
    // the cloud is made below: its files share the quota, asked only when an upload or the quota is
    cloudUsage: { bytesOf: (userId) => cloud.usage.bytesOf(userId) },
  });
  const users = createUsersModule(platform, { avatars: media.avatars });
  const auth = createAuthModule(platform, {
    users: users.users,
    registration: { isOpen: async () => (await settings.current()).registration_open },
    listedAdmins: users.listedAdmins,
  });
  const queue = createQueueModule(platform, {
    tracks: tracks.reader,
    activeUser: (id) => users.activeUser!(id),
    blockedEitherWay: (a, b) => users.people.blockedEitherWay(a, b),
    names: (ids) => users.people.names(ids),
    keyIsLive: liveKey,
  });
  const playlists = createPlaylistsModule(platform, {
    tracks: tracks.reader,
    trackCounters: tracks.counters,
    people: users.people,
    // the analytics area is made below (it reads playlists too), and asked only when a request comes
    playsFrom: (id) => analytics.playsFromPlaylist(id),
  });
  const groups = createGroupsModule(platform, { people: users.people, images: media.avatars });
  const groupPosts = createGroupPostsModule(platform, {
    groups: groups.reader,
    groupCounters: groups.counters,
    tracks: tracks.reader,
    playlists: (actor, ids) => playlists.playlistsFor(actor, ids),
    people: users.people,
  });
  const comments = createCommentsModule(platform, { tracks: tracks.reader, people: users.people });
  const social = createSocialModule(platform, {
    favorites: playlists.favorites,
    tracks: tracks.tracks,
    reader: tracks.reader,
    secretLinks: tracks.secretLinks,
    trackCounters: tracks.counters,
    people: users.people,
    comments: comments.count,
  });
  const marketplace = createMarketplaceModule(platform, { tracks: tracks.reader, people: users.people });
  const gear = createGearModule(platform, { tracks: tracks.reader, people: users.people, images: media.images });
  const courses = createCoursesModule(platform, { people: users.people, images: media.avatars });
  const cloud = createCloudModule(platform, { people: users.people, quota: tracks.quota });
  const analytics = createAnalyticsModule(platform, {
    tracks: tracks.reader,
    playlists: (actor, ids) => playlists.playlistsFor(actor, ids),
    audience: (ids, viewerId) => users.people.audienceProfiles(ids, viewerId),
    orderSales: (ids) => marketplace.orderSales(ids),
  });
  const webhooks = createWebhooksModule(platform, {
    activeUser: (id) => users.activeUser!(id),
    tracks: (actor, ids) => tracks.reader.visibleTracks(actor, ids),
    profiles: (ids) => users.people.profiles(ids),
    people: users.people,
    playlist: (actor, id) => playlists.playlistFor(actor, id),
    comment: (actor, id) => comments.commentFor(actor, id),
    order: (actor, id) => unlessRefused(marketplace.orderFor(actor, id)),
    product: (actor, id) => unlessRefused(marketplace.productFor(actor, id)),
    group: (actor, id) => groups.groupFor(actor, id),
    groupPost: (actor, id) => groupPosts.postFor(actor, id),
    // trust and safety's areas are made below, and asked only when an event is delivered
    report: (actor, id) => moderation.reportFor(actor, id),
    claim: (actor, id) => copyright.claimFor(actor, id),
    strike: (actor, id) => copyright.strikeFor(actor, id),
    appeal: (actor, id) => appeals.appealFor(actor, id),
  });
  const search = createSearchModule({
    tracks: tracks.searcher,
    users: users.searcher,
    playlists: playlists.searcher,
    products: marketplace.searcher,
  });
  const developer = createDeveloperModule(platform, {
    activeUser: (id) => users.activeUser!(id),
    people: users.people,
  });
  const subsonic = createSubsonicModule(platform, {
    apiKeys: developer.keyVerifier,
    people: users.people,
    tracks: tracks.searcher,
    audio: tracks.audio,
    playlists: playlists.services.playlists,
    playlistTracks: playlists.services.tracks,
    queue: queue.services.queue,
    social: social.services.social,
    lyrics: tracks.tracks,
    covers: media.media,
    avatars: media.avatars,
    profiles: users.services.profiles,
    recommendations: social.recommendations,
    plays: social.services.plays,
    follows: users.services.follows,
  });
  const admin = createAdminModule(platform, {
    settings,
    accounts: users.staffAccounts,
    sessions: auth.sessions,
    // moderation and sanctions are made below, and asked only when a request comes
    standing: {
      standing: async (ids) => {
        const [reports, sanctioned, strikes] = await Promise.all([
          moderation.openReportsAgainst(ids),
          Promise.all(ids.map(async (id) => [id, await sanctions.standingOf(id)] as const)),
          copyright.activeStrikes(ids),
        ]);
        return new Map(
          sanctioned.map(([id, list]) => [
            id,
            { open_reports: reports.get(id) ?? 0, active_strikes: strikes.get(id) ?? 0, sanctions: list },
          ]),
        );
      },
      mostReported: (limit) => moderation.mostReported(limit),
    },
    figures: {
      accounts: (since, now) => users.staffAccounts.figures(since, now),
      content: async (since) => ({
        ...(await tracks.figures(since)),
        comments_new: await comments.createdSince(since),
        playlists_new: await playlists.createdSince(since),
      }),
      plays: (since) => social.countedPlaysSince(since),
      marketplace: async (since) => {
        const { orders, revenue, refunds } = await marketplace.orderFigures(since);
        return { orders, revenue_cents_by_currency: revenue, refunds };
      },
      moderation: async (since) => ({
        ...(await moderation.figures(since)),
        pending_claims: await copyright.pendingClaims(),
        open_appeals: await appeals.openCount(),
      }),
    },
  });
  // every area whose items moderation hides: cases, appeals and bans reach them through this one map
  const moderatedContent = {
    track: tracks.moderation,
    comment: comments.moderation,
    playlist: playlists.moderation,
    product: marketplace.moderation,
    group: groups.moderation,
    group_post: groupPosts.moderation,
    course: courses.moderation,
  } satisfies Partial<Record<ModeratedContentType, ModeratedContent>>;
  const sanctions = createSanctionsModule(platform, {
    standing: users.standing,
    people: users.people,
    staffLog: admin.staffLog,
    content: Object.values(moderatedContent),
  });
  const copyright = createCopyrightModule(platform, {
    tracks: tracks.reader,
    trackModeration: tracks.moderation,
    people: users.people,
    staffLog: admin.staffLog,
    sanctions: sanctions.sanctions,
  });
  // each subject as its area shows it to the reader: a subject they may no longer see is left out
  const visibleSubjects = async (reader: UserActor, subjects: readonly { type: string; id: string }[]) => {
    const idsOf = (type: string) => [...new Set(subjects.filter((subject) => subject.type === type).map((s) => s.id))];
    const visible = new Set<string>();
    const add = (type: string, id: string, seen: unknown) => void (seen && visible.add(`${type}:${id}`));
    for (const id of (await tracks.reader.visibleTracks(reader, idsOf('track'))).keys()) add('track', id, true);
    await Promise.all([
      ...idsOf('comment').map(async (id) => {
        const comment = await comments.commentFor(reader, id);
        add('comment', id, comment && !comment.is_deleted);
      }),
      ...idsOf('playlist').map(async (id) => add('playlist', id, await playlists.playlistFor(reader, id))),
      ...idsOf('product').map(async (id) =>
        add('product', id, await unlessRefused(marketplace.productFor(reader, id))),
      ),
      ...idsOf('order').map(async (id) => add('order', id, await unlessRefused(marketplace.orderFor(reader, id)))),
      ...idsOf('user').map(async (id) => add('user', id, await users.people.findActive(id))),
      (async () => {
        for (const id of (await groups.reader.readableMany(reader, idsOf('group'))).keys()) add('group', id, true);
      })(),
      ...idsOf('group_post').map(async (id) => add('group_post', id, await groupPosts.postFor(reader, id))),
      ...idsOf('course').map(async (id) => add('course', id, await courses.courseFor(reader, id))),
    ]);
    return visible;
  };
  const moderation = createModerationModule(platform, {
    targets: {
      content: moderatedContent,
      visibleTo: async (reader, target) => (await visibleSubjects(reader, [target])).has(`${target.type}:${target.id}`),
      user: async (id) => {
        const row = await users.people.findAccount(id);
        return (
          row && {
            isAdmin: row.is_admin,
            isBanned: row.is_banned,
            snapshot: {
              username: row.username,
              bio: row.bio,
              avatar: row.avatar,
              location: row.location,
              social_links: row.social_links,
            },
          }
        );
      },
      profiles: (ids) => users.people.accountProfiles(ids),
    },
    staffLog: admin.staffLog,
    sanctions: sanctions.sanctions,
  });
  const appeals = createAppealsModule(platform, {
    ports: {
      content: moderatedContent,
      sanctions: {
        standingOf: (userId) => sanctions.standingOf(userId),
        sanctionByAppealToken: (token) => sanctions.sanctionByAppealToken(token),
        lift: sanctions.sanctions,
      },
      strikes: {
        strikesOf: (userId) => copyright.strikesOf(userId),
        liftStrike: async (actor, strikeId) => void (await copyright.liftStrike(actor, strikeId)),
        decider: (strikeId) => copyright.claimDecider(strikeId),
      },
      staffLog: admin.staffLog,
      contentDecider: async (target) => {
        // a track a claim hid or removed: who decided the claim (the staff log names the claim, not the track)
        const byClaim = target.type === 'track' ? await copyright.trackDecider(target.id) : undefined;
        if (byClaim !== undefined) return byClaim ?? undefined;
        return admin.lastStaffActor(target, ['content.hide', 'content.remove', 'case.hide', 'case.remove']);
      },
      account: async (id) => {
        const row = await users.people.findAccount(id);
        return row && { id: row.id, isAdmin: row.is_admin, isBanned: row.is_banned };
      },
      // only tracks store files of their own among the moderated content
      purgeable: { track: tracks.purge },
    },
  });
  const notifications = createNotificationsModule(platform, {
    sources: {
      track: async (id) => {
        const track = await tracks.reader.findLive(id);
        return track && { ownerId: track.creator_id, title: track.title };
      },
      comment: async (id) => {
        const comment = await comments.commentFor(systemActor(), id);
        return comment && { authorId: comment.user?.id ?? null, content: comment.content ?? '' };
      },
      playlist: async (id) => {
        const playlist = await playlists.playlistFor(systemActor(), id);
        return playlist && { title: playlist.title };
      },
      product: async (id) => {
        const product = await unlessRefused(marketplace.productFor(systemActor(), id));
        return product && { title: product.title };
      },
      group: (id) => groups.groupFacts(id),
      course: (id) => courses.courseFacts(id),
      orderBuyer: (id) => marketplace.orderBuyer(id),
      name: async (id) => (await users.people.contact(id))?.username,
      blockedEitherWay: (a, b) => users.people.blockedEitherWay(a, b),
      profiles: (ids, reader) => users.people.profiles(ids, reader),
      visibleSubjects,
    },
    channels: async (userId, type) =>
      (await users.activeUser!(userId)) ? (await users.services.preferences.of(userId)).notifications[type] : undefined,
    channelsOfEach: async (userIds, type) => {
      const active = [...(await users.activeUsers(userIds)).keys()];
      const preferences = await users.services.preferences.ofEach(active);
      return new Map(active.map((id) => [id, preferences.get(id)!.notifications[type]]));
    },
    blockedWith: (id) => users.people.blockedEitherWayWith(id),
    contact: (id) => users.people.contact(id),
    activeUsers: (ids) => users.activeUsers(ids),
    audiencePage: (audience, after, limit) => users.people.audiencePage(audience, after, limit),
  });
  // media before tracks: an erased account's derived files go before the tracks that name them;
  // social before playlists: reposts and history go, then the favorites (likes) with the playlists
  const modules: RiffModule[] = [
    createSystemModule(platform),
    auth,
    users,
    audit,
    media,
    tracks,
    comments,
    queue,
    social,
    playlists,
    // a member's posts go (and their groups' counts with them) before their memberships and groups
    groupPosts,
    groups,
    marketplace,
    gear,
    courses,
    cloud,
    analytics,
    search,
    webhooks,
    developer,
    subsonic,
    sanctions,
    notifications,
    moderation,
    copyright,
    appeals,
    admin,
    createFrontendModule(platform),
    createDashboardModule(platform),
    createAccountPagesModule(platform),
  ];
  return {
    auth,
    users,
    audit,
    media,
    tracks,
    comments,
    queue,
    social,
    playlists,
    groups,
    groupPosts,
    marketplace,
    gear,
    courses,
    cloud,
    search,
    webhooks,
    developer,
    subsonic,
    sanctions,
    notifications,
    copyright,
    admin,
    appeals,
    modules,
  };
}

export type Areas = ReturnType<typeof createAreas>;

/** Every module of the service, in the order account data is exported and erased. */
export function createModules(platform: Platform): RiffModule[] {
  return createAreas(platform).modules;
}
