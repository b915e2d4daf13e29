/**
 * Grants (or with --revoke, takes back) admin rights: `npm run make-admin -- someone@example.com`.
 * The change is written to the audit log as a system action.
 */
import { ConfigError, loadConfig } from '../platform/config/config.js';
import { openPlatform } from '../platform/platform.js';
import { createModules } from '../modules/index.js';
import { setAdminRole } from '../modules/users/users.module.js';

const args = process.argv.slice(2);
const revoke = args.includes('--revoke');
const email = args.find((arg) => !arg.startsWith('--'));
if (!email) {
  console.error('usage: npm run make-admin -- <email> [--revoke]');
  process.exit(2);
}

// PGlite's runtime resets process.exitCode when it closes, so the code is passed to process.exit
let exitCode = 0;
try {
  const { platform, close } = await openPlatform(loadConfig());
  try {
    // the modules' event handlers write the audit entry; no job queue and no HTTP are started
    for (const module of createModules(platform)) {
      for (const handler of module.eventHandlers ?? []) platform.events.subscribe(handler);
    }
    const user = await setAdminRole(platform, email, !revoke);
    if (!user) {
      console.error(`no account with email ${email}`);
      exitCode = 1;
    } else {
      console.log(`${user.username} (${email}) is ${revoke ? 'no longer' : 'now'} an admin`);
    }
  } finally {
    await close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  exitCode = 1;
}
process.exit(exitCode);
