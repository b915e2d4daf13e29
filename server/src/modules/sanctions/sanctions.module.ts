import './sanctions.events.js';
import './sanctions.jobs.js';
import type { Sanction, SuspendUserRequest } from '@riff/contract';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import type { StaffLog } from '../admin/staff-log.js';
import type { AccountStanding } from '../users/account-standing.js';
import type { PeopleReader } from '../users/people-reader.js';
import { SanctionsRepository } from './sanctions.repository.js';
import { sanctionsRoutes } from './sanctions.routes.js';
import { SanctionsService, type SanctioningActor, type SuspendInput } from './sanctions.service.js';

/** How often the job looks for suspensions that have run out (sign-in ends one at once anyway). */
const END_SUSPENSIONS_EVERY_MS = 60_000;

export interface SanctionsModuleDeps {
  /** The users area's port: an account's suspension and ban. */
  standing: AccountStanding;
  /** Where the account is mailed. */
  people: Pick<PeopleReader, 'contact'>;
  /** The admin area's staff log. */
  staffLog: StaffLog;
  /** Every content area's side of moderation (a ban hides all of the account's content). */
  content: readonly ModeratedContent[];
}

/** For the moderation area's decisions: the same sanctions, with the same staff limits, as the routes. */
export interface Sanctioner {
  warn(actor: SanctioningActor, userId: string, reason: string): Promise<Sanction>;
  suspend(actor: SanctioningActor, userId: string, input: SuspendInput | SuspendUserRequest): Promise<Sanction>;
  ban(actor: SanctioningActor, userId: string, reason: string): Promise<Sanction>;
  unsuspend(actor: SanctioningActor, userId: string): Promise<Sanction>;
  unban(actor: SanctioningActor, userId: string): Promise<Sanction>;
}

export type SanctionsModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { sanctions: SanctionsService };
  /** For the moderation area: warn, suspend and ban as a case's resolution (appeals: lift). */
  sanctions: Sanctioner;
  /** For the account's standing (appeals): its sanctions, newest first. */
  standingOf(userId: string): Promise<Sanction[]>;
  /** For appeals by the mailed link: the sanction it names and its account; the token is used up. */
  sanctionByAppealToken(token: string): Promise<{ userId: string; sanction: Sanction } | undefined>;
};

/** Staff's sanctions of accounts: warnings, suspensions (ended by a job) and bans. */
export function createSanctionsModule(platform: Platform, deps: SanctionsModuleDeps): SanctionsModule {
  const { scope, clock, events, mail, config } = platform;
  const service = new SanctionsService({
    scope,
    clock,
    events,
    mail,
    sanctions: new SanctionsRepository(scope),
    standing: deps.standing,
    staffLog: deps.staffLog,
    content: deps.content,
    people: deps.people,
    publicBaseUrl: config.publicBaseUrl,
  });
  return {
    name: 'sanctions',
    routes: { sanctions: sanctionsRoutes(service) },
    services: { sanctions: service },
    sanctions: {
      warn: (actor, userId, reason) => service.warn(actor, userId, reason),
      suspend: (actor, userId, input) => service.suspend(actor, userId, input),
      ban: (actor, userId, reason) => service.ban(actor, userId, reason),
      unsuspend: (actor, userId) => service.unsuspend(actor, userId),
      unban: (actor, userId) => service.unban(actor, userId),
    },
    standingOf: (userId) => service.standingOf(userId),
    sanctionByAppealToken: (token) => service.sanctionByAppealToken(token),
    jobs: [
      {
        name: 'sanctions.end-suspensions',
        everyMs: END_SUSPENSIONS_EVERY_MS,
        retryLimit: 0,
        handle: () => service.endSuspensions(),
      },
    ],
    accountData: {
      export: (owner) => service.exportFor(owner),
      erase: (owner) => service.eraseFor(owner),
    },
  };
}
