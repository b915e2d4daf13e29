import type { GearCategory } from '@riff/contract';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import type { GearItemsTable, GearPhotoRow, GearRow } from './gear.tables.js';

/** An item's fields as a request sets them (the model key is derived here, in SQL). */
export type GearFields = Omit<Insertable<GearItemsTable>, 'id' | 'model_key' | 'created_at' | 'updated_at'>;

const modelKey = (brand: string, model: string) => sql<string>`gear_model_key(${brand}, ${model})`;

/** The SQL of items, their photos and the tracks that name them. */
export class GearRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  insert(fields: GearFields): Promise<GearRow> {
    return this.db
      .insertInto('gear_items')
      .values({ ...fields, model_key: modelKey(fields.brand, fields.model) })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** `brand` and `model` are the item's after the change (its model key follows them). */
  update(id: string, fields: Updateable<GearItemsTable>, names: { brand: string; model: string }): Promise<GearRow> {
    return this.db
      .updateTable('gear_items')
      .set({ ...fields, model_key: modelKey(names.brand, names.model), updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Touches updated_at (a photo added or removed). */
  async touch(id: string): Promise<void> {
    await this.db.updateTable('gear_items').set({ updated_at: new Date() }).where('id', '=', id).execute();
  }

  find(id: string): Promise<GearRow | undefined> {
    return this.db.selectFrom('gear_items').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Locks the item until the transaction ends (photos counted under a limit, a delete racing a link). */
  lock(id: string): Promise<GearRow | undefined> {
    return this.db.selectFrom('gear_items').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('gear_items').where('id', '=', id).execute();
  }

  async countOf(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('gear_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A page of one user's items, newest first; `publicOnly` for others. */
  async listOf(
    userId: string,
    options: { publicOnly: boolean; category?: GearCategory | undefined },
    page: { limit: number; offset: number },
  ): Promise<{ rows: GearRow[]; total: number }> {
    let query = this.db.selectFrom('gear_items').where('user_id', '=', userId);
    if (options.publicOnly) query = query.where('is_public', '=', true);
    if (options.category) query = query.where('category', '=', options.category);
    const rows = await query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(counted.n) };
  }

  /** Every item of a user, newest first (the export and erasure). */
  allOf(userId: string): Promise<GearRow[]> {
    return this.db
      .selectFrom('gear_items')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  findMany(ids: readonly string[]): Promise<GearRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('gear_items')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute();
  }

  // photos

  async photosOf(gearIds: readonly string[]): Promise<Map<string, GearPhotoRow[]>> {
    const byItem = new Map<string, GearPhotoRow[]>(gearIds.map((id) => [id, []]));
    if (gearIds.length === 0) return byItem;
    const rows = await this.db
      .selectFrom('gear_photos')
      .selectAll()
      .where('gear_id', 'in', [...gearIds])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const row of rows) byItem.get(row.gear_id)?.push(row);
    return byItem;
  }

  insertPhoto(row: { id: string; gear_id: string; large_key: string; small_key: string; content_type: string }) {
    return this.db.insertInto('gear_photos').values(row).returningAll().executeTakeFirstOrThrow();
  }

  findPhoto(gearId: string, photoId: string): Promise<GearPhotoRow | undefined> {
    return this.db
      .selectFrom('gear_photos')
      .selectAll()
      .where('id', '=', photoId)
      .where('gear_id', '=', gearId)
      .executeTakeFirst();
  }

  async deletePhoto(photoId: string): Promise<void> {
    await this.db.deleteFrom('gear_photos').where('id', '=', photoId).execute();
  }

  // tracks

  /** How many tracks name each item. */
  async trackCounts(gearIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>(gearIds.map((id) => [id, 0]));
    if (gearIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('track_gear')
      .select(['gear_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('gear_id', 'in', [...gearIds])
      .groupBy('gear_id')
      .execute();
    for (const row of rows) counts.set(row.gear_id, Number(row.n));
    return counts;
  }

  async gearIdsOfTrack(trackId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('track_gear')
      .select('gear_id')
      .where('track_id', '=', trackId)
      .orderBy('created_at')
      .orderBy('gear_id')
      .execute();
    return rows.map((row) => row.gear_id);
  }

  /** Replaces the track's items with these. */
  async setTrackGear(trackId: string, gearIds: readonly string[]): Promise<void> {
    await this.db.deleteFrom('track_gear').where('track_id', '=', trackId).execute();
    if (gearIds.length === 0) return;
    await this.db
      .insertInto('track_gear')
      .values(gearIds.map((gear_id) => ({ track_id: trackId, gear_id })))
      .execute();
  }

  /** A deleted track names nothing any more. */
  async unlinkTrack(trackId: string): Promise<void> {
    await this.db.deleteFrom('track_gear').where('track_id', '=', trackId).execute();
  }
}
