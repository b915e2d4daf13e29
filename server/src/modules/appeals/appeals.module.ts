import './appeals.events.js';
import './appeals.jobs.js';
import type { Appeal } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { appealPageRouter } from './appeal-page.js';
import type { AppealPorts } from './appeals.ports.js';
import { AppealsRepository } from './appeals.repository.js';
import { appealsRoutes } from './appeals.routes.js';
import { AppealsService } from './appeals.service.js';

/** The purge of removed content runs once a day (its cut-off is in days). */
const PURGE_EVERY_MS = 24 * 60 * 60_000;

export type AppealsModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { appeals: AppealsService };
  /** Open appeals, for the platform's figures. */
  openCount(): Promise<number>;
  /** One of the reader's appeals as they read it (their webhooks); undefined for another's. */
  appealFor(reader: UserActor, id: string): Promise<Appeal | undefined>;
};

/** Appeals of moderation decisions, sanctions and strikes, and staff's decisions on them. */
export function createAppealsModule(platform: Platform, deps: { ports: AppealPorts }): AppealsModule {
  const { scope, clock, events } = platform;
  const service = new AppealsService({
    scope,
    clock,
    events,
    appeals: new AppealsRepository(scope),
    ports: deps.ports,
  });
  return {
    name: 'appeals',
    services: { appeals: service },
    routes: { appeals: appealsRoutes(service) },
    routers: [appealPageRouter()],
    openCount: () => service.openCount(),
    appealFor: (reader, id) => service.appealFor(reader, id),
    jobs: [
      {
        name: 'appeals.purge-removed',
        everyMs: PURGE_EVERY_MS,
        retryLimit: 0,
        expireInSeconds: 60 * 60,
        handle: () => service.purgeRemoved(),
      },
    ],
    accountData: {
      export: (owner) => service.exportFor(owner),
      erase: (owner) => service.eraseFor(owner),
    },
  };
}
