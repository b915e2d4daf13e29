/**
 * Rows put into a state no service makes, or makes only at great length: a counter at a figure, a
 * flag only an editor's tool would set, a row as an older rule or a crashed worker left it. Each
 * helper writes only what it names, and says why no service can make that state.
 */
import { sql } from 'kysely';
import type { TestServer } from './test-server.js';

const db = (server: TestServer) => server.riff.database.db;

/** The track's play count set to `playCount`: counting that many through the play route takes that many listeners. */
export async function setPlayCount(server: TestServer, trackId: string, playCount: number): Promise<void> {
  await db(server).updateTable('tracks').set({ play_count: playCount }).where('id', '=', trackId).execute();
}

/** A seeded track (seed-rows.ts) marked deleted now: a row with no upload behind it skips the delete route's event and cleanup. */
export async function markSeededTrackDeleted(server: TestServer, trackId: string): Promise<void> {
  await sql`update tracks set deleted_at = now() where id = ${trackId}`.execute(server.riff.platform.scope.db);
}

/** The playlist's follower count and editorial flag, when given: the count takes as many follows, the flag has no route. */
export async function setPlaylistFigures(
  server: TestServer,
  playlistId: string,
  figures: { follower_count?: number; is_editorial?: boolean },
): Promise<void> {
  await sql`update playlists set follower_count = coalesce(${figures.follower_count ?? null}, follower_count),
                                 is_editorial = coalesce(${figures.is_editorial ?? null}, is_editorial)
            where id = ${playlistId}`.execute(server.riff.platform.scope.db);
}

/** The account's role back to user, as an admin's direct change would leave it: no route demotes a creator. */
export async function demoteToUser(server: TestServer, userId: string): Promise<void> {
  await db(server).updateTable('users').set({ role: 'user' }).where('id', '=', userId).execute();
}

/** The account made a moderator, as the admin area's role change makes one: that route is not on every branch. */
export async function makeModerator(server: TestServer, userId: string): Promise<void> {
  await db(server).updateTable('users').set({ role: 'moderator' }).where('id', '=', userId).execute();
}

/** The product's deliverable set to the object at `key`: the upload route takes only real zip or audio, not test bytes. */
export async function attachProductFile(
  server: TestServer,
  productId: string,
  key: string,
  file: { bytes: Buffer; name: string; contentType: string },
): Promise<void> {
  await db(server)
    .updateTable('products')
    .set({ file_key: key, file_name: file.name, file_size: file.bytes.length, file_content_type: file.contentType })
    .where('id', '=', productId)
    .execute();
}

/** The invoice counters of `years` removed (numbering starts afresh on a kept database): no service forgets a count. */
export async function forgetInvoiceYears(server: TestServer, years: readonly number[]): Promise<void> {
  await sql`delete from invoice_counters where year in (${sql.join(years)})`.execute(server.riff.platform.scope.db);
}

/** An audit entry of a stream made ready for the user's track, under the user: only a finished transcode writes one. */
export async function auditStreamReady(server: TestServer, userId: string, trackId: string): Promise<void> {
  await sql`insert into audit_logs (user_id, action, resource, resource_id, metadata) values (${userId}, 'track.processed', 'track', ${trackId}, '{"stream_status":"ready"}')`.execute(
    db(server),
  );
}

/** The webhook's count of failed deliveries in a row set to `failures`: only that many failed deliveries make it. */
export async function setWebhookFailures(server: TestServer, webhookId: string, failures: number): Promise<void> {
  await db(server)
    .updateTable('webhooks')
    .set({ consecutive_failures: failures })
    .where('id', '=', webhookId)
    .execute();
}

/** The webhook's stored URL set to `url`, as if registered under an older rule: the API refuses such a URL now. */
export async function storeWebhookUrl(server: TestServer, webhookId: string, url: string): Promise<void> {
  await sql`update webhooks set url = ${url} where id = ${webhookId}`.execute(db(server));
}

/** The webhook's sealed secret replaced by one that does not open (a fault of ours): no service writes one. */
export async function breakWebhookSecret(server: TestServer, webhookId: string): Promise<void> {
  await db(server)
    .updateTable('webhooks')
    .set({ secret_sealed: 'bm90IGEgc2VhbGVkIHNlY3JldA==' })
    .where('id', '=', webhookId)
    .execute();
}

/** The delivery as a worker killed mid-send leaves it (pending, 0 attempts, due and leased as given): nothing else does. */
export async function strandWebhookDelivery(
  server: TestServer,
  deliveryId: string,
  times: { dueMinutesAgo: number; leaseEndsMinutesAgo: number },
): Promise<void> {
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  await db(server)
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      attempts: 0,
      next_attempt_at: minutesAgo(times.dueMinutesAgo),
      attempting_until: minutesAgo(times.leaseEndsMinutesAgo),
    })
    .where('id', '=', deliveryId)
    .execute();
}

/** The lease of the delivery's attempt under way lapsed a second ago: a held send gets there only by waiting. */
export async function lapseDeliveryLease(server: TestServer, deliveryId: string): Promise<void> {
  await db(server)
    .updateTable('webhook_deliveries')
    .set({ attempting_until: new Date(Date.now() - 1000) })
    .where('id', '=', deliveryId)
    .execute();
}
