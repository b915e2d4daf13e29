import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  API_KEY_SCOPES,
  COPYRIGHT_CLAIM_STATUSES,
  APPEAL_STATUSES,
  APPEAL_SUBJECT_TYPES,
  MODERATED_CONTENT_TYPES,
  DELIVERY_STATUSES,
  GENDERS,
  GROUP_INVITE_STATUSES,
  GROUP_JOIN_POLICIES,
  GROUP_ROLES,
  GROUP_VISIBILITIES,
  WEBHOOK_EVENT_TYPES,
  LICENSE_TYPES,
  ORDER_STATUSES,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  PRODUCT_CATEGORIES,
  PRODUCT_LICENSE_TYPES,
  PRODUCT_STATUSES,
  PRODUCT_TYPES,
  MEDIA_JOB_STATES,
  MEDIA_TRANSCODERS,
  NOTIFICATION_SUBJECT_TYPES,
  NOTIFICATION_TYPES,
  PLAY_SOURCES,
  PLAYLIST_PERMISSIONS,
  QUEUE_REPEAT_MODES,
  SANCTION_KINDS,
  SHARE_PLATFORMS,
  STREAM_STATUSES,
  SUBSONIC_RATED_ITEM_TYPES,
  GEAR_CATEGORIES,
  COURSE_LEVELS,
  COURSE_STATUSES,
  LESSON_KINDS,
  TRACK_FORMATS,
  TRACK_STATUSES,
  USER_ROLES,
} from '@riff/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { seedDataDir } from '../support/test-database.js';

// The contract declares each enum once; the migrations (history, never edited) spell the same values in CHECK
// constraints. A value added to the contract without a migration would be accepted by the API and refused by the database.
const ENUM_COLUMNS: [table: string, column: string, values: readonly string[]][] = [
  ['users', 'gender', GENDERS],
  ['copyright_claims', 'status', COPYRIGHT_CLAIM_STATUSES],
  ['users', 'role', USER_ROLES],
  ['tracks', 'format', TRACK_FORMATS],
  ['tracks', 'status', TRACK_STATUSES],
  ['tracks', 'stream_status', STREAM_STATUSES],
  ['track_versions', 'format', TRACK_FORMATS],
  ['track_media', 'transcoder', MEDIA_TRANSCODERS],
  ['track_media', 'hls_state', MEDIA_JOB_STATES],
  ['track_media', 'waveform_state', MEDIA_JOB_STATES],
  ['track_shares', 'platform', SHARE_PLATFORMS],
  ['track_plays', 'source', PLAY_SOURCES],
  ['listening_history', 'source', PLAY_SOURCES],
  ['queues', 'repeat', QUEUE_REPEAT_MODES],
  ['playlist_collaborators', 'permission', PLAYLIST_PERMISSIONS],
  ['products', 'product_type', PRODUCT_TYPES],
  ['products', 'category', PRODUCT_CATEGORIES],
  ['products', 'license_type', LICENSE_TYPES],
  ['products', 'status', PRODUCT_STATUSES],
  ['product_licenses', 'license_type', PRODUCT_LICENSE_TYPES],
  ['orders', 'status', ORDER_STATUSES],
  ['orders', 'payment_status', PAYMENT_STATUSES],
  ['orders', 'payment_provider', PAYMENT_PROVIDERS],
  ['order_items', 'license_type', PRODUCT_LICENSE_TYPES],
  ['license_grants', 'license_type', PRODUCT_LICENSE_TYPES],
  ['payment_events', 'provider', PAYMENT_PROVIDERS],
  ['api_keys', 'scopes', API_KEY_SCOPES],
  ['webhooks', 'events', ['*', ...WEBHOOK_EVENT_TYPES]],
  ['gear_items', 'category', GEAR_CATEGORIES],
  ['gear_models', 'category', GEAR_CATEGORIES],
  ['webhook_deliveries', 'event_type', WEBHOOK_EVENT_TYPES],
  ['webhook_deliveries', 'status', DELIVERY_STATUSES],
  ['notifications', 'type', NOTIFICATION_TYPES],
  ['notifications', 'subject_type', NOTIFICATION_SUBJECT_TYPES],
  ['sanctions', 'kind', SANCTION_KINDS],
  ['appeals', 'subject_type', APPEAL_SUBJECT_TYPES],
  ['appeals', 'target_type', MODERATED_CONTENT_TYPES],
  ['appeals', 'status', APPEAL_STATUSES],
  ['subsonic_ratings', 'item_type', SUBSONIC_RATED_ITEM_TYPES],
  ['groups', 'visibility', GROUP_VISIBILITIES],
  ['groups', 'join_policy', GROUP_JOIN_POLICIES],
  ['group_members', 'role', GROUP_ROLES],
  ['group_invites', 'status', GROUP_INVITE_STATUSES],
  ['courses', 'level', COURSE_LEVELS],
  ['courses', 'status', COURSE_STATUSES],
  ['course_lessons', 'kind', LESSON_KINDS],
];

let database: DatabaseHandle;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'riff-enums-'));
  await seedDataDir(dataDir);
  database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  await migrateToLatest(database.db);
});

afterAll(async () => {
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function checkedValues(table: string, column: string): Promise<string[]> {
  const { rows } = await sql<{ def: string }>`
    select pg_get_constraintdef(c.oid) as def
    from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_namespace n on n.oid = t.relnamespace
    where c.contype = 'c' and t.relname = ${table} and n.nspname = current_schema()
  `.execute(database.db);
  const mentions = new RegExp(`(^|[^a-z_])${column}([^a-z_]|$)`);
  const checks = rows.map((row) => row.def).filter((def) => mentions.test(def));
  expect(checks, `one CHECK constraint on ${table}.${column}`).toHaveLength(1);
  return [...checks[0]!.matchAll(/'((?:[^']|'')*)'/g)].map((match) => match[1]!.replaceAll("''", "'"));
}

describe('enum columns', () => {
  it.each(ENUM_COLUMNS)('%s.%s accepts exactly the values the contract declares', async (table, column, values) => {
    expect((await checkedValues(table, column)).sort()).toEqual([...values].sort());
  });
});
