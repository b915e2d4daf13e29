import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { InitiateChunkedUploadRequest } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import { isForeignKeyViolation } from '../../platform/db/db-errors.js';
import {
  AppError,
  conflict,
  fieldIssue,
  limitReached,
  notFound,
  validationFailed,
} from '../../platform/errors/app-error.js';
import { CONTENT_TYPES, createUploadInspector, sniffFormat, type InspectedUpload } from './audio-probe.js';
import type { RunningDigests } from './running-digests.js';
import { toTrackDto } from './track.mapper.js';
import {
  chunkPrefix,
  quotaExceeded,
  trackKey,
  type IncomingForm,
  type UploadPipeline,
  type UploadPipelineDeps,
} from './upload-pipeline.js';
import type { UploadSessionRow } from './upload-sessions.repository.js';

/** Open chunked sessions one user may hold at a time (the next is 400 LIMIT_REACHED). */
export const MAX_OPEN_SESSIONS = 20;

/** The text fields sent with each chunk, once checked. */
export interface ChunkFields {
  upload_id: string;
  chunk_number: number;
  total_chunks: number;
  total_size: number;
  filename: string;
}

export const chunkKey = (uploadId: string, chunkNumber: number) => `uploads/${uploadId}/${chunkNumber}`;
/** Where a chunk lands while its form is still arriving: its fields may come after it. */
const stagingKey = () => `staging/${randomUUID()}/chunk`;
const beingCompleted = () => conflict('This upload is being completed');

export type ChunkedUploadsServiceDeps = Pick<
  UploadPipelineDeps,
  'scope' | 'tracks' | 'sessions' | 'storage' | 'events' | 'clock' | 'logger' | 'limits' | 'people'
> & {
  /** The quota arithmetic and the commit of a stored file, shared with uploads in one request. */
  pipeline: UploadPipeline;
  /** The digest of the chunks received so far, kept as they arrive (stored under chunkKey). */
  digests: RunningDigests;
};

/**
 * Resumable uploads: a session reserves its declared size of the quota, chunks arrive in any
 * order (each may be sent again), and completing assembles them into one track.
 */
export class ChunkedUploadsService {
  constructor(private readonly deps: ChunkedUploadsServiceDeps) {}

  private get pipeline() {
    return this.deps.pipeline;
  }

  private get digests() {
    return this.deps.digests;
  }

