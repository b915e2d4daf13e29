import { ConfigError, loadConfig } from './platform/config/config.js';
import { migrateToLatest, openDatabase } from './platform/db/database.js';

try {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrateToLatest(database.db);
  console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'database is up to date');
  await database.close();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
