import type { UserActor } from '../../platform/access/actor.js';
import { AppError, limitReached, notFound } from '../../platform/errors/app-error.js';
import { PLAYLISTS_PER_USER_MAX } from '@riff/contract';
import type { PeopleReader } from '../users/people-reader.js';
import type { PlaylistsRepository } from './playlists.repository.js';
import { snapshotOf } from './playlists.mapper.js';
import type { PlaylistAccess, PlaylistNeed } from './playlist-reader.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { PlaylistReader } from './playlist-reader.js';

/** If-Match as sent: a snapshot_id bare or quoted, weak or not, a list of them, or `*`. */
export function preconditionHolds(ifMatch: string | undefined, version: number): boolean {
  if (ifMatch === undefined) return true;
  return ifMatch.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value.replace(/^W\//, '').replace(/^"(.*)"$/, '$1') === String(version);
  });
}

/**
 * Inside a unit of work: refuses a new playlist to a user who has the most one may have. Their
 * account is locked until the unit of work ends, so creations of one user run one after the other
 * and the limit holds under concurrency.
 */
export async function assertRoomForPlaylist(
  deps: { playlists: PlaylistsRepository; people: Pick<PeopleReader, 'lockAccount'> },
  userId: string,
): Promise<void> {
  await deps.people.lockAccount(userId);
  if ((await deps.playlists.countOf(userId)) >= PLAYLISTS_PER_USER_MAX) {
    throw limitReached(`You have ${PLAYLISTS_PER_USER_MAX} playlists, the most one may have: delete one first`);
  }
}

/**
 * A write to one playlist: the row is locked first (writes of one playlist run one after the
 * other, each on the positions the last one left), then the caller's right is checked (404, 403),
 * then If-Match (412): whatever `change` throws rolls the whole write back.
 */
export async function writePlaylist<T>(
  deps: { scope: DbScope; playlists: PlaylistsRepository; reader: PlaylistReader },
  actor: UserActor,
  id: string,
  need: PlaylistNeed,
  ifMatch: string | undefined,
  change: (access: PlaylistAccess) => Promise<T>,
): Promise<T> {
  return deps.scope.transaction(async () => {
    if (!(await deps.playlists.lockRow(id))) throw notFound('Playlist');
    const access = await deps.reader.require(actor, id, need);
    if (!preconditionHolds(ifMatch, access.view.version)) {
      throw new AppError(
        'PRECONDITION_FAILED',
        `The playlist is at snapshot ${snapshotOf(access.view)}: read it again and retry`,
      );
    }
    return change(access);
  });
}
