/** A key as a pitch class (0 = C … 11 = B) and a mode. */
export interface MusicKey {
  pitch: number;
  minor: boolean;
}

const LETTERS: Record<string, number> = { c: 0, d: 2, e: 4, f: 5, g: 7, a: 9, b: 11 };
// Camelot wheel: 8B is C major, 8A is A minor; each step adds a fifth
const camelotPitch = (number: number, minor: boolean) => ((number - 8) * 7 + (minor ? 9 : 0) + 120) % 12;

/** Reads "C", "Am", "F#m", "Bb major", "c# minor", "Ebmin", or Camelot "8A"; undefined for anything else. */
export function parseKey(text: string | null | undefined): MusicKey | undefined {
  if (!text) return undefined;
  const value = text.trim().toLowerCase().replace(/♯/g, '#').replace(/♭/g, 'b');
  const camelot = /^(1[0-2]|[1-9])\s*([ab])$/.exec(value);
  if (camelot) {
    const minor = camelot[2] === 'a';
    return { pitch: camelotPitch(Number(camelot[1]), minor), minor };
  }
  const match = /^([a-g])\s*([#b]?)\s*(m|min|minor|maj|major|)$/.exec(value);
  if (!match) return undefined;
  const base = LETTERS[match[1]!]!;
  const shift = match[2] === '#' ? 1 : match[2] === 'b' ? -1 : 0;
  return { pitch: (base + shift + 12) % 12, minor: ['m', 'min', 'minor'].includes(match[3]!) };
}

/**
 * Harmonic mixing's compatible keys: the same key, its relative major or minor (the same Camelot
 * number), and the neighbours a fifth up or down in the same mode (one Camelot step).
 */
export function compatibleKeys(a: MusicKey | undefined, b: MusicKey | undefined): boolean {
  if (!a || !b) return false;
  if (a.minor === b.minor) {
    const distance = (b.pitch - a.pitch + 12) % 12;
    return distance === 0 || distance === 7 || distance === 5;
  }
  const major = a.minor ? b : a;
  const minor = a.minor ? a : b;
  return (major.pitch + 9) % 12 === minor.pitch;
}
