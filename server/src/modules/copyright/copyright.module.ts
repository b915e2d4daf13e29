import './copyright.events.js';
import './copyright.jobs.js';
import type { CopyrightClaim, Strike } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import type { StaffLog } from '../admin/staff-log.js';
import type { Sanctioner } from '../sanctions/sanctions.module.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import { CopyrightRepository } from './copyright.repository.js';
import { copyrightRoutes } from './copyright.routes.js';
import { CopyrightService } from './copyright.service.js';
import { StrikesService } from './strikes.service.js';

/** How often the job looks for claims whose counter-notice window closed. */
const UPHOLD_EVERY_MS = 10 * 60_000;

export interface CopyrightModuleDeps {
  tracks: Pick<TrackReader, 'visibleTracks'>;
  /** The tracks area's side of moderation. */
  trackModeration: ModeratedContent;
  people: Pick<PeopleReader, 'contact' | 'findAccount'>;
  staffLog: StaffLog;
  sanctions: Pick<Sanctioner, 'suspend'>;
}

export type CopyrightModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { claims: CopyrightService; strikes: StrikesService };
  /** The account's strikes, newest first (its standing, appeals). */
  strikesOf(userId: string): Promise<Strike[]>;
  /** Lifts a strike (a granted appeal). */
  liftStrike(actor: Actor, strikeId: string): Promise<Strike>;
  /** The strike's account and claim, and whether it counts now; undefined for an unknown one (appeals). */
  strike(strikeId: string): Promise<{ userId: string; claimId: string; active: boolean } | undefined>;
  /** Whether the account's strikes let it upload (the upload rules). */
  uploadsAllowed(userId: string): Promise<boolean>;
  /** Active strikes of each account (admin lists). */
  activeStrikes(userIds: readonly string[]): Promise<Map<string, number>>;
  /** A claim as either party reads it, a strike as its account reads it (their webhooks); undefined for others. */
  claimFor(reader: UserActor, claimId: string): Promise<CopyrightClaim | undefined>;
  strikeFor(reader: UserActor, strikeId: string): Promise<Strike | undefined>;
  /** Claims waiting for a counter-notice or staff (admin figures). */
  pendingClaims(): Promise<number>;
  /** Who decided the claim behind a strike: null when the service upheld it; undefined for no strike (appeals). */
  claimDecider(strikeId: string): Promise<string | null | undefined>;
  /**
   * Who upheld the claim that removed the track, when its state is a claim's: null when nobody did
   * (open, or upheld by the job); undefined when its state is not a claim's (appeals).
   */
  trackDecider(trackId: string): Promise<string | null | undefined>;
};

/**
 * Copyright claims against tracks, counter-notices, staff's decisions and the strikes they give.
 * A claimed track's state is set through the tracks area's moderation port; the third active strike
 * suspends the account through the sanctions area.
 */
export function createCopyrightModule(platform: Platform, deps: CopyrightModuleDeps): CopyrightModule {
  const { scope, clock, events, mail } = platform;
  const repository = new CopyrightRepository(scope);
  const strikes = new StrikesService({ scope, clock, events, repository, sanctions: deps.sanctions });
  const claims = new CopyrightService({
    scope,
    clock,
    events,
    mail,
    repository,
    tracks: deps.tracks,
    content: deps.trackModeration,
    people: deps.people,
    staffLog: deps.staffLog,
    strikes,
  });
  return {
    name: 'copyright',
    routes: { copyright: copyrightRoutes(claims) },
    services: { claims, strikes },
    strikesOf: (userId) => strikes.strikesOf(userId),
    liftStrike: (actor, strikeId) => strikes.liftStrike(actor, strikeId),
    strike: (strikeId) => strikes.find(strikeId),
    uploadsAllowed: (userId) => strikes.uploadsAllowed(userId),
    activeStrikes: (userIds) => strikes.activeStrikes(userIds),
    claimFor: (reader, claimId) => claims.claimFor(reader, claimId),
    strikeFor: (reader, strikeId) => strikes.strikeOf(reader.id, strikeId),
    pendingClaims: () => claims.pendingClaims(),
    claimDecider: (strikeId) => strikes.claimDecider(strikeId),
    trackDecider: (trackId) => claims.trackDecider(trackId),
    jobs: [
      {
        name: 'copyright.uphold-unanswered',
        everyMs: UPHOLD_EVERY_MS,
        retryLimit: 0,
        handle: () => claims.upholdUnanswered(),
      },
    ],
    accountData: {
      export: async (owner) => ({ ...(await claims.exportFor(owner)), ...(await strikes.exportFor(owner.id)) }),
      erase: async (owner) => ({ ...(await claims.eraseFor(owner)), ...(await strikes.eraseFor(owner.id)) }),
    },
  };
}
