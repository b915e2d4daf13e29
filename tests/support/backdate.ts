/**
 * Rows made to look older than they are. Services date what they write as of now and refuse dates
 * in the past, so a test of what happens once time has passed (a link expired, a window closed, a
 * job's cut-off reached) moves a date back in the row instead of waiting. Every helper here writes
 * only the date it names.
 */
import { sql } from 'kysely';
import type { TestServer } from './test-server.js';

const db = (server: TestServer) => server.riff.database.db;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const secondAgo = () => new Date(Date.now() - 1000);

/** The emailed token (by its row id) expired a second ago: tokens live 24 h and no service shortens that. */
export async function expireEmailToken(server: TestServer, tokenId: string): Promise<void> {
  await db(server).updateTable('email_tokens').set({ expires_at: secondAgo() }).where('id', '=', tokenId).execute();
}

/** The user's password reset tokens expired a second ago: they live an hour and no service shortens that. */
export async function expirePasswordResetTokens(server: TestServer, userId: string): Promise<void> {
  await db(server)
    .updateTable('email_tokens')
    .set({ expires_at: secondAgo() })
    .where('user_id', '=', userId)
    .where('purpose', '=', 'password_reset')
    .execute();
}

/** The order's refund window closed a second ago: completing the order sets it ahead and no service moves it. */
export async function closeRefundWindow(server: TestServer, orderId: string): Promise<void> {
  await db(server).updateTable('orders').set({ refund_deadline: secondAgo() }).where('id', '=', orderId).execute();
}

/** The order completed `daysAgo` days ago: payment settles an order as of now. */
export async function backdateOrderCompletion(server: TestServer, orderId: string, daysAgo: number): Promise<void> {
  await db(server)
    .updateTable('orders')
    .set({ completed_at: new Date(Date.now() - daysAgo * DAY_MS) })
    .where('id', '=', orderId)
    .execute();
}

/** The pending order's payment window ended a second ago: checkout sets it ahead and no service moves it. */
export async function lapsePaymentWindow(server: TestServer, orderId: string): Promise<void> {
  await db(server).updateTable('orders').set({ payment_expires_at: secondAgo() }).where('id', '=', orderId).execute();
}

/** The promo code's expiry moved to `expiresAt`, in the past: the API refuses an expiry in the past. */
export async function backdatePromoCodeExpiry(server: TestServer, promoCodeId: string, expiresAt: Date): Promise<void> {
  await db(server).updateTable('promo_codes').set({ expires_at: expiresAt }).where('id', '=', promoCodeId).execute();
}

/** The upload session was last touched `hoursAgo` hours ago: every chunk sent touches it as of now. */
export async function idleUploadSession(server: TestServer, uploadId: string, hoursAgo: number): Promise<void> {
  await db(server)
    .updateTable('upload_sessions')
    .set({ updated_at: new Date(Date.now() - hoursAgo * HOUR_MS) })
    .where('id', '=', uploadId)
    .execute();
}

/** A storage intent for `key` from `hoursAgo` hours ago, as a crashed upload leaves it: uploads record them as of now. */
export async function strandedStorageIntent(server: TestServer, key: string, hoursAgo: number): Promise<void> {
  await db(server)
    .insertInto('storage_intents')
    .values({ key, created_at: new Date(Date.now() - hoursAgo * HOUR_MS) })
    .execute();
}

/** The user followed the playlist `daysAgo` days ago: following records it as of now. */
export async function backdatePlaylistFollow(
  server: TestServer,
  playlistId: string,
  userId: string,
  daysAgo: number,
): Promise<void> {
  await sql`update playlist_followers set created_at = now() - ${`${daysAgo} days`}::interval where playlist_id = ${playlistId} and user_id = ${userId}`.execute(
    server.riff.platform.scope.db,
  );
}

/** The playlist's share link expired a second ago: sharing takes a lifetime of whole days. */
export async function expireShareLink(server: TestServer, playlistId: string): Promise<void> {
  await sql`update playlists set share_expires_at = now() - interval '1 second' where id = ${playlistId}`.execute(
    server.riff.platform.scope.db,
  );
}

