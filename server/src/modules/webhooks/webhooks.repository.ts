import type { DeliveryStatus, WebhookEventType } from '@riff/contract';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { WebhookDeliveriesTable, WebhooksTable } from './webhooks.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** All SQL of webhooks and their deliveries (and the few reads of other tables that say whom an event concerns). */
export class WebhooksRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  async countOfUser(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  insert(values: Insertable<WebhooksTable>): Promise<WebhookRow> {
    return this.db.insertInto('webhooks').values(values).returningAll().executeTakeFirstOrThrow();
  }

  listByUser(userId: string): Promise<WebhookRow[]> {
    return this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  find(id: string): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByKeyHash(hash: string): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('api_key_hash', '=', hash).executeTakeFirst();
  }

  update(id: string, changes: Updateable<WebhooksTable>): Promise<WebhookRow | undefined> {
    return this.db
      .updateTable('webhooks')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('webhooks').where('id', '=', id).execute();
  }

  async deleteByUser(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('webhooks').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The user's active webhooks that asked for this event type. */
  subscribed(userId: string, type: WebhookEventType): Promise<WebhookRow[]> {
    return this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('user_id', '=', userId)
      .where('is_active', '=', true)
      .where(sql<boolean>`events && array[${type}, '*']::text[]`)
      .execute();
  }

  /** A success resets the run of failures. */
  async recordSuccess(id: string, at: Date): Promise<void> {
    await this.db
      .updateTable('webhooks')
      .set({ consecutive_failures: 0, last_delivery_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** One more failure in a row: the new count, and whether this one disabled it (only the one that crossed the limit does). */
  async recordFailure(
    id: string,
    at: Date,
    limit: number,
    reason: string,
  ): Promise<{ failures: number; disabled: boolean } | undefined> {
    const row = await this.db
      .updateTable('webhooks')
      .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1), last_delivery_at: at }))
      .where('id', '=', id)
      .returning(['consecutive_failures', 'is_active'])
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.consecutive_failures < limit || !row.is_active)
      return { failures: row.consecutive_failures, disabled: false };
    const disabled = await this.db
      .updateTable('webhooks')
      .set({ is_active: false, disabled_reason: reason, updated_at: at })
      .where('id', '=', id)
      .where('is_active', '=', true)
      .executeTakeFirst();
    return { failures: row.consecutive_failures, disabled: Number(disabled.numUpdatedRows) === 1 };
  }

  // deliveries

  /** A new message for the webhook; undefined when this message exists already (the event was handled before). */
  insertDelivery(values: Insertable<WebhookDeliveriesTable>): Promise<DeliveryRow | undefined> {
    return this.db
      .insertInto('webhook_deliveries')
      .values(values)
      .onConflict((oc) => oc.columns(['webhook_id', 'message_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  findDelivery(webhookId: string, id: string): Promise<DeliveryRow | undefined> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The delivery and its webhook, the delivery locked for this attempt. */
  async lockDelivery(id: string): Promise<{ delivery: DeliveryRow; webhook: WebhookRow } | undefined> {
    const delivery = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!delivery) return undefined;
    const webhook = await this.find(delivery.webhook_id);
    return webhook ? { delivery, webhook } : undefined;
  }

  updateDelivery(id: string, changes: Updateable<WebhookDeliveriesTable>): Promise<DeliveryRow | undefined> {
    return this.db
      .updateTable('webhook_deliveries')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async listDeliveries(
    webhookId: string,
    filter: { status?: DeliveryStatus | undefined; event?: WebhookEventType | undefined },
    page: { limit: number; offset: number },
  ): Promise<{ rows: DeliveryRow[]; total: number }> {
    let query = this.db.selectFrom('webhook_deliveries').where('webhook_id', '=', webhookId);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.event) query = query.where('event_type', '=', filter.event);
    const [rows, counted] = await Promise.all([
      query
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(counted.n) };
  }

  /**
   * Pending deliveries due before `dueBefore` with no attempt under way at `now`, oldest first, marked
   * due now as they are taken: the next run takes others while these wait for their jobs.
   */
  async takeStalledDeliveries(
    dueBefore: Date,
    now: Date,
    limit: number,
  ): Promise<Pick<DeliveryRow, 'id' | 'attempts'>[]> {
    const stalled = this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<', dueBefore)
      .where((eb) => eb.or([eb('attempting_until', 'is', null), eb('attempting_until', '<', now)]))
      .orderBy('next_attempt_at')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    return this.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: now })
      .where('id', 'in', stalled)
      .returning(['id', 'attempts'])
      .execute();
  }

  async deleteDeliveriesBefore(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('webhook_deliveries').where('created_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async stats(userId: string, since: Date, dayAgo: Date) {
    const [webhooks, deliveries, byEvent] = await Promise.all([
      this.db
        .selectFrom('webhooks')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          eb.fn.sum<number>(sql`case when is_active then 1 else 0 end`).as('active'),
        ])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
      sql<{
        total: number;
        succeeded: number;
        failed: number;
        pending: number;
        avg_ms: number | null;
        day_succeeded: number;
        day_failed: number;
      }>`
        select count(*) as total,
               count(*) filter (where d.status = 'succeeded') as succeeded,
               count(*) filter (where d.status = 'failed') as failed,
               count(*) filter (where d.status = 'pending') as pending,
               avg(d.duration_ms) as avg_ms,
               count(*) filter (where d.status = 'succeeded' and d.created_at >= ${dayAgo}) as day_succeeded,
               count(*) filter (where d.status = 'failed' and d.created_at >= ${dayAgo}) as day_failed
          from webhook_deliveries d join webhooks w on w.id = d.webhook_id
         where w.user_id = ${userId} and d.created_at >= ${since}`.execute(this.db),
      sql<{ event_type: string; n: number }>`
        select d.event_type, count(*) as n from webhook_deliveries d join webhooks w on w.id = d.webhook_id
         where w.user_id = ${userId} and d.created_at >= ${since} group by d.event_type order by d.event_type`.execute(
        this.db,
      ),
    ]);
    return { webhooks, deliveries: deliveries.rows[0]!, byEvent: byEvent.rows };
  }

  // whom an event concerns (reads of other areas' tables, deleted rows included)

  async trackOwner(trackId: string): Promise<string | undefined> {
    return (await this.db.selectFrom('tracks').select('creator_id').where('id', '=', trackId).executeTakeFirst())
      ?.creator_id;
  }

  async playlistOwner(playlistId: string): Promise<string | undefined> {
    return (await this.db.selectFrom('playlists').select('user_id').where('id', '=', playlistId).executeTakeFirst())
      ?.user_id;
  }

  async orderBuyer(orderId: string): Promise<string | undefined> {
    return (
      (await this.db.selectFrom('orders').select('buyer_id').where('id', '=', orderId).executeTakeFirst())?.buyer_id ??
      undefined
    );
  }

  async productSeller(productId: string): Promise<string | undefined> {
    return (await this.db.selectFrom('products').select('seller_id').where('id', '=', productId).executeTakeFirst())
      ?.seller_id;
  }
}
