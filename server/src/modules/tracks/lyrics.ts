export interface LyricLine {
  time_ms: number;
  text: string;
}

const TIMESTAMP = /\[(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?\]/g;
const OFFSET = /^\[offset:\s*([+-]?\d+)\s*\]$/i;

/**
 * Reads LRC: lines carrying one or more [mm:ss.xx] stamps become timed lines (sorted); an
 * [offset:±ms] tag shifts them. Content with no stamped line is plain text (null).
 */
export function parseLrc(content: string): LyricLine[] | null {
  const lines: LyricLine[] = [];
  let offset = 0;
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.trim();
    const offsetTag = OFFSET.exec(line);
    if (offsetTag) {
      offset = Number(offsetTag[1]);
      continue;
    }
    const stamps = [...line.matchAll(TIMESTAMP)];
    if (stamps.length === 0 || line.indexOf(stamps[0]![0]) !== 0) continue;
    const text = line.replace(TIMESTAMP, '').trim();
    for (const stamp of stamps) {
      const fraction = stamp[3] ? Number(stamp[3].padEnd(3, '0')) : 0;
      const ms = (Number(stamp[1]) * 60 + Number(stamp[2])) * 1000 + fraction;
      lines.push({ time_ms: Math.max(0, ms - offset), text });
    }
  }
  if (lines.length === 0) return null;
  return lines.sort((a, b) => a.time_ms - b.time_ms);
}
