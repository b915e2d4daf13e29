import {
  GEAR_PER_USER_MAX,
  type CreateGearRequest,
  type Gear,
  type UpdateGearRequest,
  type UserGearQuery,
} from '@riff/contract';
import type { Updateable } from 'kysely';
import type { Logger } from 'pino';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { forbidden, limitReached, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { committing, removeFiles } from '../media/stored-files.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { GearDiscoveryRepository } from './gear-discovery.repository.js';
import type { GearReads } from './gear-reads.js';
import { canEditGear, seesAllGearOf } from './gear.policy.js';
import type { GearRepository } from './gear.repository.js';
import type { GearItemsTable, GearRow } from './gear.tables.js';

export interface GearServiceDeps {
  scope: DbScope;
  events: EventBus;
  gear: GearRepository;
  discovery: GearDiscoveryRepository;
  reads: GearReads;
  /** The users area's read port: the account lock (the per-user limit) and who may see a profile. */
  people: Pick<PeopleReader, 'lockAccount' | 'profiles' | 'blockedEitherWay'>;
  storage: ObjectStorage;
  logger: Logger;
}

const EDITABLE = ['category', 'brand', 'model', 'nickname', 'year', 'notes', 'acquired_at', 'is_public'] as const;

/** Items of gear: their owner's to make, change and delete; public ones anyone's to see. */
export class GearService {
  constructor(private readonly deps: GearServiceDeps) {}

  async create(actor: UserActor, body: CreateGearRequest): Promise<Gear> {
    const { scope, gear, events } = this.deps;
    return scope.transaction(async () => {
      // the owner's account row is held until commit, so the per-user cap holds under parallel creations
      await this.deps.people.lockAccount(actor.id);
      if ((await gear.countOf(actor.id)) >= GEAR_PER_USER_MAX) {
        throw limitReached(`A user may have at most ${GEAR_PER_USER_MAX} items of gear`);
      }
      const row = await gear.insert({
        user_id: actor.id,
        category: body.category,
        brand: body.brand,
        model: body.model,
        nickname: body.nickname || null,
        year: body.year ?? null,
        notes: body.notes || null,
        acquired_at: body.acquired_at ?? null,
        is_public: body.is_public ?? true,
      });
      if (row.is_public) await this.deps.discovery.addPublicItem(row);
      await events.record(actor, 'gear.created', {
        subject: { resource: 'gear', id: row.id },
        data: { category: row.category, is_public: row.is_public },
      });
      return this.deps.reads.dto(row);
    });
  }

  async get(actor: Actor, id: string): Promise<Gear> {
    return this.deps.reads.dto(await this.deps.reads.visible(actor, id));
  }

  /** The item for a change: 404 when the caller may not see it, 403 when they may see but not change it. */
  private async editable(actor: UserActor, id: string): Promise<GearRow> {
    const row = await this.deps.reads.visible(actor, id);
    if (!canEditGear(actor, row)) throw forbidden('Only the owner may change this item');
    return row;
  }

  async update(actor: UserActor, id: string, body: UpdateGearRequest): Promise<Gear> {
    const { scope, gear, discovery, events } = this.deps;
    return scope.transaction(async () => {
      const before = await this.editable(actor, id);
      await this.deps.people.lockAccount(before.user_id);
      const changes: Updateable<GearItemsTable> = {};
      const fields: string[] = [];
      for (const field of EDITABLE) {
        const value = body[field];
        if (value === undefined) continue;
        // an empty nickname or notes is none
        const next = (field === 'nickname' || field === 'notes') && value === '' ? null : value;
        if (next === before[field]) continue;
        (changes as Record<string, unknown>)[field] = next;
        fields.push(field);
      }
      if (fields.length === 0) return this.deps.reads.dto(before);
      const after = await gear.update(id, changes, {
        brand: changes.brand ?? before.brand,
        model: changes.model ?? before.model,
      } as { brand: string; model: string });
      if (before.is_public !== after.is_public || before.model_key !== after.model_key) {
        if (before.is_public) await discovery.removePublicItem(before);
        if (after.is_public) await discovery.addPublicItem(after);
      }
      await events.record(actor, 'gear.updated', {
        subject: { resource: 'gear', id },
        data: { fields },
        userId: after.user_id,
      });
      return this.deps.reads.dto(after);
    });
  }

  async remove(actor: UserActor, id: string): Promise<{ message: string }> {
    await committing(this.deps.scope, async (later) => {
      const row = await this.editable(actor, id);
      await this.deps.people.lockAccount(row.user_id);
      const keys = await this.deleteItem(row);
      later(() => removeFiles(this.deps.storage, this.deps.logger, keys));
      await this.deps.events.record(actor, 'gear.deleted', {
        subject: { resource: 'gear', id },
        data: {},
        userId: row.user_id,
      });
    });
    return { message: 'Gear deleted' };
  }

  /** Deletes the item (its photos' rows and links go with it); returns the photos' stored files. */
  private async deleteItem(row: GearRow): Promise<string[]> {
    const photos = (await this.deps.gear.photosOf([row.id])).get(row.id) ?? [];
    if (row.is_public) await this.deps.discovery.removePublicItem(row);
    await this.deps.gear.delete(row.id);
    return photos.flatMap((photo) => [photo.large_key, photo.small_key]);
  }

  /** GET /users/{id}/gear: all of one's own; another's public items where their profile is visible. */
  async listOf(actor: Actor, userId: string, query: UserGearQuery) {
    const all = seesAllGearOf(actor, userId);
    if (!all) {
      const visible = (await this.deps.people.profiles([userId], actor)).has(userId);
      const blocked = actor.kind === 'user' && (await this.deps.people.blockedEitherWay(actor.id, userId));
      if (!visible || blocked) throw notFound('User');
    }
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.gear.listOf(userId, { publicOnly: !all, category: query.category }, window);
    return { gear: await this.deps.reads.dtos(rows), pagination: paginate(window, total) };
  }

  /** The account export's `gear`: every item, private ones included. */
  async exportFor(owner: UserActor): Promise<{ gear: Gear[] }> {
    return { gear: await this.deps.reads.dtos(await this.deps.gear.allOf(owner.id)) };
  }

  /** Account erasure: every item, its photos (their files once the deletion commits) and its links to tracks. */
  async eraseFor(owner: UserActor): Promise<{ removed_gear: number; removed_gear_photos: number }> {
    return committing(this.deps.scope, async (later) => {
      const rows = await this.deps.gear.allOf(owner.id);
      const keys: string[] = [];
      for (const row of rows) keys.push(...(await this.deleteItem(row)));
      later(() => removeFiles(this.deps.storage, this.deps.logger, keys));
      return { removed_gear: rows.length, removed_gear_photos: keys.length / 2 };
    });
  }
}
