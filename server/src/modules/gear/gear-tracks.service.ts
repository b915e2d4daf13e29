import { TRACK_GEAR_MAX, type Gear } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { forbidden, limitReached, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { GearReads } from './gear-reads.js';
import { canSetTrackGear, seesAllGearOf } from './gear.policy.js';
import type { GearRepository } from './gear.repository.js';

export interface GearTracksServiceDeps {
  scope: DbScope;
  events: EventBus;
  gear: GearRepository;
  reads: GearReads;
  /** The tracks area's read port: which tracks a caller may see, and whose they are. */
  tracks: Pick<TrackReader, 'findLive' | 'visibleTracks' | 'holdLive'>;
}

/** Which items a track was made with: set by the track's owner from their own items. */
export class GearTracksService {
  constructor(private readonly deps: GearTracksServiceDeps) {}

  /** The live track if the caller may see it (404 otherwise), with its owner. */
  private async visibleTrack(actor: Actor, trackId: string): Promise<{ ownerId: string }> {
    const [row, visible] = await Promise.all([
      this.deps.tracks.findLive(trackId),
      this.deps.tracks.visibleTracks(actor, [trackId]),
    ]);
    if (!row || !visible.has(trackId)) throw notFound('Track');
    return { ownerId: row.creator_id };
  }

  async set(actor: UserActor, trackId: string, gearIds: readonly string[]): Promise<{ gear: Gear[] }> {
    const track = await this.visibleTrack(actor, trackId);
    if (!canSetTrackGear(actor, track.ownerId)) throw forbidden('Only the track’s owner may say what it was made with');
    const ids = [...new Set(gearIds)];
    if (ids.length > TRACK_GEAR_MAX) throw limitReached(`A track may name at most ${TRACK_GEAR_MAX} items of gear`);
    const { scope, gear } = this.deps;
    await scope.transaction(async () => {
      // the track cannot be deleted meanwhile (its links would outlive it)
      if (!(await this.deps.tracks.holdLive(trackId))) throw notFound('Track');
      const rows = await gear.findMany(ids);
      const own = new Set(rows.filter((row) => row.user_id === actor.id).map((row) => row.id));
      if (ids.some((id) => !own.has(id))) throw notFound('Gear');
      await gear.setTrackGear(trackId, ids);
      await this.deps.events.record(actor, 'gear.updated', {
        subject: { resource: 'track', id: trackId },
        data: { fields: ['tracks'] },
      });
    });
    return this.list(actor, trackId, track.ownerId);
  }

  /** GET /tracks/{id}/gear: of a track the caller may see, its public items (to its owner, all). */
  async get(actor: Actor, trackId: string): Promise<{ gear: Gear[] }> {
    const track = await this.visibleTrack(actor, trackId);
    return this.list(actor, trackId, track.ownerId);
  }

  private async list(actor: Actor, trackId: string, ownerId: string): Promise<{ gear: Gear[] }> {
    const ids = await this.deps.gear.gearIdsOfTrack(trackId);
    const byId = new Map((await this.deps.gear.findMany(ids)).map((row) => [row.id, row]));
    const all = seesAllGearOf(actor, ownerId);
    const rows = ids.flatMap((id) => {
      const row = byId.get(id);
      return row && (all || row.is_public) ? [row] : [];
    });
    return { gear: await this.deps.reads.dtos(rows) };
  }

  /** A deleted track names nothing any more (its links go in the deletion's transaction). */
  async trackDeleted(trackId: string): Promise<void> {
    await this.deps.gear.unlinkTrack(trackId);
  }
}
