import { sql, type Kysely } from 'kysely';
import { constrainWebhookEvents, withdrawWebhookEvents } from './support/webhook-event-checks.js';
import { WEBHOOK_EVENTS_0027 } from './0027-trust-webhooks.js';

/**
 * Groups: the groups themselves (moderated, soft-deleted, with counters
 * of members and of posts: the posts' own area keeps post_count from its events), their members,
 * join requests, invites and bans. The CHECKs spell the contract's GROUP_VISIBILITIES,
 * GROUP_JOIN_POLICIES, GROUP_ROLES, GROUP_INVITE_STATUSES and MODERATION_STATUSES
 * (tests/contract/enum-constraints.test.ts). group.created and group.member_joined join the webhook
 * events (the CHECKs spell WEBHOOK_EVENT_TYPES), and a group becomes a notification's subject.
 */
const WEBHOOKS_BEFORE = WEBHOOK_EVENTS_0027;
const WEBHOOKS_ADDED = ['group.created', 'group.member_joined'];
/** The webhook events as this migration leaves them: the next migration that widens them starts here. */
export const WEBHOOK_EVENTS_0040 = [...WEBHOOKS_BEFORE, ...WEBHOOKS_ADDED];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('groups')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('visibility', 'text', (col) => col.notNull().check(sql`visibility in ('public', 'private')`))
    .addColumn('join_policy', 'text', (col) => col.notNull().check(sql`join_policy in ('open', 'request', 'invite')`))
    .addColumn('owner_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('member_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('post_count', 'integer', (col) => col.notNull().defaultTo(0))
    // the avatar's two sizes in object storage, as a user's (media's user_avatars) are
    .addColumn('avatar_large_key', 'text')
    .addColumn('avatar_small_key', 'text')
    .addColumn('avatar_content_type', 'text')
    .addColumn('moderation_status', 'text', (col) =>
      col.notNull().defaultTo('visible').check(sql`moderation_status in ('visible', 'hidden', 'removed')`),
    )
    .addColumn('moderation_reason', 'text')
    .addColumn('moderated_at', 'timestamptz')
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index groups_owner on groups (owner_id) where deleted_at is null`.execute(db);
  await sql`create index groups_public_created on groups (created_at) where deleted_at is null and visibility = 'public'`.execute(
    db,
  );

  // the search engine's document of a group (its name), as migration 0015 indexes the others'
  await sql`create index groups_search_tsv on groups using gin (to_tsvector('simple'::regconfig, riff_doc(name, null, null))) where deleted_at is null`.execute(
    db,
  );
  await sql`create index groups_search_trgm on groups using gin ((riff_doc(name, null, null)) gin_trgm_ops) where deleted_at is null`.execute(
    db,
  );

  await db.schema
    .createTable('group_members')
    .addColumn('group_id', 'uuid', (col) => col.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('owner', 'admin', 'moderator', 'member')`))
    .addColumn('joined_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema.createIndex('group_members_user').on('group_members').columns(['user_id', 'joined_at']).execute();

  await db.schema
    .createTable('group_join_requests')
    .addColumn('group_id', 'uuid', (col) => col.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('group_join_requests_pk', ['group_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('group_invites')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('group_id', 'uuid', (col) => col.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('invited_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('pending').check(sql`status in ('pending', 'accepted', 'declined')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // one pending invite per group and user
  await sql`create unique index group_invites_pending on group_invites (group_id, user_id) where status = 'pending'`.execute(
    db,
  );
  await db.schema.createIndex('group_invites_user').on('group_invites').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('group_bans')
    .addColumn('group_id', 'uuid', (col) => col.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('banned_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('group_bans_pk', ['group_id', 'user_id'])
    .execute();

  await constrainWebhookEvents(db, WEBHOOK_EVENTS_0040);
  // a notification about a group names it as its subject (NOTIFICATION_SUBJECT_TYPES)
  await sql`alter table notifications drop constraint if exists notifications_subject_type_check`.execute(db);
  await sql`alter table notifications add constraint notifications_subject_type_check
    check (subject_type in ('track', 'comment', 'user', 'playlist', 'product', 'order', 'group'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from notifications where subject_type = 'group'`.execute(db);
  await sql`alter table notifications drop constraint if exists notifications_subject_type_check`.execute(db);
  await sql`alter table notifications add constraint notifications_subject_type_check
    check (subject_type in ('track', 'comment', 'user', 'playlist', 'product', 'order'))`.execute(db);
  await withdrawWebhookEvents(db, WEBHOOKS_ADDED, WEBHOOKS_BEFORE);
  for (const table of ['group_bans', 'group_invites', 'group_join_requests', 'group_members', 'groups']) {
    await db.schema.dropTable(table).execute();
  }
}
