import type { Insertable, Selectable, Updateable } from 'kysely';
import type { AccountsTables, UsersTable } from './tables/accounts.tables.js';
import type { AuditTables } from './tables/audit.tables.js';
import type { CommentsTables } from './tables/comments.tables.js';
import type { DeveloperTables } from './tables/developer.tables.js';
import type { MarketplaceTables } from './tables/marketplace.tables.js';
import type { MediaTables } from './tables/media.tables.js';
import type { PlatformTables } from './tables/platform.tables.js';
import type { QueueTables } from './tables/queue.tables.js';
import type { SocialTables } from './tables/social.tables.js';
import type { TrackSocialTables } from './tables/track-social.tables.js';
import type { TracksTable, TracksTables } from './tables/tracks.tables.js';
import type { WebhooksTables } from './tables/webhooks.tables.js';

// Each area's tables live in tables/<area>.tables.ts; enum columns take their values from the
// contract's tuples (the migrations' CHECK constraints list the same values, tested).
export type * from './tables/accounts.tables.js';
export type * from './tables/audit.tables.js';
export type * from './tables/comments.tables.js';
export type * from './tables/developer.tables.js';
export type * from './tables/marketplace.tables.js';
export type * from './tables/media.tables.js';
export type * from './tables/platform.tables.js';
export type * from './tables/queue.tables.js';
export type * from './tables/social.tables.js';
export type * from './tables/track-social.tables.js';
export type * from './tables/tracks.tables.js';
export type * from './tables/webhooks.tables.js';
export type { TrackFormat, TrackStatus } from '@riff/contract';

/** The whole database as Kysely sees it: every area's tables. */
export type Database = AccountsTables &
  SocialTables &
  AuditTables &
  TracksTables &
  MediaTables &
  PlatformTables &
  CommentsTables &
  QueueTables &
  TrackSocialTables &
  MarketplaceTables &
  DeveloperTables &
  WebhooksTables;

export type TrackRow = Selectable<TracksTable>;

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
