import type { Report } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import type { StaffLog } from '../admin/staff-log.js';
import { CasesService, type CaseSanctions } from './cases.service.js';
import { ContentModerationService } from './content-moderation.service.js';
import type { ModerationTargetPorts } from './moderation-targets.js';
import { ModerationRepository } from './moderation.repository.js';
import { moderationRoutes } from './moderation.routes.js';
import { ReportsService } from './reports.service.js';
import './moderation.events.js';
import './moderation.jobs.js';

export type ModerationModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { reports: ReportsService; cases: CasesService; content: ContentModerationService };
  /** Open reports against each user or their content (admin lists). */
  openReportsAgainst(userIds: readonly string[]): Promise<Map<string, number>>;
  /** Accounts most reported against, for the admin list sorted by reports. */
  mostReported(limit: number): Promise<string[]>;
  /** One of the reader's reports as they read it (their webhooks); undefined for another's. */
  reportFor(reader: UserActor, id: string): Promise<Report | undefined>;
  /** The queue's figures for the platform's stats. */
  figures: ModerationRepository['figures'];
};

/**
 * Trust and safety's reports and queue: users report what they see, staff work the cases (the
 * reports of one target) and act on content; the content areas carry the state (their side of
 * moderation), the sanctions area the sanctions.
 */
export function createModerationModule(
  platform: Platform,
  deps: { targets: ModerationTargetPorts; staffLog: StaffLog; sanctions: CaseSanctions },
): ModerationModule {
  const { scope, clock, events } = platform;
  const repository = new ModerationRepository(scope);
  const reports = new ReportsService({ scope, clock, events, repository, targets: deps.targets });
  const cases = new CasesService({
    scope,
    clock,
    events,
    repository,
    targets: deps.targets,
    staffLog: deps.staffLog,
    sanctions: deps.sanctions,
  });
  const content = new ContentModerationService({ scope, events, staffLog: deps.staffLog, targets: deps.targets });
  return {
    name: 'moderation',
    services: { reports, cases, content },
    routes: { moderation: moderationRoutes({ reports, cases, content }) },
    openReportsAgainst: (ids) => repository.openReportsAgainst(ids),
    mostReported: (limit) => repository.mostReported(limit),
    reportFor: (reader, id) => reports.reportFor(reader, id),
    figures: (since) => repository.figures(since),
    jobs: [
      // a minute's case changes folded into one count row per key: the queue's total reads a handful of rows
      {
        name: 'moderation.fold-case-counts',
        everyMs: 60_000,
        retryLimit: 0,
        handle: () => repository.foldCaseCountDeltas(),
      },
    ],
    accountData: {
      export: async (owner) => ({ reports: await reports.exportFor(owner) }),
      erase: (owner) => reports.eraseFor(owner),
    },
  };
}
