import type { PlaylistExchangeFormat } from '@riff/contract';
import { fieldIssue, validationFailed } from '../../platform/errors/app-error.js';

/** One entry of an imported file, before it is matched to a track. */
export interface ExchangeEntry {
  /** Where the entry starts in the file, from 1 (M3U: its #EXTINF line, else its location; XSPF: its <track>). */
  line: number;
  /** Every URI the entry names (locations, then identifiers): a Riff track URL or id among them matches directly. */
  uris: string[];
  title: string | null;
  artist: string | null;
}

export interface ParsedPlaylist {
  title: string | null;
  entries: ExchangeEntry[];
}

/** What an exported file says about one track. */
export interface ExchangeTrack {
  /** Absolute URL a player can open (the stream). */
  location: string;
  /** Absolute URL of the track's resource in the API: its canonical identifier. */
  identifier: string;
  title: string;
  artist: string | null;
  album: string | null;
  /** Seconds. */
  duration: number;
}

export const notThatFormat = (format: PlaylistExchangeFormat, why: string) =>
  validationFailed(`content is not ${format === 'm3u' ? 'an M3U' : 'an XSPF'} playlist: ${why}`, [
    fieldIssue('content', why),
  ]);

/** "Artist - Title", the usual display form in M3U files and file names. */
export function splitArtistTitle(text: string): { artist: string | null; title: string | null } {
  const value = text.trim();
  if (value === '') return { artist: null, title: null };
  const separator = value.indexOf(' - ');
  if (separator <= 0) return { artist: null, title: value };
  const artist = value.slice(0, separator).trim();
  const title = value.slice(separator + 3).trim();
  return artist && title ? { artist, title } : { artist: null, title: value };
}

/** Text without line breaks or control characters, for one line of a file. */
export const oneLine = (text: string) =>
  text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
