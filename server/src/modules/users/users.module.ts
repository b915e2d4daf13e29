import './users.events.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import { AuthRepository } from '../auth/auth.repository.js';
import type { TracksService } from '../tracks/tracks.service.js';
import { PreferencesRepository } from './preferences.repository.js';
import { ProfilesRepository } from './profiles.repository.js';
import { SocialRepository } from './social.repository.js';
import { UsersRepository } from './users.repository.js';
import { usersRoutes } from './users.routes.js';
import { UsersService } from './users.service.js';

export type UsersModule = RiffModule & { users: UsersRepository };

/** Accounts as others see them: profiles, follows, blocks, preferences, export and deletion. */
export function createUsersModule(platform: Platform, deps: { audit: AuditRepository; tracks: TracksService }): UsersModule {
  const { database, hasher, clock, config } = platform;
  const db = database.db;
  const users = new UsersRepository(db);
  const service = new UsersService({
    db,
    users,
    profiles: new ProfilesRepository(db),
    social: new SocialRepository(db),
    preferences: new PreferencesRepository(db),
    auth: new AuthRepository(db),
    audit: deps.audit,
    hasher,
    clock,
    tracks: deps.tracks,
  });
  return {
    name: 'users',
    routes: { users: usersRoutes(service, { secureCookies: config.secureCookies }) },
    activeUser: (id) => users.findActiveById(id),
    users,
  };
}
