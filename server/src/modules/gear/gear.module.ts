import './gear.events.js';
import type { Platform } from '../../platform/platform.js';
import type { EventHandler } from '../../platform/events/event-bus.js';
import type { RiffModule } from '../../platform/module.js';
import type { EncodedImage } from '../media/images.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import { GearDiscoveryRepository } from './gear-discovery.repository.js';
import { GearDiscoveryService } from './gear-discovery.service.js';
import { GearPhotosService } from './gear-photos.service.js';
import { GearReads } from './gear-reads.js';
import { GearTracksService } from './gear-tracks.service.js';
import { GearRepository } from './gear.repository.js';
import { gearRoutes } from './gear.routes.js';
import { GearService } from './gear.service.js';

export interface GearModuleDeps {
  /** The tracks area's read port: which tracks a caller may see, and whose they are. */
  tracks: TrackReader;
  /** The users area's read port: the account lock, blocks, profiles. */
  people: PeopleReader;
  /** The media area's image pipeline (the avatars' one): photos re-encoded without metadata. */
  images: { photoSizes(bytes: Buffer, sides: readonly number[]): Promise<EncodedImage[]> };
}

export type GearModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: {
    gear: GearService;
    photos: GearPhotosService;
    tracks: GearTracksService;
    discovery: GearDiscoveryService;
  };
};

/** Gear: items, their photos, the tracks that name them, and discovery (search, popular, owners). */
export function createGearModule(platform: Platform, deps: GearModuleDeps): GearModule {
  const { scope, events, storage, logger } = platform;
  const gear = new GearRepository(scope);
  const discovery = new GearDiscoveryRepository(scope);
  const reads = new GearReads({ gear, people: deps.people, publicBaseUrl: platform.config.publicBaseUrl });
  const services = {
    gear: new GearService({ scope, events, gear, discovery, reads, people: deps.people, storage, logger }),
    photos: new GearPhotosService({
      scope,
      events,
      gear,
      reads,
      photoSizes: deps.images.photoSizes,
      storage,
      logger,
    }),
    tracks: new GearTracksService({ scope, events, gear, reads, tracks: deps.tracks }),
    discovery: new GearDiscoveryService({ discovery, reads, people: deps.people }),
  };
  const handlers: EventHandler[] = [
    {
      // a deleted track's links go in the deletion's own transaction: no reply shows them after it
      name: 'gear.unlink-deleted-track',
      types: ['track.deleted'],
      delivery: 'in-transaction',
      handle: async (event) => {
        if (event.subject.id) await services.tracks.trackDeleted(event.subject.id);
      },
    },
    {
      // the most owned models count accounts that may act: a deactivated, banned or suspended one
      // leaves the counts in the change's own transaction, and comes back when lifted
      name: 'gear.count-accounts',
      types: ['user.deactivated', 'user.banned', 'user.unbanned', 'user.suspended', 'user.unsuspended'],
      delivery: 'in-transaction',
      handle: async (event) => {
        if (event.subject.id) await services.discovery.standingChanged(event.subject.id, platform.clock.now());
      },
    },
  ];
  return {
    name: 'gear',
    routes: { gear: gearRoutes(services) },
    services,
    eventHandlers: handlers,
    accountData: {
      export: (owner) => services.gear.exportFor(owner),
      erase: (owner) => services.gear.eraseFor(owner),
    },
  };
}
