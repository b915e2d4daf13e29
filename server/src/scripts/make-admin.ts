/**
 * Grants (or with --revoke, takes back) admin rights: `npm run make-admin -- someone@example.com`.
 * The change is written to the audit log as a system action.
 */
import { ConfigError, loadConfig } from '../platform/config/config.js';
import { migrateToLatest, openDatabase } from '../platform/db/database.js';
import { createDbScope } from '../platform/db/transactions.js';
import { AuditRepository } from '../modules/audit/audit.repository.js';

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
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(database.db);
    const user = await database.db
      .updateTable('users')
      .set({ is_admin: !revoke, updated_at: new Date() })
      .where('email', '=', email)
      .where('deleted_at', 'is', null)
      .returning(['id', 'username'])
      .executeTakeFirst();
    if (!user) {
      console.error(`no account with email ${email}`);
      exitCode = 1;
    } else {
      await new AuditRepository(createDbScope(database.db)).record(
        { userId: user.id, action: revoke ? 'user.admin_revoked' : 'user.admin_granted', resource: 'user', resourceId: user.id, metadata: { by: 'cli' } },
        { ip: null, userAgent: 'riff-cli' },
      );
      console.log(`${user.username} (${email}) is ${revoke ? 'no longer' : 'now'} an admin`);
    }
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  exitCode = 1;
}
process.exit(exitCode);
