import { sql, type Kysely } from 'kysely';
import { constrainWebhookEvents, withdrawWebhookEvents } from './support/webhook-event-checks.js';
import { WEBHOOK_EVENTS_0040 } from './0040-groups.js';

/**
 * The posts of a group: top-level posts and one level of replies, pins,
 * references to a track and a playlist, and the moderation state every moderated item carries. A
 * group's list reads the partial index below in its order (pinned first, latest pinned first, then
 * newest), and the number of top-level posts is the group's post_count (kept with each post through
 * the groups area's counters), so a page of a group with a million posts costs what one of a hundred
 * does. group.post_created (to the group's owner) joins the webhook events (the CHECKs spell
 * WEBHOOK_EVENT_TYPES).
 */
const WEBHOOKS_BEFORE = WEBHOOK_EVENTS_0040;
const WEBHOOKS_ADDED = ['group.post_created'];
/** The webhook events as this migration leaves them: the next migration that widens them starts here. */
export const WEBHOOK_EVENTS_0041 = [...WEBHOOKS_BEFORE, ...WEBHOOKS_ADDED];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('group_posts')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('group_id', 'uuid', (col) => col.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('author_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('parent_id', 'uuid', (col) => col.references('group_posts.id').onDelete('cascade'))
    .addColumn('content', 'text', (col) => col.notNull())
    // a reference outlives neither its track nor its playlist
    .addColumn('track_id', 'uuid', (col) => col.references('tracks.id').onDelete('set null'))
    .addColumn('playlist_id', 'uuid', (col) => col.references('playlists.id').onDelete('set null'))
    .addColumn('is_pinned', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('pinned_at', 'timestamptz')
    .addColumn('reply_count', 'integer', (col) => col.notNull().defaultTo(0).check(sql`reply_count >= 0`))
    .addColumn('is_edited', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('moderation_status', 'text', (col) =>
      col.notNull().defaultTo('visible').check(sql`moderation_status in ('visible', 'hidden', 'removed')`),
    )
    .addColumn('moderation_reason', 'text')
    .addColumn('moderated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'group_posts_pin',
      sql`is_pinned = (pinned_at is not null) and (not is_pinned or parent_id is null)`,
    )
    .execute();
  // a group's top-level posts in the list's order; the author rides along so that leaving out the
  // reader's blocked users still reads the index only
  await sql`create index group_posts_group_order on group_posts (group_id, is_pinned desc, pinned_at desc, created_at desc, id desc) include (author_id, moderation_status) where parent_id is null`.execute(
    db,
  );
  await sql`create index group_posts_parent_created on group_posts (parent_id, created_at, id) include (author_id) where parent_id is not null`.execute(
    db,
  );
  // a member's posts in a group (export, erasure, and a reader's blocked authors left out of a count)
  await db.schema.createIndex('group_posts_author').on('group_posts').columns(['author_id', 'group_id']).execute();
  // the few posts moderation withholds, left out of a count for readers other than staff
  await sql`create index group_posts_moderated on group_posts (group_id, author_id) include (parent_id) where moderation_status <> 'visible'`.execute(
    db,
  );
  await sql`create index group_posts_moderated_replies on group_posts (parent_id, author_id) where moderation_status <> 'visible' and parent_id is not null`.execute(
    db,
  );

  // the member list of a large group (the groups area's) is read in its order and stopped at the page:
  // by role (owner first), then joined date; and its counts read only the few rows above member
  await sql`create index group_members_order on group_members (group_id, (case role when 'owner' then 0 when 'admin' then 1 when 'moderator' then 2 else 3 end), joined_at, user_id)`.execute(
    db,
  );
  await sql`create index group_members_ranked on group_members (group_id, role) where role <> 'member'`.execute(db);
  // the few accounts others may not deal with, so a count of many users leaves them out cheaply
  // (the users area's inactiveUserSql: the predicate is its, word for word)
  await sql`create index users_inactive on users (id) where not (deleted_at is null and is_active and not is_banned and is_verified)`.execute(
    db,
  );

  await constrainWebhookEvents(db, WEBHOOK_EVENTS_0041);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['users_inactive', 'group_members_ranked', 'group_members_order'])
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
  await withdrawWebhookEvents(db, WEBHOOKS_ADDED, WEBHOOKS_BEFORE);
  await db.schema.dropTable('group_posts').ifExists().execute();
}
