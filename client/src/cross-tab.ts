/**
 * One refresh at a time across the tabs of a browser. Two tabs refreshing the same token at once
 * would present it twice; the server forgives that for a short grace, but tabs that keep their own
 * copy of the refresh token would drift apart. So a refresh runs under the Web Locks API where
 * there is one (else a claim on a BroadcastChannel), and its new pair is announced to the other
 * tabs, which take it when it belongs to the same user.
 */

/** The part of the Web Locks API (navigator.locks) used here. */
export interface LockManagerLike {
  request<T>(
    name: string,
    options: { ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>;
}

export interface CrossTabOptions {
  /** Name of the lock and of the BroadcastChannel (default 'riff-refresh'); tabs with the same name coordinate. */
  name?: string;
  /** The Web Locks API (default navigator.locks where it exists); null uses the BroadcastChannel claim instead. */
  locks?: LockManagerLike | null;
  /** Longest wait for another tab's refresh before refreshing anyway (default 10 s). */
  waitMs?: number;
}

export interface AnnouncedPair {
  /** The user the pair is for (the access token's `sub`). */
  subject: string;
  access_token: string;
  refresh_token: string;
}

type Message =
  | { kind: 'claim'; from: string }
  | { kind: 'release'; from: string }
  | { kind: 'refreshed'; from: string; pair: AnnouncedPair };

export interface RefreshCoordinator {
  /** Runs `task` while no other tab (or client with the same name) is refreshing. */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  /** Tells the other tabs about a new pair. */
  announce(pair: AnnouncedPair): void;
  close(): void;
}

/**
 * A claim is contested for this long (the lowest claim seen in that time goes first); also how long
 * a tab that waited for another's refresh gives its announcement to arrive.
 */
const CLAIM_SETTLE_MS = 25;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Within one tab only: nothing to coordinate with. */
export const soloCoordinator: RefreshCoordinator = {
  exclusive: (task) => task(),
  announce: () => undefined,
  close: () => undefined,
};

export function crossTabCoordinator(
  options: CrossTabOptions,
  onPair: (pair: AnnouncedPair) => void,
): RefreshCoordinator {
  const name = options.name ?? 'riff-refresh';
  const waitMs = options.waitMs ?? 10_000;
  const locks =
    options.locks === undefined
      ? (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks
      : options.locks;
  const self = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : undefined;
  // Node keeps the process alive for an open channel; a browser tab has no such notion
  (channel as { unref?: () => void } | undefined)?.unref?.();

  /** Claims of other tabs still running, each settled by its release (or given up after waitMs). */
  const claims = new Map<string, { settled: Promise<void>; settle: () => void }>();
  const forget = (from: string) => {
    claims.get(from)?.settle();
    claims.delete(from);
  };
  channel?.addEventListener('message', (event: MessageEvent<Message>) => {
    const message = event.data;
    if (!message || message.from === self) return;
    if (message.kind === 'refreshed') onPair(message.pair);
    else if (message.kind === 'release') forget(message.from);
    else if (message.kind === 'claim' && !claims.has(message.from)) {
      let settle = () => undefined as void;
      const settled = new Promise<void>((resolve) => {
        settle = resolve;
      });
      claims.set(message.from, { settled, settle });
      void Promise.race([settled, delay(waitMs)]).then(() => forget(message.from));
    }
  });
  const post = (message: Message) => {
    try {
      channel?.postMessage(message);
    } catch {
      // a closed channel: this client is being disposed of
    }
  };

  /** The fallback: claim on the channel, and let an earlier (lower) claim of another tab go first. */
  const withClaim = async <T>(task: () => Promise<T>): Promise<T> => {
    const deadline = Date.now() + waitMs;
    for (;;) {
      while (claims.size > 0 && Date.now() < deadline)
        await Promise.race([...[...claims.values()].map((claim) => claim.settled), delay(50)]);
      post({ kind: 'claim', from: self });
      await delay(CLAIM_SETTLE_MS);
      const earlier = [...claims.keys()].some((other) => other < self);
      if (!earlier || Date.now() >= deadline) break;
      post({ kind: 'release', from: self });
    }
    try {
      return await task();
    } finally {
      post({ kind: 'release', from: self });
    }
  };

  const withLock = async <T>(lockManager: LockManagerLike, task: () => Promise<T>): Promise<T> => {
    const free = await lockManager.request(name, { ifAvailable: true }, async (lock) =>
      lock ? { value: await task() } : undefined,
    );
    if (free) return free.value;
    // another tab is refreshing: wait for it, and give its announcement the moment it takes to arrive
    let started = false;
    try {
      return await lockManager.request(name, { signal: AbortSignal.timeout(waitMs) }, async () => {
        started = true;
        await delay(CLAIM_SETTLE_MS);
        return task();
      });
    } catch (error) {
      // the lock was not given in time (a tab stuck mid-refresh): refresh without it
      if (!started) return task();
      throw error;
    }
  };

  return {
    exclusive: (task) => (locks ? withLock(locks, task) : channel ? withClaim(task) : task()),
    announce: (pair) => post({ kind: 'refreshed', from: self, pair }),
    close: () => {
      channel?.close();
      for (const from of [...claims.keys()]) forget(from);
    },
  };
}
