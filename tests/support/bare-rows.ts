/**
 * Rows for tests that open a platform with the media module alone (no HTTP, no users or tracks
 * module, sometimes in a worker process of their own): there is no service to register an account or
 * take an upload, so the rows those would make are written here. `db` is the caller's executor
 * (scope.db inside a unit of work). Nothing here imports vitest: worker processes (tests/media/fixtures)
 * run outside it.
 */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../server/src/platform/db/database.js';
import type { Database } from '../../server/src/platform/db/database.schema.js';

/** An account row named `name` (username and slug), `email` when given: this platform has no auth module to register it. */
export async function insertBareUser(db: Db, name: string, email?: string): Promise<Selectable<Database['users']>> {
  return db
    .insertInto('users')
    .values({ username: name, slug: name, ...(email !== undefined ? { email } : {}) } as never)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A track row as uploads record it, its audio stored at `file_key`: this platform has no tracks module to take uploads. */
export async function insertBareTrack(db: Db, row: Insertable<Database['tracks']>): Promise<void> {
  await db.insertInto('tracks').values(row).execute();
}
