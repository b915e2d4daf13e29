import { randomUUID } from 'node:crypto';
import type { UserActor } from '../../platform/access/actor.js';
import { AppError, forbidden } from '../../platform/errors/app-error.js';
import { createUploadInspector } from './audio-probe.js';
import { toTrackDto } from './track.mapper.js';
import { canSeeQuota } from './tracks.policy.js';
import {
  quotaExceeded,
  trackKey,
  type IncomingForm,
  type UploadPipeline,
  type UploadPipelineDeps,
} from './upload-pipeline.js';

/** Room for multipart framing and the small text fields beside the file. */
const MULTIPART_OVERHEAD = 16 * 1024;

/** The text fields beside the file of an upload in one request, once checked. */
export interface UploadFields {
  /** null: none given (the tags or the file name give one). */
  title: string | null;
  is_public?: boolean | undefined;
}

export type UploadsServiceDeps = Pick<UploadPipelineDeps, 'tracks' | 'storage' | 'limits'> & {
  /** The quota arithmetic and the commit of a stored file, shared with chunked uploads. */
  pipeline: UploadPipeline;
};

/**
 * Uploads in one request, and the quota they count against. Bytes stream to storage (never whole
 * in memory) under generated keys; a failure leaves neither a file nor a row behind.
 */
export class UploadsService {
  constructor(private readonly deps: UploadsServiceDeps) {}

  private get pipeline() {
    return this.deps.pipeline;
  }

  /** Stored bytes of live originals and cloud files, and the space held by open chunked sessions. `idOrMe`: a user id, or 'me'. */
  async quota(actor: UserActor, idOrMe: string) {
    const userId = idOrMe === 'me' ? actor.id : idOrMe;
    if (!canSeeQuota(actor, userId)) throw forbidden('You can only see your own quota');
    // the same figures an upload is checked against: chunks already received are inside their session's reservation
    const { usedBytes, cloudBytes, reserved } = await this.pipeline.bytesHeld(userId);
    const { count } = await this.deps.tracks.liveOriginals(userId);
    const limit = (await this.pipeline.allowance(userId)).quotaBytes;
    return {
      quota: {
        used_bytes: usedBytes,
        cloud_bytes: cloudBytes,
        reserved_bytes: reserved,
        limit_bytes: limit,
        remaining_bytes: Math.max(0, limit - usedBytes - reserved),
        track_count: count,
      },
    };
  }

  /** The file streams to storage as it arrives; the track exists once it is stored, probed and within the quota. */
  upload(actor: UserActor, form: IncomingForm<UploadFields>) {
    return this.pipeline.track(this.receive(actor, form));
  }

  private async receive(actor: UserActor, form: IncomingForm<UploadFields>) {
    const { tracks, storage } = this.deps;
    const { maxFileBytes, quotaBytes } = await this.pipeline.allowed(actor.id);
    const declared = form.declaredBytes;
    // refused before the body is read when what the client declared cannot fit
    if (declared !== undefined && declared > maxFileBytes + MULTIPART_OVERHEAD) {
      throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxFileBytes} bytes`);
    }
    const room = await this.pipeline.room(actor.id, quotaBytes);
    if (declared !== undefined && declared > room + MULTIPART_OVERHEAD) throw quotaExceeded();

    const trackId = randomUUID();
    const key = trackKey(trackId);
    await tracks.addIntent(key);
    try {
      const { fields, file } = await form.receive(maxFileBytes, async (stream, info) => {
        const inspector = createUploadInspector({ maxBytes: room, overLimit: quotaExceeded });
        stream.on('error', (error) => inspector.stream.destroy(error));
        await storage.put(key, stream.pipe(inspector.stream));
        return { ...inspector.result(), filename: info.filename };
      });
      const metadata = await this.pipeline.probe(key, file.bytes);
      const track = await this.pipeline.commitTrack(
        actor,
        {
          trackId,
          key,
          bytes: file.bytes,
          md5: file.md5,
          metadata,
          title: fields.title,
          isPublic: fields.is_public ?? true,
          filename: file.filename,
        },
        0,
      );
      return { track: toTrackDto(track, actor) };
    } catch (error) {
      await this.pipeline.discard(key);
      throw error;
    }
  }
}
