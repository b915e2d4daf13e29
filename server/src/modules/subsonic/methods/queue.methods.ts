import { QUEUE_MAX_ITEMS } from '@riff/contract';
import type { UserActor } from '../../../platform/access/actor.js';
import type { QueueService } from '../../queue/queue.service.js';
import type { QueueClientsRepository } from '../queue-clients.repository.js';
import { SUBSONIC_ERROR, SubsonicError, notFoundError } from '../rest-error.js';
import { method, type SubsonicMethod } from '../rest-methods.js';
import type { SubsonicSongs } from '../subsonic-songs.js';

/** `changedBy` when the queue was last changed elsewhere than by a Subsonic app (Riff's own apps, the JSON API). */
export const RIFF_CLIENT = 'Riff';
/** The longest app name kept (subsonic_queue_clients' CHECK). */
const CLIENT_MAX = 200;
/** The queue area's bound on position_seconds, in ms. */
const POSITION_MAX_MS = 1_000_000_000;

export interface QueueMethodsDeps {
  /** The queue area's service: GET and PUT /queue, their rules and events. */
  queue: Pick<QueueService, 'get' | 'update' | 'clear'>;
  songs: SubsonicSongs;
  clients: Pick<QueueClientsRepository, 'find' | 'save'>;
  transaction<T>(work: () => Promise<T>): Promise<T>;
  now(): Date;
}

const invalid = (message: string) => new SubsonicError(SUBSONIC_ERROR.generic, message);

/**
 * The play queue: getPlayQueue and savePlayQueue are Riff's one queue per user (GET and PUT
 * /api/v1/queue), so a queue saved in an app is the one the web app resumes, and the other way
 * round. Riff keeps a current index and a position in seconds: `current` (a song id) is saved as
 * the index of its first place in `id`, and read back as the song at the current index; `position`
 * (ms) is position_seconds × 1000. Entries are the queue's songs in the caller's library; when the
 * current item is not among them, the next one that is (else the last) is current, from its start.
 */
export function queueMethods(deps: QueueMethodsDeps): SubsonicMethod[] {
  const { queue, songs } = deps;

  async function changedBy(actor: UserActor, version: number): Promise<string> {
    const saved = await deps.clients.find(actor.id);
    return saved && saved.queue_version === version ? saved.client : RIFF_CLIENT;
  }

  return [
    method({
      name: 'getPlayQueue',
      needs: 'read',
      handle: async ({ actor }) => {
        const { queue: current } = await queue.get(actor);
        // a queue never saved: Subsonic answers without one
        if (current.updated_at === null) return {};
        const ids = current.items.map((item) => item.track_id);
        const found = await songs.find(actor, ids);
        const shown = ids.map((id, index) => ({ id, index })).filter((entry) => found.rows.has(entry.id));
        const playing =
          shown.find((entry) => entry.index >= current.current_index) ?? shown[shown.length - 1] ?? undefined;
        const atCurrent = playing !== undefined && playing.index === current.current_index;
        return {
          playQueue: {
            current: playing?.id,
            position: playing ? (atCurrent ? Math.round(current.position_seconds * 1000) : 0) : undefined,
            username: actor.user.username,
            changed: current.updated_at,
            changedBy: await changedBy(actor, current.version),
            entry: songs.nodes(
              actor,
              shown.map((entry) => entry.id),
              found,
            ),
          },
        };
      },
    }),
    // no `id`: the queue is cleared (OpenSubsonic); `current` absent means the first song
    method({
      name: 'savePlayQueue',
      needs: 'write',
      handle: async ({ actor, params, client }) => {
        const ids = params.all('id').map((id) => id.toLowerCase());
        if (ids.length > QUEUE_MAX_ITEMS) throw invalid(`A queue holds at most ${QUEUE_MAX_ITEMS} songs`);
        const positionMs = params.int('position', 0, { min: 0, max: POSITION_MAX_MS });
        const currentId = params.get('current')?.toLowerCase();
        let currentIndex = 0;
        if (ids.length > 0 && currentId !== undefined && currentId !== '') {
          currentIndex = ids.indexOf(currentId);
          if (currentIndex < 0) throw invalid('Parameter current must be one of the songs in id');
        }
        const inLibrary = new Set(await songs.inLibrary(actor, ids));
        if (ids.some((id) => !inLibrary.has(id))) throw notFoundError('Song');
        await deps.transaction(async () => {
          const version =
            ids.length === 0
              ? (await queue.clear(actor, undefined)).version
              : (
                  await queue.update(actor, undefined, {
                    track_ids: ids,
                    current_index: currentIndex,
                    position_seconds: positionMs / 1000,
                  })
                ).version;
          await deps.clients.save(actor.id, client.slice(0, CLIENT_MAX) || RIFF_CLIENT, version, deps.now());
        });
        return {};
      },
    }),
  ];
}