/** The track's reposts were made `daysAgo` days ago: reposting records them as of now. */
export async function backdateReposts(server: TestServer, trackId: string, daysAgo: number): Promise<void> {
  await sql`update track_reposts set created_at = now() - ${`${daysAgo} days`}::interval where track_id = ${trackId}`.execute(
    db(server),
  );
}

/** `count` 30-second plays of the track by the user, `daysAgo` days ago: the play route records plays as of now. */
export async function pastPlays(
  server: TestServer,
  userId: string,
  trackId: string,
  daysAgo: number,
  count: number,
): Promise<void> {
  const playedAt = new Date(Date.now() - daysAgo * DAY_MS);
  for (let i = 0; i < count; i += 1) {
    await sql`insert into listening_history (user_id, track_id, source, duration_listened, played_at) values (${userId}, ${trackId}, 'track', 30, ${playedAt})`.execute(
      db(server),
    );
  }
}

/** The webhook delivery was logged `daysAgo` days ago: deliveries are logged as of now. */
export async function backdateWebhookDelivery(server: TestServer, deliveryId: string, daysAgo: number): Promise<void> {
  await sql`update webhook_deliveries set created_at = now() - ${`${daysAgo} days`}::interval where id = ${deliveryId}`.execute(
    db(server),
  );
}

/** The webhook's previous secret stopped signing a second ago: a rotation keeps it 24 h and nothing shortens that. */
export async function expirePreviousWebhookSecret(server: TestServer, webhookId: string): Promise<void> {
  await sql`update webhooks set previous_secret_expires_at = now() - interval '1 second' where id = ${webhookId}`.execute(
    db(server),
  );
}

/** The account's running suspension ended a second ago: a suspension must end in the future and no service moves it back. */
export async function lapseSuspension(server: TestServer, userId: string): Promise<void> {
  const ended = secondAgo();
  await db(server).updateTable('users').set({ suspended_until: ended }).where('id', '=', userId).execute();
  await db(server)
    .updateTable('sanctions')
    .set({ ends_at: ended })
    .where('user_id', '=', userId)
    .where('kind', '=', 'suspend')
    .where('lifted_at', 'is', null)
    .execute();
}

/** The copyright claim was filed 14 days and a second ago: its counter-notice window closed; a claim is dated as of now. */
export async function lapseCounterWindow(server: TestServer, claimId: string): Promise<void> {
  await sql`update copyright_claims set created_at = now() - interval '14 days 1 second',
    counter_deadline = now() - interval '1 second' where id = ${claimId}`.execute(db(server));
}

/** The account's strikes were given 12 months and a second ago, so they expired: a strike is dated as of now. */
export async function expireStrikes(server: TestServer, userId: string): Promise<void> {
  await sql`update strikes set created_at = now() - interval '12 months 1 second',
    expires_at = now() - interval '1 second' where user_id = ${userId}`.execute(db(server));
}

/** The track was hidden or removed by moderation `daysAgo` days ago: moderation dates its decisions as of now. */
export async function backdateModeration(server: TestServer, trackId: string, daysAgo: number): Promise<void> {
  await db(server)
    .updateTable('tracks')
    .set({ moderated_at: new Date(Date.now() - daysAgo * DAY_MS) })
    .where('id', '=', trackId)
    .execute();
}

/** The cloud trash item (a file or folder and what went with it) was deleted `daysAgo` days ago: the trash dates deletions as of now. */
export async function backdateCloudTrash(server: TestServer, itemId: string, daysAgo: number): Promise<void> {
  const deletedAt = new Date(Date.now() - daysAgo * DAY_MS);
  await db(server)
    .updateTable('cloud_folders')
    .set({ deleted_at: deletedAt })
    .where('trashed_by', '=', itemId)
    .execute();
  await db(server).updateTable('cloud_files').set({ deleted_at: deletedAt }).where('trashed_by', '=', itemId).execute();
}
