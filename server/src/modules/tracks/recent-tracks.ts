import type { TrackRow } from './tracks.tables.js';

/**
 * Tracks read in the last second, by id, for streaming: a player asks for one Range after
 * another, and each would otherwise cost a query. This instance forgets a track the moment a
 * change to it commits (tracks.module.ts); another instance's change reaches it by expiry, so a
 * track made private stops streaming everywhere within `ttlMs`.
 */
export class RecentTracks {
  private readonly rows = new Map<string, { row: TrackRow; until: number }>();

  constructor(
    private readonly ttlMs = 1000,
    private readonly capacity = 10_000,
  ) {}

  get(id: string, now = Date.now()): TrackRow | undefined {
    const entry = this.rows.get(id);
    if (!entry) return undefined;
    if (entry.until > now) return entry.row;
    this.rows.delete(id);
    return undefined;
  }

  remember(row: TrackRow, now = Date.now()): void {
    // Map keeps insertion order: when full, the oldest entry goes
    if (this.rows.size >= this.capacity) this.rows.delete(this.rows.keys().next().value!);
    this.rows.set(row.id, { row, until: now + this.ttlMs });
  }

  forget(id: string): void {
    this.rows.delete(id);
  }
}
