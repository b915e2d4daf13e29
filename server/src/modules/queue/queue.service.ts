import { QUEUE_MAX_ITEMS, type AddQueueItemRequest, type UpdateQueueRequest } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, fieldIssue, limitReached, notFound, validationFailed } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { TrackReader } from '../tracks/track-reader.js';
import { toQueueDto, toQueueItemDto } from './queue.mapper.js';
import type { QueueItemRow, QueueRepository, QueueRow } from './queue.repository.js';

export interface QueueServiceDeps {
  scope: DbScope;
  queues: QueueRepository;
  tracks: TrackReader;
  events: EventBus;
  clock: Clock;
}

/** If-Match as sent: a version number, or `*` (any), or absent. */
export type Precondition = number | '*' | undefined;

/** `7`, `"7"`, `W/"7"` or `*` (the contract has checked the shape). */
export function parseIfMatch(value: string | undefined): Precondition {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '*') return '*';
  return Number(trimmed.replace(/^W\//, '').replaceAll('"', ''));
}

const queueFull = () => limitReached(`A queue holds at most ${QUEUE_MAX_ITEMS} items`);
const badIndex = (size: number) =>
  validationFailed(
    size === 0 ? 'current_index must be 0 while the queue is empty' : `current_index must be between 0 and ${size - 1}`,
    [fieldIssue('current_index', 'must name an item of the queue')],
  );

/** The caller's one play queue: every write locks it, checks If-Match, and bumps its version. */
export class QueueService {
  constructor(private readonly deps: QueueServiceDeps) {}

  /** The items' tracks as the caller sees them, and those moderation withholds from them (left out). */
  private async shownTracks(actor: UserActor, items: readonly { track_id: string }[]) {
    const ids = items.map((item) => item.track_id);
    return [
      await this.deps.tracks.visibleTracks(actor, ids),
      await this.deps.tracks.withheldTracks(actor, ids),
    ] as const;
  }

  async get(actor: UserActor) {
    const { queues } = this.deps;
    const [row, items] = await Promise.all([queues.find(actor.id), queues.items(actor.id)]);
    return {
      queue: toQueueDto(row, items, ...(await this.shownTracks(actor, items))),
    };
  }

  /**
   * Runs a write on the locked queue: a stale If-Match is 412 before anything changes, and
   * whatever `change` throws rolls the whole write back.
   */
  private write<T>(actor: UserActor, precondition: Precondition, change: (queue: QueueRow) => Promise<T>): Promise<T> {
    return this.deps.scope.transaction(async () => {
      const queue = await this.deps.queues.lock(actor.id);
      if (precondition !== undefined && precondition !== '*' && precondition !== queue.version) {
        throw new AppError('PRECONDITION_FAILED', `The queue is at version ${queue.version}: read it again and retry`);
      }
      return change(queue);
    });
  }

  async update(actor: UserActor, precondition: Precondition, body: UpdateQueueRequest) {
    if (body.track_ids) await this.deps.tracks.assertVisible(actor, body.track_ids);
    const now = this.deps.clock.now();
    const saved = await this.write(actor, precondition, async (queue) => {
      if (body.track_ids) await this.deps.queues.replace(actor.id, body.track_ids, now);
      const size = body.track_ids ? body.track_ids.length : await this.deps.queues.count(actor.id);
      let currentIndex = queue.current_index;
      if (body.current_index !== undefined) {
        if (body.current_index > Math.max(0, size - 1)) throw badIndex(size);
        currentIndex = body.current_index;
      } else {
        currentIndex = Math.min(currentIndex, Math.max(0, size - 1));
      }
      const row = await this.deps.queues.update(
        actor.id,
        {
          current_index: currentIndex,
          ...(body.position_seconds !== undefined ? { position_seconds: body.position_seconds } : {}),
          ...(body.shuffle !== undefined ? { shuffle: body.shuffle } : {}),
          ...(body.repeat !== undefined ? { repeat: body.repeat } : {}),
        },
        now,
      );
      const fields = Object.keys(body).filter((key) => body[key as keyof UpdateQueueRequest] !== undefined);
      await this.deps.events.record(actor, 'queue.updated', {
        subject: { resource: 'queue', id: actor.id },
        data: { fields },
      });
      return row;
    });
    const items = await this.deps.queues.items(actor.id);
    return {
      queue: toQueueDto(saved, items, ...(await this.shownTracks(actor, items))),
      version: saved.version,
    };
  }

  async addItem(actor: UserActor, precondition: Precondition, body: AddQueueItemRequest) {
    await this.deps.tracks.assertVisible(actor, [body.track_id]);
    const now = this.deps.clock.now();
    const { item, version } = await this.write(actor, precondition, async (queue) => {
      const size = await this.deps.queues.count(actor.id);
      if (size >= QUEUE_MAX_ITEMS) throw queueFull();
      const position = body.play_next && size > 0 ? Math.min(queue.current_index + 1, size) : size;
      const item = await this.deps.queues.insertAt(actor.id, body.track_id, position, now);
      // always after the current item: current_index still names it
      const row = await this.deps.queues.update(actor.id, {}, now);
      await this.deps.events.record(actor, 'queue.item_added', {
        subject: { resource: 'queue', id: actor.id },
        data: { track_id: body.track_id, play_next: body.play_next ?? false },
      });
      return { item, version: row.version };
    });
    return { item: toQueueItemDto(item, await this.deps.tracks.visibleTracks(actor, [item.track_id])), version };
  }

  async removeItem(actor: UserActor, precondition: Precondition, itemId: string) {
    const now = this.deps.clock.now();
    const version = await this.write(actor, precondition, async (queue) => {
      const removed: QueueItemRow | undefined = await this.deps.queues.remove(actor.id, itemId);
      if (!removed) throw notFound('Queue item');
      const size = await this.deps.queues.count(actor.id);
      let { current_index: currentIndex, position_seconds: positionSeconds } = queue;
      if (removed.position < currentIndex) currentIndex -= 1;
      else if (removed.position === currentIndex) positionSeconds = 0;
      currentIndex = Math.min(currentIndex, Math.max(0, size - 1));
      const row = await this.deps.queues.update(
        actor.id,
        { current_index: currentIndex, position_seconds: positionSeconds },
        now,
      );
      await this.deps.events.record(actor, 'queue.item_removed', {
        subject: { resource: 'queue', id: actor.id },
        data: { track_id: removed.track_id },
      });
      return row.version;
    });
    return { message: 'Removed from the queue', version };
  }

  async clear(actor: UserActor, precondition: Precondition) {
    const now = this.deps.clock.now();
    const version = await this.write(actor, precondition, async () => {
      const removed = await this.deps.queues.count(actor.id);
      await this.deps.queues.clear(actor.id);
      const row = await this.deps.queues.update(actor.id, { current_index: 0, position_seconds: 0 }, now);
      await this.deps.events.record(actor, 'queue.cleared', {
        subject: { resource: 'queue', id: actor.id },
        data: { removed },
      });
      return row.version;
    });
    return { message: 'The queue is empty', version };
  }

  /** The host's queue, to seed a shared session with. */
  async snapshot(actor: UserActor) {
    const [row, items] = await Promise.all([this.deps.queues.find(actor.id), this.deps.queues.items(actor.id)]);
    return {
      trackIds: items.map((item) => item.track_id),
      currentIndex: row?.current_index ?? 0,
      positionSeconds: row?.position_seconds ?? 0,
    };
  }

  async exportFor(owner: UserActor) {
    return (await this.get(owner)).queue;
  }

  eraseFor(owner: UserActor) {
    return this.deps.queues.erase(owner.id);
  }
}
