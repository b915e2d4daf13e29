import type { Gear } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import { isOwnerOrAdmin } from '../../platform/access/ownership.js';
import { notFound } from '../../platform/errors/app-error.js';
import type { PeopleReader } from '../users/people-reader.js';
import { toGearDto } from './gear.mapper.js';
import { canReadGear } from './gear.policy.js';
import type { GearRepository } from './gear.repository.js';
import type { GearRow } from './gear.tables.js';

export interface GearReadsDeps {
  gear: GearRepository;
  people: Pick<PeopleReader, 'findActive' | 'blockedEitherWay'>;
  publicBaseUrl: string;
}

/** How the area's services read items for a caller: who may see one, and the replies' shape. */
export class GearReads {
  constructor(private readonly deps: GearReadsDeps) {}

  /**
   * Whether the caller may see items of this owner at all: their own and admins always; others
   * only an active account neither of them blocked.
   */
  async ownerVisible(actor: Actor, ownerId: string): Promise<boolean> {
    if (isOwnerOrAdmin(actor, ownerId)) return true;
    if (!(await this.deps.people.findActive(ownerId))) return false;
    return actor.kind !== 'user' || !(await this.deps.people.blockedEitherWay(actor.id, ownerId));
  }

  /** The item if the caller may see it; otherwise 404, as if it did not exist. */
  async visible(actor: Actor, id: string): Promise<GearRow> {
    const row = await this.deps.gear.find(id);
    if (!row || !canReadGear(actor, row) || !(await this.ownerVisible(actor, row.user_id))) throw notFound('Gear');
    return row;
  }

  /** The rows as replies, their photos and track counts read in one query each. */
  async dtos(rows: GearRow[]): Promise<Gear[]> {
    const ids = rows.map((row) => row.id);
    const photos = await this.deps.gear.photosOf(ids);
    const counts = await this.deps.gear.trackCounts(ids);
    return rows.map((row) =>
      toGearDto(row, photos.get(row.id) ?? [], counts.get(row.id) ?? 0, this.deps.publicBaseUrl),
    );
  }

  async dto(row: GearRow): Promise<Gear> {
    return (await this.dtos([row]))[0]!;
  }
}
