import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Request } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { InitiateChunkedUploadRequest } from '@riff/contract';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { isForeignKeyViolation } from '../../platform/db/db-errors.js';
import type { TrackRow, UserRow } from '../../platform/db/database.schema.js';
import { AppError, notFound } from '../../platform/errors/app-error.js';
import { formBoolean, formInteger, parseFormFields, parseMultipart } from '../../platform/http/multipart.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { RequestContext } from '../../platform/http/request-context.js';
import { CONTENT_TYPES, createUploadInspector, readAudioMetadata, type AudioMetadata } from './audio-probe.js';
import type { TracksRepository } from './tracks.repository.js';
import type { UploadSessionRow, UploadSessionsRepository } from './upload-sessions.repository.js';

export interface UploadLimits {
  maxFileBytes: number;
  maxChunkBytes: number;
  maxChunks: number;
  quotaBytes: number;
  sessionTtlMs: number;
}

export interface UploadsServiceDeps {
  db: Db;
  tracks: TracksRepository;
  sessions: UploadSessionsRepository;
  storage: ObjectStorage;
  audit: AuditRepository;
  clock: Clock;
  limits: UploadLimits;
  logger: Logger;
}

/** Room for multipart framing and the small text fields beside the file. */
const MULTIPART_OVERHEAD = 16 * 1024;
/** A storage intent older than this belongs to a crashed upload. */
const INTENT_TTL_MS = 24 * 60 * 60 * 1000;

/** Open chunked sessions one user may hold at a time (ADDENDUM "Tracks and uploads"). */
export const MAX_OPEN_SESSIONS = 20;

const ChunkFieldsSchema = z.object({
  upload_id: z.string().uuid(),
  chunk_number: formInteger(0),
  total_chunks: formInteger(1),
  total_size: formInteger(1),
  filename: z.string().min(1).max(255),
});

/** Text fields beside the file of POST /tracks; an empty title is no title (the tags or the file name give one). */
const UploadFieldsSchema = z.object({
  title: z
    .string()
    .trim()
    .max(255, 'at most 255 characters')
    .optional()
    .transform((title) => title || null),
  is_public: formBoolean.optional(),
});

const quotaExceeded = () => new AppError('QUOTA_EXCEEDED', 'This upload would exceed your storage quota');
const trackKey = (trackId: string) => `tracks/${trackId}/original`;
const chunkPrefix = (uploadId: string) => `uploads/${uploadId}/`;
const chunkKey = (uploadId: string, chunkNumber: number) => `uploads/${uploadId}/${chunkNumber}`;
/** Where a chunk lands while its form is still arriving: its fields may come after it. */
const stagingKey = () => `staging/${randomUUID()}/chunk`;
/** Every key a failed upload can leave lives alone in a folder named for it: the folder goes with it. */
const folderOf = (key: string) => `${path.posix.dirname(key)}/`;

/** A client's file name without folders or control characters: for display only, never for storage. */
function displayName(filename: string): string {
  // eslint-disable-next-line no-control-regex
  return path.basename(filename.replace(/\\/g, '/').replace(/[\u0000-\u001f\u007f]/g, '')).slice(0, 255);
}

/** The file's name without extension, as a fallback title. */
function titleFromFilename(filename: string): string | null {
  const base = displayName(filename).replace(/\.[^.]*$/, '').trim();
  return base.length > 0 ? base : null;
}

/**
 * Uploads in one request or in resumable chunks. Bytes stream to storage (never whole in memory)
 * under generated keys; a failure leaves neither a file nor a row behind.
 */
