import './users.events.js';
import type { Profile } from '@riff/contract';
import type { Platform } from '../../platform/platform.js';
import type { AccountUser } from '../../platform/access/actor.js';
import type { RiffModule } from '../../platform/module.js';
import type { Searcher } from '../../platform/search/searcher.js';
import { setAdminRole as grantAdminRole } from './admin-role.js';
import type { AvatarsService } from '../media/avatars.service.js';
import { AccountLifecycleService } from './account-lifecycle.service.js';
import { createAccountStanding, type AccountStanding } from './account-standing.js';
import { FollowsService } from './follows.service.js';
import { createPeopleReader, type PeopleReader } from './people-reader.js';
import { PreferencesRepository } from './preferences.repository.js';
import { PreferencesService } from './preferences.service.js';
import { ProfilesRepository } from './profiles.repository.js';
import { ProfilesService } from './profiles.service.js';
import { SocialRepository } from './social.repository.js';
import { createStaffAccounts, ListedAdmins, type StaffAccounts } from './staff-accounts.js';
import { StaffAccountsRepository } from './staff-accounts.repository.js';
import { UsersRepository } from './users.repository.js';
import { usersRoutes } from './users.routes.js';

/**
 * Grants (or takes back) admin rights to the live account with this email, as the service itself:
 * `npm run make-admin`, and tests that need an admin. Built from the platform alone, as the script
 * builds no HTTP.
 */
export function setAdminRole(platform: Pick<Platform, 'scope' | 'events'>, email: string, admin: boolean) {
  const { scope, events } = platform;
  return grantAdminRole({ scope, events, users: new UsersRepository(scope) }, email, admin);
}

/** `users`: the accounts themselves, which the auth module reads and writes (it depends on users, never the reverse). */
export type UsersModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: {
    follows: FollowsService;
    profiles: ProfilesService;
    preferences: PreferencesService;
    accounts: AccountLifecycleService;
  };
  users: UsersRepository;
  /** For other areas (playlists' collaborators): accounts, blocks and profiles as others see them. */
  people: PeopleReader;
  /** For GET /search and its suggestions: the users' part. */
  searcher: Searcher<Profile>;
  /** For the admin area: accounts as staff see and manage them, and their figures. */
  staffAccounts: StaffAccounts;
  /** For auth: an address of ADMIN_EMAILS becomes admin once verified. */
  listedAdmins: ListedAdmins;
  /** For the sanctions area: an account's suspension and ban. */
  standing: AccountStanding;
  /** Of these users, those who may act now (as activeUser), by id, in one read: a notification's many recipients. */
  activeUsers(ids: readonly string[]): Promise<Map<string, AccountUser>>;
};

/** Accounts as others see them: profiles, follows, blocks, preferences, export and deletion. */
export function createUsersModule(
  platform: Platform,
  { avatars }: { avatars: Pick<AvatarsService, 'setAvatar' | 'removeAvatar' | 'avatar'> },
): UsersModule {
  const { scope, hasher, clock, config, events, accounts } = platform;
  const users = new UsersRepository(scope);
  const profiles = new ProfilesRepository(scope);
  const social = new SocialRepository(scope);
  const preferenceRows = new PreferencesRepository(scope);
  const profileService = new ProfilesService({ scope, users, profiles, events, clock, avatars });
  const preferences = new PreferencesService({ scope, preferences: preferenceRows, events, clock });
  const lifecycle = new AccountLifecycleService({
    scope,
    users,
    social,
    preferences: preferenceRows,
    userPreferences: preferences,
    events,
    accounts,
    hasher,
    clock,
    revocations: platform.revocations,
  });
  const follows = new FollowsService({ scope, users, profiles, social, events });
  const staff = new StaffAccountsRepository(scope);
  const listedAdmins = new ListedAdmins({ scope, events, staff, emails: config.adminEmails });
  return {
    name: 'users',
    // the addresses of ADMIN_EMAILS verified before they were listed become admins at each start
    start: async () => void (await listedAdmins.promote()),
    staffAccounts: createStaffAccounts({ scope, events, clock, staff, listed: listedAdmins }),
    listedAdmins,
    routes: {
      users: usersRoutes(
        {
          profiles: profileService,
          follows,
          preferences,
          accounts: lifecycle,
        },
        { secureCookies: config.secureCookies },
      ),
    },
    services: { follows, profiles: profileService, preferences, accounts: lifecycle },
    activeUser: (id) => users.findActingById(id),
    activeUsers: async (ids) => new Map((await users.findActingByIds(ids)).map((row) => [row.id, row])),
    accountData: { erase: (owner) => lifecycle.eraseOwnData(owner) },
    users,
    people: createPeopleReader(users, social),
    standing: createAccountStanding({ users, clock, revocations: platform.revocations }),
    searcher: {
      search: async (actor, q, page) => {
        const found = await profileService.search(actor, { q, ...page });
        return { items: found.users, total: found.pagination.total };
      },
      suggest: (actor, prefix, limit) => profileService.suggestUsernames(actor, prefix, limit),
    },
  };
}
