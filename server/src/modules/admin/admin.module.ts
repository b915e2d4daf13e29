import './admin.events.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import type { StaffAccounts } from '../users/staff-accounts.js';
import { StaffLogQueries } from './admin.repository.js';
import { adminRoutes } from './admin.routes.js';
import { AdminService, type AdminServiceDeps, type PlatformFigures, type StandingReader } from './admin.service.js';
import type { PlatformSettingsStore } from './platform-settings.js';
import { StaffLogRepository, type StaffLog } from './staff-log.js';

export type AdminModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { admin: AdminService };
  /** For the areas that act as staff (moderation, sanctions): the staff log they write to. */
  staffLog: StaffLog;
  /** For appeals: the staff member whose action on a target was the last of these actions (who decided it). */
  lastStaffActor(target: { type: string; id: string }, actions: readonly string[]): Promise<string | undefined>;
};

export interface AdminModuleDeps {
  /** The platform's settings, built before the areas that read them (auth, tracks). */
  settings: PlatformSettingsStore;
  accounts: StaffAccounts;
  sessions: AdminServiceDeps['sessions'];
  standing: StandingReader;
  figures: PlatformFigures;
}

/** Administration: settings, accounts as staff see them, figures, the staff log. */
export function createAdminModule(platform: Platform, deps: AdminModuleDeps): AdminModule {
  const { scope, events, clock } = platform;
  const staffLog = new StaffLogRepository(scope);
  const staffLogQueries = new StaffLogQueries(scope);
  const admin = new AdminService({
    scope,
    events,
    clock,
    settings: deps.settings,
    staffLog,
    staffLogQueries,
    accounts: deps.accounts,
    sessions: deps.sessions,
    standing: deps.standing,
    figures: deps.figures,
  });
  return {
    name: 'admin',
    services: { admin },
    staffLog,
    lastStaffActor: (target, actions) => staffLogQueries.lastActorOf(target.type, target.id, actions),
    routes: { admin: adminRoutes(admin) },
    accountData: { erase: (owner) => admin.eraseFor(owner) },
  };
}