export class UploadsService {
  /** Uploads under way, so that a shutdown can wait for them to finish or clean up. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly deps: UploadsServiceDeps) {}

  private track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(() => undefined, () => undefined);
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
    if (this.inFlight.size > 0) this.deps.logger.warn({ uploads: this.inFlight.size }, 'uploads still running at shutdown; the cleanup will remove what they leave');
  }

  /** Stored bytes of live originals, and the space held by open chunked sessions. */
  async quota(userId: string) {
    // the same figures an upload is checked against: chunks already received are inside their session's reservation
    const { trackBytes, reserved } = await this.bytesHeld(userId);
    const { count } = await this.deps.tracks.liveOriginals(userId);
    const limit = this.deps.limits.quotaBytes;
    return {
      used_bytes: trackBytes,
      reserved_bytes: reserved,
      limit_bytes: limit,
      remaining_bytes: Math.max(0, limit - trackBytes - reserved),
      track_count: count,
    };
  }

  private async room(userId: string): Promise<number> {
    const { trackBytes, reserved } = await this.bytesHeld(userId);
    return Math.max(0, this.deps.limits.quotaBytes - trackBytes - reserved);
  }

  /** What counts against the quota for a new upload: live originals and space promised to chunked uploads. */
  private async bytesHeld(userId: string, db: Db = this.deps.db) {
    const originals = await this.deps.tracks.liveOriginals(userId, db);
    return { trackBytes: originals.bytes, reserved: await this.deps.sessions.reservedBytes(userId, this.idleSince(), db) };
  }

  /** Parses what was stored; on S3 by streaming it back, on disk by random access. */
  private async probe(key: string, size: number): Promise<AudioMetadata> {
    const local = this.deps.storage.localPath(key);
    return readAudioMetadata(local ? { path: local } : { stream: await this.deps.storage.get(key), size });
  }

  /** Stores the track row under the quota lock; the file is already in place. */
  private async commitTrack(
    viewer: UserRow,
    input: { trackId: string; key: string; bytes: number; md5: string; metadata: AudioMetadata; title: string | null; isPublic: boolean; filename: string | null },
    context: RequestContext,
    releaseReservation: number,
    extra?: (db: Db) => Promise<void>,
  ): Promise<TrackRow> {
    const { metadata } = input;
    return this.deps.db.transaction().execute(async (trx) => {
      await this.deps.tracks.lockUser(viewer.id, trx);
      const held = await this.bytesHeld(viewer.id, trx);
      if (held.trackBytes + held.reserved - releaseReservation + input.bytes > this.deps.limits.quotaBytes) throw quotaExceeded();
      const track = await this.deps.tracks.insert(
        {
          id: input.trackId,
          creator_id: viewer.id,
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
        },
        trx,
      );
      await this.deps.tracks.removeIntent(input.key, trx);
      await extra?.(trx);
      await this.deps.audit.record(
        { userId: viewer.id, action: 'track.uploaded', resource: 'track', resourceId: track.id, metadata: { bytes: input.bytes, format: metadata.format } },
        context,
        trx,
      );
      return track;
    });
  }

  private async discard(key: string): Promise<void> {
    try {
      await this.deps.storage.deletePrefix(folderOf(key));
      await this.deps.tracks.removeIntent(key);
    } catch (error) {
      this.deps.logger.warn({ err: error, key }, 'could not remove a failed upload; the cleanup will retry');
    }
  }

  uploadSingle(req: Request, viewer: UserRow, context: RequestContext): Promise<TrackRow> {
    return this.track(this.receiveSingle(req, viewer, context));
  }

