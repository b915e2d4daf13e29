import type { Migration } from 'kysely';
import * as accounts from './0001-accounts.js';
import * as social from './0002-social.js';
import * as tracks from './0003-tracks.js';
import * as events from './0004-events.js';
import * as eventSubjects from './0005-event-subjects.js';
import * as media from './0006-media.js';
import * as trackSocial from './0007-track-social.js';
import * as comments from './0008-comments.js';
import * as queue from './0009-queue.js';
import * as playlists from './0010-playlists.js';
import * as marketplace from './0011-marketplace.js';
import * as invoiceParties from './0012-invoice-parties.js';
import * as productListIndexes from './0013-product-list-indexes.js';
import * as apiKeys from './0014-api-keys.js';
import * as search from './0015-search.js';
import * as webhooks from './0016-webhooks.js';
import * as productCounts from './0017-product-counts.js';
import * as webhookAttemptLease from './0018-webhook-attempt-lease.js';
import * as playAddressWindows from './0019-play-address-windows.js';
import * as refreshSuccessor from './0020-refresh-successor.js';
import * as notifications from './0021-notifications.js';
import * as trustAndSafety from './0022-trust-and-safety.js';
import * as sanctions from './0024-sanctions.js';
import * as copyright from './0025-copyright.js';
import * as appeals from './0026-appeals.js';
import * as trustWebhooks from './0027-trust-webhooks.js';
import * as trustIndexes from './0028-trust-indexes.js';
import * as productCountsByModeration from './0029-product-counts-by-moderation.js';
import * as announcementBatches from './0030-announcement-batches.js';
import * as appPasswords from './0031-app-passwords.js';
import * as trackAlbums from './0032-track-albums.js';
import * as subsonicQueueClients from './0033-subsonic-queue-clients.js';
import * as subsonicAnnotations from './0034-subsonic-annotations.js';
import * as trackShuffle from './0035-track-shuffle.js';
import * as dailySalts from './0036-daily-salts.js';
import * as eventStream from './0037-event-stream.js';
import * as analytics from './0038-analytics.js';
import * as gear from './0039-gear.js';
import * as groups from './0040-groups.js';
import * as groupPosts from './0041-group-posts.js';
import * as cloud from './0042-cloud.js';
import * as education from './0043-education.js';

/** Every migration, in order. The same set runs on PGlite and PostgreSQL. */
export const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-social': social,
  '0003-tracks': tracks,
  '0004-events': events,
  '0005-event-subjects': eventSubjects,
  '0006-media': media,
  '0007-track-social': trackSocial,
  '0008-comments': comments,
  '0009-queue': queue,
  '0010-playlists': playlists,
  '0011-marketplace': marketplace,
  '0012-invoice-parties': invoiceParties,
  '0013-product-list-indexes': productListIndexes,
  '0014-api-keys': apiKeys,
  '0015-search': search,
  '0016-webhooks': webhooks,
  '0017-product-counts': productCounts,
  '0018-webhook-attempt-lease': webhookAttemptLease,
  '0019-play-address-windows': playAddressWindows,
  '0020-refresh-successor': refreshSuccessor,
  '0021-notifications': notifications,
  '0022-trust-and-safety': trustAndSafety,
  '0024-sanctions': sanctions,
  '0025-copyright': copyright,
  '0026-appeals': appeals,
  '0027-trust-webhooks': trustWebhooks,
  '0028-trust-indexes': trustIndexes,
  '0029-product-counts-by-moderation': productCountsByModeration,
  '0030-announcement-batches': announcementBatches,
  '0031-app-passwords': appPasswords,
  '0032-track-albums': trackAlbums,
  '0033-subsonic-queue-clients': subsonicQueueClients,
  '0034-subsonic-annotations': subsonicAnnotations,
  '0035-track-shuffle': trackShuffle,
  '0036-daily-salts': dailySalts,
  '0037-event-stream': eventStream,
  '0038-analytics': analytics,
  '0039-gear': gear,
  '0040-groups': groups,
  '0041-group-posts': groupPosts,
  '0042-cloud': cloud,
  '0043-education': education,
};
