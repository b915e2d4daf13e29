import type { DomainEvent } from '../../server/src/platform/events/event-bus.js';
import type { EventType } from '../../server/src/platform/events/event-map.js';
import type { TestServer } from './test-server.js';

/**
 * The domain events of some types that the server records from now on, as its handlers receive
 * them, kept only once their transaction commits (an event of a change that rolled back never
 * shows). Events reach a consumer through the bus, whatever it stores them in, so a test reads them
 * here. Call once per server (a handler cannot be taken back): filter the list by subject.
 */
export function committedEvents<K extends EventType>(server: TestServer, types: readonly K[]): DomainEvent<K>[] {
  const { events, scope } = server.riff.platform;
  const seen: DomainEvent<K>[] = [];
  events.subscribe<K>({
    name: `test.committed-events.${types.join(',')}`,
    types,
    delivery: 'in-transaction',
    handle: async (event) => scope.afterCommit(() => void seen.push(event)),
  });
  return seen;
}
