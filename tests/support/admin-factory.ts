import { setAdminRole } from '../../server/src/modules/users/users.module.js';
import { createUser, type TestUser, type UserOverrides } from './factories.js';
import type { TestServer } from './test-server.js';

/**
 * A signed-in user with admin rights, granted through the platform as `npm run make-admin`
 * grants them (no SQL): the grant is in the user's audit log as user.admin_granted. Their token
 * stays valid: admin rights are read from the account on every request.
 */
export async function createAdmin(server: TestServer, overrides: UserOverrides = {}): Promise<TestUser> {
  const user = await createUser(server, overrides);
  if (!(await setAdminRole(server.riff.platform, user.email, true)))
    throw new Error(`could not make ${user.email} an admin`);
  return user;
}
