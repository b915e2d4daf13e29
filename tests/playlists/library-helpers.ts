import { sql } from 'kysely';
import type { TestServer } from '../support/test-server.js';

/** The number of playlists the user owns, straight from the database. */
export async function ownedPlaylists(server: TestServer, userId: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from playlists where user_id = ${userId}`.execute(
    server.riff.platform.scope.db,
  );
  return Number(rows[0]!.n);
}
