import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { TrackRow } from './tracks.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { readAudioMetadata, type AudioMetadata } from './audio-probe.js';
import type { TracksRepository } from './tracks.repository.js';
import type { UploadSessionsRepository } from './upload-sessions.repository.js';

export interface UploadLimits {
  maxFileBytes: number;
  maxChunkBytes: number;
  maxChunks: number;
  quotaBytes: number;
  sessionTtlMs: number;
}

/** What an account may upload now: whether it may at all, the largest file, and its quota. */
export interface UploadAllowance {
  enabled: boolean;
  maxFileBytes: number;
  quotaBytes: number;
}

/**
 * The rules of uploads that live outside this area: the platform's settings (uploads on or off, the
 * largest file, the default quota) and the account's own quota.
 */
export interface UploadRules {
  allowanceFor(userId: string): Promise<UploadAllowance>;
}

/**
 * A form carrying one file, as the uploads receive it (the routes adapt the HTTP request to it).
 * The file may come before its text fields, so it is handed over as a stream as soon as it starts.
 */
export interface IncomingForm<F> {
  /** The size the client declared for the whole body (file and form framing), if it did. */
  declaredBytes: number | undefined;
  /**
   * Reads the form. `onFile` must start consuming the stream before it awaits anything: the stream
   * fails when the client goes away or the file passes `maxBytes` (PAYLOAD_TOO_LARGE), and that
   * must reach whatever writes it. Rejects (once `onFile` has settled) on any of these, on a
   * malformed form, or on fields that are not valid; resolves with the checked fields once the form has ended.
   */
  receive<T>(
    maxBytes: number,
    onFile: (file: Readable, info: { filename: string }) => Promise<T>,
  ): Promise<{ fields: F; file: T }>;
}

export interface UploadPipelineDeps {
  scope: DbScope;
  tracks: TracksRepository;
  sessions: UploadSessionsRepository;
  storage: ObjectStorage;
  events: EventBus;
  clock: Clock;
  limits: UploadLimits;
  logger: Logger;
  /**
   * The users area's account lock (PeopleReader.lockAccount): quota decisions run one at a time per
   * user, the lock held until the transaction ends.
   */
  people: { lockAccount(userId: string): Promise<void> };
  /** Whether and how much an account may upload; without it, the configured limits. */
  rules?: UploadRules;
  /**
   * The cloud area's usage port: bytes of a user's cloud files, their kept versions and their trash,
   * which share the quota with tracks. Without it, none.
   */
  cloudUsage?: { bytesOf(userId: string): Promise<number> };
  /** The media pipeline: the new audio becomes the track's current version and its jobs are queued. */
  media?: { recordAudio(actor: UserActor, track: TrackRow): Promise<unknown> };
}

/** What a stored file becomes: a track row. */
export interface StoredUpload {
  trackId: string;
  key: string;
  bytes: number;
  md5: string;
  metadata: AudioMetadata;
  title: string | null;
  isPublic: boolean;
  filename: string | null;
}

const READ_BLOCK_BYTES = 4 * 1024 * 1024;

/** A storage intent older than this belongs to a crashed upload. */
const INTENT_TTL_MS = 24 * 60 * 60 * 1000;

export const quotaExceeded = () => new AppError('QUOTA_EXCEEDED', 'This upload would exceed your storage quota');
export const uploadsDisabled = () => new AppError('UPLOADS_DISABLED', 'Uploads are turned off for now');
export const trackKey = (trackId: string) => `tracks/${trackId}/original`;
export const chunkPrefix = (uploadId: string) => `uploads/${uploadId}/`;
/** Every key a failed upload can leave lives alone in a folder named for it: the folder goes with it. */
const folderOf = (key: string) => `${path.posix.dirname(key)}/`;

/** A client's file name without folders or control characters: for display only, never for storage. */
function displayName(filename: string): string {
  // eslint-disable-next-line no-control-regex
  return path.basename(filename.replace(/\\/g, '/').replace(/[\u0000-\u001f\u007f]/g, '')).slice(0, 255);
}

/** The file's name without extension, as a fallback title. */
function titleFromFilename(filename: string): string | null {
  const base = displayName(filename)
    .replace(/\.[^.]*$/, '')
    .trim();
  return base.length > 0 ? base : null;
}

/**
 * What uploads in one request and chunked uploads share: the quota arithmetic, committing a
 * stored file as a track, removing a failed one, the work under way (for the shutdown) and the
 * cleanup of what crashed or abandoned uploads leave.
 */
