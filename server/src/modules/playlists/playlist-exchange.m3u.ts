import * as m3u from 'm3u-parser-generator';
import {
  notThatFormat,
  oneLine,
  splitArtistTitle,
  type ExchangeEntry,
  type ExchangeTrack,
  type ParsedPlaylist,
} from './playlist-exchange.text.js';

// The package's declarations import their siblings without extensions, which NodeNext resolution
// cannot follow: the part of its API used here, typed as its documentation describes it.
interface M3uMedia {
  location: string;
  name?: string;
  artist?: string;
  duration: number;
}
interface M3uPlaylist {
  title: string;
  medias: M3uMedia[];
  getM3uString(): string;
}
const M3uParser = m3u.M3uParser as unknown as new () => { parse(text: string): M3uPlaylist };
const M3uPlaylist = m3u.M3uPlaylist as unknown as new () => M3uPlaylist;
const M3uMedia = m3u.M3uMedia as unknown as new (location: string) => M3uMedia;

const HEADER = '#EXTM3U';
const AUDIO_FILE = /\.[a-z0-9]{1,5}$/i;

/**
 * The parser (m3u-parser-generator) keeps no line numbers: it trims lines, drops blank ones and
 * takes every line not starting with '#' as the location that closes an entry. The same walk over
 * the same lines finds where each entry starts: its #EXTINF when it has one, else its location.
 */
function entryLines(lines: readonly string[]): number[] {
  const starts: number[] = [];
  let extinf: number | undefined;
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    if (line.startsWith('#')) {
      if (line.startsWith('#EXTINF') && extinf === undefined) extinf = index + 1;
      return;
    }
    starts.push(extinf ?? index + 1);
    extinf = undefined;
  });
  return starts;
}

/** "Artist - Title.mp3" at the end of a path, when the entry has no #EXTINF title. */
function fromFileName(location: string): { artist: string | null; title: string | null } {
  const last = location.split(/[/\\]/).pop() ?? '';
  if (!AUDIO_FILE.test(last)) return { artist: null, title: null };
  let name = last.replace(AUDIO_FILE, '');
  try {
    name = decodeURIComponent(name);
  } catch {
    // a stray % in a file name: keep the name as written
  }
  return splitArtistTitle(name.replaceAll('_', ' '));
}

/** M3U and extended M3U(8): a file without #EXTM3U is plain M3U, one location a line. */
export function parseM3u(content: string): ParsedPlaylist {
  const text = content.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  const first = lines.find((line) => line.trim() !== '')?.trim();
  if (first === undefined) throw notThatFormat('m3u', 'the file is empty');
  if (first.startsWith('<') || first.startsWith('{') || first.startsWith('['))
    throw notThatFormat('m3u', 'it looks like XML or JSON');
  const extended = first.startsWith(HEADER);
  let playlist: M3uPlaylist;
  try {
    playlist = new M3uParser().parse(extended ? text : `${HEADER}\n${text}`);
  } catch (error) {
    throw notThatFormat('m3u', error instanceof Error ? error.message : 'unreadable');
  }
  const starts = entryLines(lines);
  if (starts.length !== playlist.medias.length) throw notThatFormat('m3u', 'its entries could not be told apart');
  if (!extended && playlist.medias.length === 0) throw notThatFormat('m3u', 'it has neither #EXTM3U nor any entry');
  const entries = playlist.medias.map((media, index): ExchangeEntry => {
    const named = media.name ? splitArtistTitle(media.name) : fromFileName(media.location);
    let { artist, title } = named;
    const namedArtist = media.artist?.trim();
    if (namedArtist) {
      // #EXTART names the artist: the #EXTINF text is then the title, maybe still prefixed by it
      artist = namedArtist;
      const full = media.name?.trim() ?? '';
      title = full.toLowerCase().startsWith(`${namedArtist.toLowerCase()} - `)
        ? full.slice(namedArtist.length + 3).trim()
        : full || title;
    }
    return { line: starts[index]!, uris: [media.location], title: title || null, artist: artist || null };
  });
  return { title: playlist.title?.trim() || null, entries };
}

/** Extended M3U: #EXTM3U, #PLAYLIST, then #EXTINF:<seconds>,<artist> - <title> and the track's URL per track. */
export function writeM3u(title: string, tracks: readonly ExchangeTrack[]): string {
  const playlist = new M3uPlaylist();
  playlist.title = oneLine(title);
  for (const track of tracks) {
    const media = new M3uMedia(oneLine(track.location));
    media.duration = Number.isFinite(track.duration) && track.duration > 0 ? Math.round(track.duration) : -1;
    const name = oneLine(track.title);
    media.name = track.artist && oneLine(track.artist) ? `${oneLine(track.artist)} - ${name}` : name;
    playlist.medias.push(media);
  }
  return `${playlist.getM3uString().trimEnd()}\n`;
}