  async initiate(actor: UserActor, input: InitiateChunkedUploadRequest) {
    const { maxChunks, maxChunkBytes, sessionTtlMs } = this.deps.limits;
    const { scope, sessions, events, clock } = this.deps;
    const { maxFileBytes } = await this.pipeline.allowed(actor.id);
    const invalid = (field: string, message: string) =>
      validationFailed(message, [fieldIssue(field, message, String(input[field as keyof typeof input]))]);
    if (input.total_chunks > maxChunks) throw invalid('total_chunks', `at most ${maxChunks} chunks`);
    if (input.total_size > maxFileBytes)
      throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxFileBytes} bytes`);
    if (input.total_size > input.total_chunks * maxChunkBytes)
      throw new AppError('PAYLOAD_TOO_LARGE', `Chunks are at most ${maxChunkBytes} bytes: use more chunks`);
    if (input.total_size < input.total_chunks) throw invalid('total_size', 'every chunk needs at least one byte');
    const id = randomUUID();
    await scope.transaction(async () => {
      await this.deps.people.lockAccount(actor.id);
      if ((await sessions.openCount(actor.id, this.pipeline.idleSince())) >= MAX_OPEN_SESSIONS) {
        throw limitReached(
          `At most ${MAX_OPEN_SESSIONS} chunked uploads may be open at once: complete or cancel one first`,
        );
      }
      const held = await this.pipeline.bytesHeld(actor.id);
      const { quotaBytes } = await this.pipeline.allowance(actor.id);
      if (held.usedBytes + held.reserved + input.total_size > quotaBytes) throw quotaExceeded();
      await sessions.create({
        id,
        userId: actor.id,
        filename: input.filename,
        totalChunks: input.total_chunks,
        totalSize: input.total_size,
      });
      await events.record(actor, 'track.upload_started', {
        subject: { resource: 'upload', id },
        data: { total_size: input.total_size },
      });
    });
    return {
      upload_id: id,
      message: `Send chunks 0 to ${input.total_chunks - 1} to POST /tracks/chunk, then POST /tracks/complete`,
      chunk_size_limit: maxChunkBytes,
      expires_at: new Date(clock.now().getTime() + sessionTtlMs).toISOString(),
    };
  }

  /** The caller's live session; another user's is 404, as if it did not exist. */
  private async session(actor: UserActor, uploadId: string): Promise<UploadSessionRow> {
    const session = await this.deps.sessions.find(uploadId, actor.id, this.pipeline.idleSince());
    if (!session) throw notFound('Upload session');
    return session;
  }

  chunk(actor: UserActor, form: IncomingForm<ChunkFields>) {
    return this.pipeline.track(this.receiveChunk(actor, form));
  }

  /**
   * The chunk streams to a staging key at once (its fields may come after it); when the form has
   * ended, the fields are checked against the session and the chunk moves into place.
   */
  private async receiveChunk(actor: UserActor, form: IncomingForm<ChunkFields>) {
    const { maxChunkBytes } = this.deps.limits;
    const { scope, tracks, sessions, storage, clock } = this.deps;
    await this.pipeline.allowed(actor.id);
    const staging = stagingKey();
    await tracks.addIntent(staging);
    try {
      const { fields: input, file } = await form.receive(maxChunkBytes, async (stream) => {
        const inspector = createUploadInspector({
          maxBytes: maxChunkBytes,
          sniff: false,
          hash: false,
          overLimit: () => new AppError('PAYLOAD_TOO_LARGE', `The chunk is larger than ${maxChunkBytes} bytes`),
        });
        stream.on('error', (error) => inspector.stream.destroy(error));
        await storage.put(staging, stream.pipe(inspector.stream));
        return inspector.count();
      });
      const session = await this.session(actor, input.upload_id);
      if (session.state !== 'active') throw beingCompleted();
      const mismatch = (['total_chunks', 'total_size', 'filename'] as const).find(
        (field) => String(session[field]) !== String(input[field]),
      );
      if (mismatch) {
        throw validationFailed(`${mismatch} does not match the upload session`, [
          fieldIssue(mismatch, 'does not match the session', String(input[mismatch])),
        ]);
      }
      if (input.chunk_number >= session.total_chunks) {
        throw validationFailed(`chunk_number must be from 0 to ${session.total_chunks - 1}`, [
          fieldIssue('chunk_number', 'out of range', String(input.chunk_number)),
        ]);
      }
      if (file.bytes === 0) throw validationFailed('The chunk is empty');
      const others = (await sessions.chunks(session.id)).filter((chunk) => chunk.chunk_number !== input.chunk_number);
      const room = Number(session.total_size) - others.reduce((sum, chunk) => sum + Number(chunk.size), 0);
      if (file.bytes > room) throw validationFailed('The chunks would add up to more than total_size');

      const key = chunkKey(session.id, input.chunk_number);
      await storage.move(staging, key);
      let received: number;
      try {
        received = await scope.transaction(() =>
          sessions.saveChunk(session.id, input.chunk_number, file.bytes, clock.now()),
        );
      } catch (error) {
        // the session was completed, cancelled or expired meanwhile: its chunks are going
        await storage.delete(key).catch(() => undefined);
        if (isForeignKeyViolation(error)) throw notFound('Upload session');
        throw error;
      }
      await tracks.removeIntent(staging);
      // hashed while the next chunk arrives, if the ones before it are in: complete need not read it again
      void this.pipeline.track(this.digests.chunkStored(session.id, session.total_chunks));
      const progress = Math.round((received / session.total_chunks) * 10_000) / 100;
      return {
        upload_id: session.id,
        chunk_number: input.chunk_number,
        received_chunks: received,
        progress,
        message:
          received === session.total_chunks
            ? 'All chunks received: POST /tracks/complete'
            : `Chunk ${input.chunk_number} stored`,
      };
    } catch (error) {
      await this.pipeline.discard(staging);
      throw error;
    }
  }

  /** Cancels the caller's chunked session: its chunks go and its reservation is freed. */
  async cancel(actor: UserActor, uploadId: string) {
    const { scope, sessions, storage, events, logger } = this.deps;
    const session = await this.session(actor, uploadId);
    if (session.state !== 'active') throw beingCompleted();
    // the row goes first: a chunk arriving meanwhile then fails to save and removes itself
    await scope.transaction(async () => {
      await sessions.remove(session.id);
      this.digests.forget(session.id);
      await events.record(actor, 'track.upload_cancelled', {
        subject: { resource: 'upload', id: session.id },
        data: {},
      });
    });
    await storage.deletePrefix(chunkPrefix(session.id)).catch((error: unknown) => {
      logger.warn({ err: error, uploadId }, 'could not remove cancelled chunks; the cleanup will retry');
    });
    return { message: 'Upload cancelled' };
  }

  async resume(actor: UserActor, uploadId: string) {
    const session = await this.session(actor, uploadId);
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

  complete(actor: UserActor, uploadId: string) {
    return this.pipeline.track(this.assemble(actor, uploadId));
  }

  private async assemble(actor: UserActor, uploadId: string) {
    const { sessions, tracks, storage, clock, logger } = this.deps;
    const session = await this.session(actor, uploadId);
    await this.pipeline.allowed(actor.id);
    if (!(await sessions.claimForAssembly(session.id))) throw conflict('This upload is already being completed');
    const trackId = randomUUID();
    const key = trackKey(trackId);
    let stored = false;
    try {
      const chunks = await sessions.chunks(session.id);
      const have = new Set(chunks.map((chunk) => chunk.chunk_number));
      const missing = Array.from({ length: session.total_chunks }, (_, n) => n).filter((n) => !have.has(n));
      if (missing.length > 0) {
        throw new AppError('UPLOAD_INCOMPLETE', `${missing.length} chunk(s) missing`, {
          details: missing.slice(0, 50).map((n) => fieldIssue('chunk_number', 'missing', String(n))),
        });
      }
      const totalSize = Number(session.total_size);
      const received = chunks.reduce((sum, chunk) => sum + Number(chunk.size), 0);
      if (received !== totalSize) {
        throw new AppError('SIZE_MISMATCH', `The chunks add up to ${received} bytes, not total_size ${totalSize}`);
      }

      await tracks.addIntent(key);
      stored = true;
      const inspector = createUploadInspector({
        maxBytes: totalSize,
        overLimit: () => new AppError('SIZE_MISMATCH', 'The chunks changed during assembly'),
      });
      const sources = Array.from({ length: session.total_chunks }, (_, n) => chunkKey(session.id, n));
      let file: InspectedUpload;
      if (storage.concat) {
        // copied inside the store (each byte written once more, by the kernel); the md5 is the one
        // computed as the chunks came when they are still the files hashed, else the stored file read back
        await storage.concat(sources, key);
        const md5 = await this.digests.digest(session.id, session.total_chunks);
        if (md5) {
          file = await this.storedFile(key, md5);
        } else {
          await this.pipeline.readBack(key, inspector.inspect);
          file = inspector.result();
        }
      } else {
        const assembled = Readable.from(
          (async function* () {
            for (const source of sources) yield* await storage.get(source);
          })(),
        );
        assembled.on('error', (error) => inspector.stream.destroy(error));
        await storage.put(key, assembled.pipe(inspector.stream), { contentType: 'application/octet-stream' });
        file = inspector.result();
      }
      if (file.bytes !== totalSize)
        throw new AppError('SIZE_MISMATCH', `Assembled ${file.bytes} bytes, not total_size ${totalSize}`);
      const metadata = await this.pipeline.probe(key, file.bytes);

      const track = await this.pipeline.commitTrack(
        actor,
        {
          trackId,
          key,
          bytes: file.bytes,
          md5: file.md5,
          metadata,
          title: null,
          isPublic: true,
          filename: session.filename,
        },
        totalSize,
        () => sessions.remove(session.id),
      );
      this.digests.forget(session.id);
      await storage.deletePrefix(chunkPrefix(session.id)).catch((error: unknown) => {
        logger.warn({ err: error, uploadId }, 'could not remove assembled chunks; the cleanup will retry');
      });
      return { track: toTrackDto(track, actor), md5: file.md5, contentType: CONTENT_TYPES[metadata.format] };
    } catch (error) {
      if (stored) await this.pipeline.discard(key);
      await sessions.release(session.id, clock.now()).catch(() => undefined);
      throw error;
    }
  }

  /** Size and format of a stored file whose md5 is known. */
  private async storedFile(key: string, md5: string): Promise<InspectedUpload> {
    const { storage } = this.deps;
    const bytes = (await storage.size(key)) ?? 0;
    const chunks: Buffer[] = [];
    if (bytes > 0)
      for await (const chunk of await storage.get(key, { start: 0, end: Math.min(bytes, 12) - 1 }))
        chunks.push(chunk as Buffer);
    const format = sniffFormat(Buffer.concat(chunks));
    if (!format) throw new AppError('INVALID_AUDIO', 'The file is not MP3, WAV, FLAC or OGG audio');
    return { bytes, md5, format };
  }
}
