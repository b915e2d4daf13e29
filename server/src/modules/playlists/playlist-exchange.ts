import { PLAYLIST_MAX_TRACKS, type PlaylistExchangeFormat } from '@riff/contract';
import { limitReached } from '../../platform/errors/app-error.js';
import { parseM3u, writeM3u } from './playlist-exchange.m3u.js';
import type { ExchangeTrack, ParsedPlaylist } from './playlist-exchange.text.js';
import { parseXspf, writeXspf } from './playlist-exchange.xspf.js';

export type { ExchangeEntry, ExchangeTrack, ParsedPlaylist } from './playlist-exchange.text.js';

/** Parses the file's text in the format the caller named; 400 when it is not that format or has too many entries. */
export function parsePlaylist(format: PlaylistExchangeFormat, text: string): ParsedPlaylist {
  const parsed = format === 'm3u' ? parseM3u(text) : parseXspf(text);
  if (parsed.entries.length > PLAYLIST_MAX_TRACKS) {
    throw limitReached(
      `A playlist holds at most ${PLAYLIST_MAX_TRACKS} tracks; the file has ${parsed.entries.length} entries`,
    );
  }
  return parsed;
}

export function writePlaylist(format: PlaylistExchangeFormat, title: string, tracks: readonly ExchangeTrack[]): string {
  return format === 'm3u' ? writeM3u(title, tracks) : writeXspf(title, tracks);
}

export const EXCHANGE_CONTENT_TYPES: Record<PlaylistExchangeFormat, string> = {
  m3u: 'audio/x-mpegurl; charset=utf-8',
  xspf: 'application/xspf+xml; charset=utf-8',
};

const EXTENSIONS: Record<PlaylistExchangeFormat, string> = { m3u: 'm3u8', xspf: 'xspf' };

/**
 * Content-Disposition for the file: an ASCII name without quotes, slashes or control characters
 * (a header never carries what a browser could read as a path), plus the UTF-8 name per RFC 6266.
 */
export function attachmentDisposition(title: string, format: PlaylistExchangeFormat): string {
  const base =
    title
      .normalize('NFC')
      .replace(/[\p{Cc}\p{Cf}/\\:*?"<>|]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 100) || 'playlist';
  const ascii =
    base
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/[%;]/g, '')
      .trim() || 'playlist';
  const name = `${base}.${EXTENSIONS[format]}`;
  return `attachment; filename="${ascii}.${EXTENSIONS[format]}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