  private async receiveSingle(req: Request, viewer: UserRow, context: RequestContext): Promise<TrackRow> {
    const { maxFileBytes } = this.deps.limits;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxFileBytes + MULTIPART_OVERHEAD) {
      req.res?.setHeader('Connection', 'close');
      throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxFileBytes} bytes`);
    }
    const room = await this.room(viewer.id);
    if (Number.isFinite(declared) && declared > room + MULTIPART_OVERHEAD) {
      req.res?.setHeader('Connection', 'close');
      throw quotaExceeded();
    }

    const trackId = randomUUID();
    const key = trackKey(trackId);
    await this.deps.tracks.addIntent(key);
    try {
      const { fields, file } = await parseMultipart(req, {
        fileField: 'file',
        maxFileBytes,
        onFile: async (stream, info) => {
          const inspector = createUploadInspector({ maxBytes: room, overLimit: quotaExceeded });
          stream.on('error', (error) => inspector.stream.destroy(error));
          await this.deps.storage.put(key, stream.pipe(inspector.stream));
          return { ...inspector.result(), filename: info.filename };
        },
      });
      const { title, is_public: isPublic = true } = parseFormFields(UploadFieldsSchema, fields);
      const metadata = await this.probe(key, file.bytes);
      return await this.commitTrack(viewer, { trackId, key, bytes: file.bytes, md5: file.md5, metadata, title, isPublic, filename: file.filename }, context, 0);
    } catch (error) {
      await this.discard(key);
      throw error;
    }
  }

  async initiate(viewer: UserRow, input: InitiateChunkedUploadRequest, context: RequestContext) {
    const { maxChunks, maxChunkBytes, sessionTtlMs } = this.deps.limits;
    const invalid = (field: string, message: string) =>
      new AppError('VALIDATION_FAILED', message, { details: [{ field, message, value: String(input[field as keyof typeof input]) }] });
    if (input.total_chunks > maxChunks) throw invalid('total_chunks', `at most ${maxChunks} chunks`);
    if (input.total_size > input.total_chunks * maxChunkBytes) throw new AppError('PAYLOAD_TOO_LARGE', `Chunks are at most ${maxChunkBytes} bytes: use more chunks`);
    if (input.total_size < input.total_chunks) throw invalid('total_size', 'every chunk needs at least one byte');
    const id = randomUUID();
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.tracks.lockUser(viewer.id, trx);
      if ((await this.deps.sessions.openCount(viewer.id, this.idleSince(), trx)) >= MAX_OPEN_SESSIONS) {
        throw new AppError('LIMIT_REACHED', `At most ${MAX_OPEN_SESSIONS} chunked uploads may be open at once: complete or cancel one first`);
      }
      const held = await this.bytesHeld(viewer.id, trx);
      if (held.trackBytes + held.reserved + input.total_size > this.deps.limits.quotaBytes) throw quotaExceeded();
      await this.deps.sessions.create({ id, userId: viewer.id, filename: input.filename, totalChunks: input.total_chunks, totalSize: input.total_size }, trx);
    });
    await this.deps.audit.record({ userId: viewer.id, action: 'track.upload_started', resource: 'upload', resourceId: id, metadata: { total_size: input.total_size } }, context);
    return {
      upload_id: id,
      message: `Send chunks 0 to ${input.total_chunks - 1} to POST /tracks/chunk, then POST /tracks/complete`,
      chunk_size_limit: maxChunkBytes,
      expires_at: new Date(this.deps.clock.now().getTime() + sessionTtlMs).toISOString(),
    };
  }

  private idleSince(): Date {
    return new Date(this.deps.clock.now().getTime() - this.deps.limits.sessionTtlMs);
  }

  private async session(uploadId: string, viewer: UserRow): Promise<UploadSessionRow> {
    const session = await this.deps.sessions.find(uploadId, viewer.id, this.idleSince());
    if (!session) throw notFound('Upload session');
    return session;
  }

  chunk(req: Request, viewer: UserRow) {
    return this.track(this.receiveChunk(req, viewer));
  }

  /**
   * The chunk streams to a staging key at once (its fields may come after it); when the form has
   * ended, the fields are checked against the session and the chunk moves into place.
   */
  private async receiveChunk(req: Request, viewer: UserRow) {
    const { maxChunkBytes } = this.deps.limits;
    const staging = stagingKey();
    await this.deps.tracks.addIntent(staging);
    try {
      const { fields, file } = await parseMultipart(req, {
        fileField: 'chunk',
        maxFileBytes: maxChunkBytes,
        onFile: async (stream) => {
          const inspector = createUploadInspector({
            maxBytes: maxChunkBytes,
            sniff: false,
            overLimit: () => new AppError('PAYLOAD_TOO_LARGE', `The chunk is larger than ${maxChunkBytes} bytes`),
          });
          stream.on('error', (error) => inspector.stream.destroy(error));
          await this.deps.storage.put(staging, stream.pipe(inspector.stream));
          return inspector.digest();
        },
      });
      const input = parseFormFields(ChunkFieldsSchema, fields, 'Send upload_id, chunk_number, total_chunks, total_size and filename with the chunk');
      const session = await this.session(input.upload_id, viewer);
      if (session.state !== 'active') throw new AppError('CONFLICT', 'This upload is being completed');
      const mismatch = (['total_chunks', 'total_size', 'filename'] as const).find((field) => String(session[field]) !== String(input[field]));
      if (mismatch) {
        throw new AppError('VALIDATION_FAILED', `${mismatch} does not match the upload session`, {
          details: [{ field: mismatch, message: 'does not match the session', value: String(input[mismatch]) }],
        });
      }
      if (input.chunk_number >= session.total_chunks) {
        throw new AppError('VALIDATION_FAILED', `chunk_number must be from 0 to ${session.total_chunks - 1}`, {
          details: [{ field: 'chunk_number', message: 'out of range', value: String(input.chunk_number) }],
        });
      }
      if (file.bytes === 0) throw new AppError('VALIDATION_FAILED', 'The chunk is empty');
      const others = (await this.deps.sessions.chunks(session.id)).filter((chunk) => chunk.chunk_number !== input.chunk_number);
      const room = Number(session.total_size) - others.reduce((sum, chunk) => sum + Number(chunk.size), 0);
      if (file.bytes > room) throw new AppError('VALIDATION_FAILED', 'The chunks would add up to more than total_size');

      const key = chunkKey(session.id, input.chunk_number);
      await this.deps.storage.move(staging, key);
      let received: number;
      try {
        received = await this.deps.sessions.saveChunk(session.id, input.chunk_number, file.bytes, this.deps.clock.now());
      } catch (error) {
        // the session was completed, cancelled or expired meanwhile: its chunks are going
        await this.deps.storage.delete(key).catch(() => undefined);
        if (isForeignKeyViolation(error)) throw notFound('Upload session');
        throw error;
      }
      await this.deps.tracks.removeIntent(staging);
      const progress = Math.round((received / session.total_chunks) * 10_000) / 100;
      return {
        upload_id: session.id,
        chunk_number: input.chunk_number,
        received_chunks: received,
        progress,
        message: received === session.total_chunks ? 'All chunks received: POST /tracks/complete' : `Chunk ${input.chunk_number} stored`,
      };
    } catch (error) {
      await this.discard(staging);
      throw error;
    }
  }

  /** Cancels the caller's chunked session: its chunks go and its reservation is freed. */
  async cancel(uploadId: string, viewer: UserRow, context: RequestContext) {
    const session = await this.session(uploadId, viewer);
    if (session.state !== 'active') throw new AppError('CONFLICT', 'This upload is being completed');
    // the row goes first: a chunk arriving meanwhile then fails to save and removes itself
    await this.deps.sessions.remove(session.id);
    await this.deps.storage.deletePrefix(chunkPrefix(session.id)).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, uploadId }, 'could not remove cancelled chunks; the cleanup will retry');
    });
    await this.deps.audit.record({ userId: viewer.id, action: 'track.upload_cancelled', resource: 'upload', resourceId: session.id }, context);
    return { message: 'Upload cancelled' };
  }

  async resume(uploadId: string, viewer: UserRow) {
    const session = await this.session(uploadId, viewer);
    const chunks = await this.deps.sessions.chunks(session.id);
    return {
      upload_id: session.id,
      chunks_received: chunks.length,
      received_chunk_numbers: chunks.map((chunk) => chunk.chunk_number),
      total_chunks: session.total_chunks,
      total_size: Number(session.total_size),
      expires_at: new Date(session.updated_at.getTime() + this.deps.limits.sessionTtlMs).toISOString(),
    };
  }

  complete(uploadId: string, viewer: UserRow, context: RequestContext) {
    return this.track(this.assemble(uploadId, viewer, context));
  }

  private async assemble(uploadId: string, viewer: UserRow, context: RequestContext) {
    const session = await this.session(uploadId, viewer);
    if (!(await this.deps.sessions.claimForAssembly(session.id))) throw new AppError('CONFLICT', 'This upload is already being completed');
    const trackId = randomUUID();
    const key = trackKey(trackId);
    let stored = false;
    try {
      const chunks = await this.deps.sessions.chunks(session.id);
      const have = new Set(chunks.map((chunk) => chunk.chunk_number));
      const missing = Array.from({ length: session.total_chunks }, (_, n) => n).filter((n) => !have.has(n));
      if (missing.length > 0) {
        throw new AppError('UPLOAD_INCOMPLETE', `${missing.length} chunk(s) missing`, {
          details: missing.slice(0, 50).map((n) => ({ field: 'chunk_number', message: 'missing', value: String(n) })),
        });
      }
      const totalSize = Number(session.total_size);
      const received = chunks.reduce((sum, chunk) => sum + Number(chunk.size), 0);
      if (received !== totalSize) {
        throw new AppError('SIZE_MISMATCH', `The chunks add up to ${received} bytes, not total_size ${totalSize}`);
      }

      await this.deps.tracks.addIntent(key);
      stored = true;
      const storage = this.deps.storage;
      const assembled = Readable.from(
        (async function* () {
          for (let n = 0; n < session.total_chunks; n++) yield* await storage.get(chunkKey(session.id, n));
        })(),
      );
      const inspector = createUploadInspector({ maxBytes: totalSize, overLimit: () => new AppError('SIZE_MISMATCH', 'The chunks changed during assembly') });
      assembled.on('error', (error) => inspector.stream.destroy(error));
      await storage.put(key, assembled.pipe(inspector.stream), { contentType: 'application/octet-stream' });
      const file = inspector.result();
      if (file.bytes !== totalSize) throw new AppError('SIZE_MISMATCH', `Assembled ${file.bytes} bytes, not total_size ${totalSize}`);
      const metadata = await this.probe(key, file.bytes);

      const track = await this.commitTrack(
        viewer,
        { trackId, key, bytes: file.bytes, md5: file.md5, metadata, title: null, isPublic: true, filename: session.filename },
        context,
        totalSize,
        (trx) => this.deps.sessions.remove(session.id, trx),
      );
      await this.deps.storage.deletePrefix(chunkPrefix(session.id)).catch((error: unknown) => {
        this.deps.logger.warn({ err: error, uploadId }, 'could not remove assembled chunks; the cleanup will retry');
      });
      return { track, md5: file.md5, contentType: CONTENT_TYPES[metadata.format] };
    } catch (error) {
      if (stored) await this.discard(key);
      await this.deps.sessions.release(session.id, this.deps.clock.now()).catch(() => undefined);
      throw error;
    }
  }

  /** Removes idle sessions with their chunks, and objects whose upload crashed. Safe to run on every instance. */
  async cleanup(): Promise<{ sessions: number; objects: number }> {
    const now = this.deps.clock.now();
    let sessions = 0;
    for (const id of await this.deps.sessions.idle(this.idleSince())) {
      await this.deps.storage.deletePrefix(chunkPrefix(id));
      await this.deps.sessions.remove(id);
      sessions++;
    }
    let objects = 0;
    for (const key of await this.deps.tracks.staleIntents(new Date(now.getTime() - INTENT_TTL_MS))) {
      if (!(await this.deps.tracks.fileInUse(key))) {
        await this.deps.storage.deletePrefix(`${path.posix.dirname(key)}/`);
        objects++;
      }
      await this.deps.tracks.removeIntent(key);
    }
    return { sessions, objects };
  }
}
