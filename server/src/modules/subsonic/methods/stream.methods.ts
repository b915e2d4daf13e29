import type { IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import type { UserActor } from '../../../platform/access/actor.js';
import { AppError } from '../../../platform/errors/app-error.js';
import {
  startTranscode,
  TRANSCODE_FORMATS,
  MIN_TRANSCODE_KBPS,
  TranscodeError,
  type TranscodeFormat,
  type TranscodeSlots,
} from '../../../platform/media/live-transcode.js';
import type { StreamReply } from '../../tracks/track-streaming.js';
import type { PlayableTrack, TrackAudio } from '../../tracks/track-audio.js';
import { SUBSONIC_ERROR, SubsonicError, invalidParameter, notFoundError } from '../rest-error.js';
import { method, REPLIED, type SubsonicMethod } from '../rest-methods.js';
import type { SubsonicParams } from '../rest-params.js';

export interface StreamMethodsDeps {
  /** The tracks area's audio: who may play a track, its original as /tracks/{id}/stream serves it, its bytes. */
  audio: TrackAudio;
  /** The users area's blocks: nothing of a user who blocked the caller or whom they blocked. */
  blockedEitherWay(a: string, b: string): Promise<boolean>;
  ffmpegPath: string;
  /** TRANSCODE_CONCURRENCY: the transcodes this process runs at once. */
  slots: TranscodeSlots;
  logger: Logger;
}

/** `format` as players send it: `ogg` (DSub, the subsonic-api client) means opus in ogg here. */
const FORMATS = new Map<string, 'raw' | TranscodeFormat>([
  ['raw', 'raw'],
  ['mp3', 'mp3'],
  ['opus', 'opus'],
  ['ogg', 'opus'],
  ['aac', 'aac'],
]);

/** Padding for an estimated length the transcode fell short of: zeros, which every decoder here skips as it seeks its next frame. */
const PADDING = Buffer.alloc(64 * 1024);

const serverBusy = () =>
  new SubsonicError(SUBSONIC_ERROR.generic, 'Server busy: too many transcodes at once, try again in a moment', {
    'Retry-After': '2',
  });

/** `raw`, or the format and bit rate to transcode to: `format` wins; a bit rate alone means mp3; neither, the original. */
function plan(params: SubsonicParams): { format: 'raw' } | { format: TranscodeFormat; kbps: number } {
  const asked = params.get('format')?.toLowerCase() || undefined;
  const format = asked === undefined ? undefined : FORMATS.get(asked);
  if (asked !== undefined && format === undefined) throw invalidParameter('format', 'raw, mp3, opus, ogg or aac');
  // 0 is Subsonic's "no limit"
  const maxBitRate = params.int('maxBitRate', 0, { min: 0, max: 100_000 });
  if (format === 'raw' || (format === undefined && maxBitRate === 0)) return { format: 'raw' };
  const chosen = format ?? 'mp3';
  const kbps = maxBitRate === 0 ? TRANSCODE_FORMATS[chosen].defaultKbps : maxBitRate;
  return { format: chosen, kbps: Math.min(TRANSCODE_FORMATS[chosen].maxKbps, Math.max(MIN_TRANSCODE_KBPS, kbps)) };
}

/** `timeOffset`: seconds, whole or with a fraction (OpenSubsonic transcodeOffset). */
function offsetOf(params: SubsonicParams): number {
  const value = params.get('timeOffset');
  if (value === undefined || value === '') return 0;
  if (!/^\d{1,6}(\.\d{1,3})?$/.test(value)) throw invalidParameter('timeOffset', 'a number of seconds, 0 or more');
  return Number(value);
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** A closed response (the client went away) as a signal, for the waits before the first byte. */
function closedSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (res.closed) controller.abort();
  else res.once('close', () => controller.abort());
  return controller.signal;
}

/** Writes the original's reply; a client that goes away mid-file just ends it. */
async function sendOriginal(res: ServerResponse, reply: StreamReply): Promise<void> {
  res.statusCode = reply.status;
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  // the URL holds the caller's credentials: no cache keeps it, whatever the track's own rule
  res.setHeader('Cache-Control', 'no-store');
  if (reply.body === undefined || Buffer.isBuffer(reply.body)) {
    res.end(reply.body);
    return;
  }
  await pipeline(reply.body, res).catch(() => res.destroy());
}

/** The bytes of `source`, cut or padded with zeros to exactly `length` (estimateContentLength promised that many). */
async function* fitTo(source: AsyncIterable<Buffer>, length: number): AsyncGenerator<Buffer> {
  let sent = 0;
  for await (const chunk of source) {
    const part = chunk.length > length - sent ? chunk.subarray(0, length - sent) : chunk;
    sent += part.length;
    yield part;
    if (sent >= length) return;
  }
  while (sent < length) {
    const part = PADDING.subarray(0, Math.min(PADDING.length, length - sent));
    sent += part.length;
    yield part;
  }
}

/**
 * Writes `source` to the reply at the client's pace: the next chunk is read only once the last one
 * was taken (so ffmpeg, behind its pipe, waits too). Rejects when the client goes away.
 */
async function pump(source: AsyncIterable<Buffer>, res: ServerResponse, gone: AbortSignal): Promise<void> {
  for await (const chunk of source) {
    if (gone.aborted) throw new Error('the client went away');
    if (!res.write(chunk)) await once(res, 'drain', { signal: gone });
  }
  // a killed ffmpeg ends its output too: that is no end of the song
  if (gone.aborted) throw new Error('the client went away');
  res.end();
}

/** Media retrieval: stream (the original, or transcoded on the fly) and download (the original). */
export function streamMethods(deps: StreamMethodsDeps): SubsonicMethod[] {
  const { audio } = deps;

  /** A track the caller may play: as /tracks/{id}/stream allows it, and nothing of a blocked user (70 otherwise). */
  async function playable(actor: UserActor, params: SubsonicParams): Promise<PlayableTrack> {
    const track = await audio.playable(actor, params.required('id'));
    if (track.creatorId !== actor.id && (await deps.blockedEitherWay(actor.id, track.creatorId))) {
      throw notFoundError('Track');
    }
    return track;
  }

  async function original(
    actor: UserActor,
    track: PlayableTrack,
    http: { req: IncomingMessage; res: ServerResponse },
    disposition: 'inline' | 'attachment',
  ): Promise<typeof REPLIED> {
    const request = {
      range: header(http.req, 'range'),
      ifNoneMatch: header(http.req, 'if-none-match'),
      ifRange: header(http.req, 'if-range'),
    };
    try {
      await sendOriginal(http.res, await audio.original(actor, track, request, disposition));
    } catch (error) {
      // a player seeking past the end reads HTTP, not a subsonic-response
      if (!(error instanceof AppError) || error.status !== 416) throw error;
      http.res.writeHead(416, error.headers).end();
    }
    return REPLIED;
  }

  async function transcode(
    track: PlayableTrack,
    target: { format: TranscodeFormat; kbps: number },
    options: { offset: number; estimate: boolean },
    http: { req: IncomingMessage; res: ServerResponse },
  ): Promise<typeof REPLIED> {
    const { req, res } = http;
    const remaining = Math.max(0, track.duration - options.offset);
    const length = Math.ceil((remaining * target.kbps * 1000) / 8);
    const headers: Record<string, string> = {
      'Content-Type': TRANSCODE_FORMATS[target.format].contentType,
      // made as it is sent: no byte ranges (timeOffset seeks instead)
      'Accept-Ranges': 'none',
      ...(options.estimate ? { 'Content-Length': String(length) } : {}),
    };
    if (req.method === 'HEAD') {
      res.writeHead(200, headers).end();
      return REPLIED;
    }
    const gone = closedSignal(res);
    const release = await deps.slots.acquire(gone);
    if (!release) {
      if (gone.aborted) return REPLIED;
      throw serverBusy();
    }
    let live: Awaited<ReturnType<typeof startTranscode>>;
    try {
      live = await startTranscode({
        ffmpegPath: deps.ffmpegPath,
        input: await audio.source(track),
        format: target.format,
        kbps: target.kbps,
        offsetSeconds: options.offset,
      });
    } catch (error) {
      release();
      if (!(error instanceof TranscodeError)) throw error;
      deps.logger.warn(
        { trackId: track.id, detail: error.detail },
        'a Subsonic transcode failed before its first byte',
      );
      throw new SubsonicError(SUBSONIC_ERROR.generic, error.message);
    }
    // the slot is the process: it is free again once ffmpeg has exited
    void live.exited.then(release);
    // a client that goes away stops its ffmpeg at once
    if (gone.aborted) {
      live.stop();
      return REPLIED;
    }
    gone.addEventListener('abort', live.stop, { once: true });
    res.writeHead(200, headers);
    try {
      await pump(options.estimate ? fitTo(live.output, length) : live.output, res, gone);
    } catch {
      res.destroy();
    } finally {
      // done, cut to the estimate, or the client gone: nothing of ffmpeg outlives the reply
      live.stop();
    }
    return REPLIED;
  }

  return [
    // the original (format raw, or neither format nor maxBitRate) with Range, or a transcode made as it is
    // sent; a play is not counted here (scrobble counts it, as players call it when a song was heard)
    method({
      name: 'stream',
      needs: 'read',
      handle: async ({ actor, params, http }) => {
        const target = plan(params);
        const offset = offsetOf(params);
        const estimate = params.boolean('estimateContentLength', false);
        const track = await playable(actor, params);
        if (target.format === 'raw') return original(actor, track, http, 'inline');
        return transcode(track, target, { offset, estimate }, http);
      },
    }),
    // the original as an attachment, where /tracks/{id}/download allows it (counted there as a download)
    method({
      name: 'download',
      needs: 'read',
      handle: async ({ actor, params, http }) => original(actor, await playable(actor, params), http, 'attachment'),
    }),
  ];
}