export class UploadPipeline {
  /** Uploads under way, so that a shutdown can wait for them to finish or clean up. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly deps: UploadPipelineDeps) {}

  /** Counts `work` as under way until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    return work;
  }

  /** Waits until every upload under way has finished or removed what it wrote (on shutdown, before the database closes). */
  async drain(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.inFlight.size > 0 && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadline - Date.now())));
      await Promise.race([Promise.all(this.inFlight), timeout]);
      clearTimeout(timer);
    }
    if (this.inFlight.size > 0)
      this.deps.logger.warn(
        { uploads: this.inFlight.size },
        'uploads still running at shutdown; the cleanup will remove what they leave',
      );
  }

  /** Sessions not touched since then have expired. */
  idleSince(): Date {
    return new Date(this.deps.clock.now().getTime() - this.deps.limits.sessionTtlMs);
  }

  /**
   * What counts against the quota for a new upload: live originals, cloud files (with their versions
   * and trash) and space promised to chunked uploads. `usedBytes` is originals and cloud together.
   */
  async bytesHeld(userId: string) {
    const originals = await this.deps.tracks.liveOriginals(userId);
    const cloudBytes = (await this.deps.cloudUsage?.bytesOf(userId)) ?? 0;
    return {
      trackBytes: originals.bytes,
      cloudBytes,
      usedBytes: originals.bytes + cloudBytes,
      reserved: await this.deps.sessions.reservedBytes(userId, this.idleSince()),
    };
  }

  /** What the account may upload now (whether it may at all is the caller's to check: see allowed). */
  async allowance(userId: string): Promise<UploadAllowance> {
    const { rules, limits } = this.deps;
    return rules
      ? rules.allowanceFor(userId)
      : { enabled: true, maxFileBytes: limits.maxFileBytes, quotaBytes: limits.quotaBytes };
  }

  /** The account's allowance for a new upload; 403 UPLOADS_DISABLED when uploads are off. */
  async allowed(userId: string): Promise<UploadAllowance> {
    const allowance = await this.allowance(userId);
    if (!allowance.enabled) throw uploadsDisabled();
    return allowance;
  }

  /** Bytes the user may still upload under this quota. */
  async room(userId: string, quotaBytes: number): Promise<number> {
    const { usedBytes, reserved } = await this.bytesHeld(userId);
    return Math.max(0, quotaBytes - usedBytes - reserved);
  }

  /** Parses what was stored; on S3 by streaming it back, on disk by random access. */
  async probe(key: string, size: number): Promise<AudioMetadata> {
    const local = this.deps.storage.localPath(key);
    return readAudioMetadata(local ? { path: local } : { stream: await this.deps.storage.get(key), size });
  }

  /**
   * Hands every byte of a stored object to `inspect`, in order. On disk in 4 MiB reads, the next
   * read under way while a block is inspected (the md5 of an assembled file is then the only cost).
   */
  async readBack(key: string, inspect: (block: Buffer) => void): Promise<void> {
    const local = this.deps.storage.localPath(key);
    if (!local) {
      for await (const block of await this.deps.storage.get(key)) inspect(block as Buffer);
      return;
    }
    const file = await open(local, 'r');
    try {
      const buffers = [Buffer.allocUnsafe(READ_BLOCK_BYTES), Buffer.allocUnsafe(READ_BLOCK_BYTES)];
      let turn = 0;
      let reading = file.read(buffers[0]!, 0, READ_BLOCK_BYTES, null);
      for (;;) {
        const { bytesRead, buffer } = await reading;
        if (bytesRead === 0) break;
        turn ^= 1;
        reading = file.read(buffers[turn]!, 0, READ_BLOCK_BYTES, null);
        try {
          inspect(buffer.subarray(0, bytesRead));
        } catch (error) {
          await reading.catch(() => undefined);
          throw error;
        }
      }
    } finally {
      await file.close();
    }
  }

  /**
   * Stores the track row under the quota lock (the file is already in place), with `alongside`
   * (e.g. closing the chunked session) in the same unit of work. `releaseReservation`: the bytes
   * a chunked session reserved for this very file.
   */
  commitTrack(
    actor: UserActor,
    input: StoredUpload,
    releaseReservation: number,
    alongside?: () => Promise<void>,
  ): Promise<TrackRow> {
    const { metadata } = input;
    const { scope, tracks, events } = this.deps;
    return scope.transaction(async () => {
      await this.deps.people.lockAccount(actor.id);
      const held = await this.bytesHeld(actor.id);
      const { quotaBytes } = await this.allowance(actor.id);
      if (held.usedBytes + held.reserved - releaseReservation + input.bytes > quotaBytes) throw quotaExceeded();
      const track = await tracks.insert({
        id: input.trackId,
        creator_id: actor.id,
        title: input.title ?? metadata.title ?? titleFromFilename(input.filename ?? '') ?? 'Untitled',
        artist: metadata.artist,
        album: metadata.album,
        genre: metadata.genre,
        genres: '[]',
        tags: '[]',
        year: metadata.year,
        bpm: metadata.bpm,
        musical_key: metadata.musicalKey,
        is_public: input.isPublic,
        duration: metadata.duration,
        bitrate: metadata.bitrate,
        sample_rate: metadata.sampleRate,
        file_size: input.bytes,
        format: metadata.format,
        file_key: input.key,
        md5: input.md5,
        original_filename: input.filename ? displayName(input.filename) : null,
        status: 'completed',
      });
      await tracks.removeIntent(input.key);
      await this.deps.media?.recordAudio(actor, track);
      await alongside?.();
      await events.record(actor, 'track.uploaded', {
        subject: { resource: 'track', id: track.id },
        data: { bytes: input.bytes, format: metadata.format },
      });
      return track;
    });
  }

  /** Removes what a failed upload wrote; if storage fails, its intent stays and the cleanup retries. */
  async discard(key: string): Promise<void> {
    try {
      await this.deps.storage.deletePrefix(folderOf(key));
      await this.deps.tracks.removeIntent(key);
    } catch (error) {
      this.deps.logger.warn({ err: error, key }, 'could not remove a failed upload; the cleanup will retry');
    }
  }

  /** Removes idle sessions with their chunks, and objects whose upload crashed. Safe to run on every instance. */
  async cleanup(): Promise<{ sessions: number; objects: number }> {
    const { storage, sessions: sessionsRepository, tracks } = this.deps;
    const now = this.deps.clock.now();
    let sessions = 0;
    for (const id of await sessionsRepository.idle(this.idleSince())) {
      await storage.deletePrefix(chunkPrefix(id));
      await sessionsRepository.remove(id);
      sessions++;
    }
    let objects = 0;
    for (const key of await tracks.staleIntents(new Date(now.getTime() - INTENT_TTL_MS))) {
      if (!(await tracks.fileInUse(key))) {
        await storage.deletePrefix(folderOf(key));
        objects++;
      }
      await tracks.removeIntent(key);
    }
    return { sessions, objects };
  }
}
