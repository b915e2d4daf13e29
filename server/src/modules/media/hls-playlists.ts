import type { HlsVariant } from '@riff/contract';

export interface VariantStats {
  segments: number;
  /** Seconds, the sum of the segments' EXTINF. */
  duration: number;
  /** Peak segment bit rate, bits per second (BANDWIDTH). */
  bandwidth: number;
  /** Mean bit rate over the whole variant (AVERAGE-BANDWIDTH). */
  averageBandwidth: number;
}

export interface VariantEntries {
  /** The init segment (EXT-X-MAP URI). */
  map: string;
  segments: { uri: string; duration: number }[];
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The init segment and media segments of a variant playlist ffmpeg wrote; only plain file names are accepted. */
export function parseVariantPlaylist(text: string): VariantEntries {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  let map = 'init.mp4';
  let duration: number | undefined;
  const segments: VariantEntries['segments'] = [];
  for (const line of lines) {
    if (line.startsWith('#EXT-X-MAP:')) {
      const uri = /URI="([^"]+)"/.exec(line)?.[1];
      if (uri) map = uri;
    } else if (line.startsWith('#EXTINF:')) {
      duration = Number.parseFloat(line.slice('#EXTINF:'.length));
    } else if (line && !line.startsWith('#')) {
      segments.push({ uri: line, duration: duration ?? 0 });
      duration = undefined;
    }
  }
  for (const name of [map, ...segments.map((segment) => segment.uri)]) {
    if (!SAFE_NAME.test(name)) throw new Error(`unexpected file name in an HLS playlist: ${name}`);
  }
  return { map, segments };
}

/** master.m3u8: one EXT-X-STREAM-INF per variant, highest first (where players start). */
export function masterPlaylist(variants: (VariantStats & { variant: HlsVariant })[], codecs: string): string {
  const ordered = [...variants].sort((a, b) => b.bandwidth - a.bandwidth);
  return [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    ...ordered.flatMap((variant) => [
      `#EXT-X-STREAM-INF:BANDWIDTH=${variant.bandwidth},AVERAGE-BANDWIDTH=${variant.averageBandwidth},CODECS="${codecs}"`,
      `${variant.variant}/index.m3u8`,
    ]),
    '',
  ].join('\n');
}

/**
 * The playlist with `query` added to every URI it names (child playlists, the init segment,
 * segments): the generation, and on a private track the credential a plain HLS player sends on.
 */
export function withQuery(playlist: string, query: Record<string, string>): string {
  const extra = new URLSearchParams(query).toString();
  if (!extra) return playlist;
  const add = (uri: string) => `${uri}${uri.includes('?') ? '&' : '?'}${extra}`;
  return playlist
    .split('\n')
    .map((line) => {
      const trimmed = line.trim();
      if (!trimmed) return line;
      if (trimmed.startsWith('#')) return line.replace(/URI="([^"]+)"/g, (_whole, uri: string) => `URI="${add(uri)}"`);
      return add(trimmed);
    })
    .join('\n');
}
