import { describe, expect, it } from 'vitest';
import { createInFlight } from '../../server/src/platform/http/in-flight.js';

describe('handlers in flight at shutdown', () => {
  it('idle waits for every running handler, even one whose client is gone', async () => {
    const inFlight = createInFlight();
    const order: string[] = [];
    let finish!: () => void;
    const handler = inFlight.run(async () => {
      await new Promise<void>((resolve) => (finish = resolve));
      order.push('handler wrote its rows');
    });
    const idle = inFlight.idle(10_000).then(() => order.push('database closed'));
    await Promise.resolve();
    expect(order).toEqual([]);
    finish();
    await Promise.all([handler, idle]);
    expect(order).toEqual(['handler wrote its rows', 'database closed']);
  });

  it('idle gives up after its timeout, and resolves at once when nothing runs', async () => {
    const inFlight = createInFlight();
    await inFlight.idle(10_000);
    void inFlight.run(() => new Promise(() => undefined));
    const started = Date.now();
    await inFlight.idle(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('a failing handler still counts as done', async () => {
    const inFlight = createInFlight();
    await expect(inFlight.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await inFlight.idle(10_000);
  });
});
