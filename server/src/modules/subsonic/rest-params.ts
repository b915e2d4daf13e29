import { SUBSONIC_ERROR, SubsonicError, invalidParameter, missingParameter } from './rest-error.js';

/**
 * The parameters of one Subsonic call: the query string and, for a form POST (OpenSubsonic formPost),
 * the body, in that order. A name may repeat (`songId` for each song): `all` reads every value.
 * Parsed with URLSearchParams, not the API's query parser, so `a[b]=c` stays a plain name.
 */
export class SubsonicParams {
  private constructor(private readonly values: ReadonlyMap<string, readonly string[]>) {}

  /** From the raw query string (without `?`) and a form body, if any. */
  static parse(query: string, form?: string): SubsonicParams {
    const values = new Map<string, string[]>();
    for (const source of [query, form ?? '']) {
      for (const [name, value] of new URLSearchParams(source)) {
        // PostgreSQL cannot store NUL, and no Subsonic value needs one
        if (name.includes('\u0000') || value.includes('\u0000')) {
          throw new SubsonicError(SUBSONIC_ERROR.generic, 'Parameters must not contain NUL characters');
        }
        const list = values.get(name);
        if (list) list.push(value);
        else values.set(name, [value]);
      }
    }
    return new SubsonicParams(values);
  }

  /** Whether the parameter was sent (even empty). */
  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The first value, if sent. */
  get(name: string): string | undefined {
    return this.values.get(name)?.[0];
  }

  /** Every value, in the order sent. */
  all(name: string): readonly string[] {
    return this.values.get(name) ?? [];
  }

  /** The first value; missing or empty is error 10. */
  required(name: string): string {
    const value = this.get(name);
    if (value === undefined || value === '') throw missingParameter(name);
    return value;
  }

  /** An integer within [min, max]; absent gives `fallback`, anything else error 0. */
  int(name: string, fallback: number, { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = {}): number {
    const value = this.get(name);
    if (value === undefined || value === '') return fallback;
    if (!/^-?\d{1,15}$/.test(value)) throw invalidParameter(name, 'a whole number');
    const number = Number(value);
    if (number < min || number > max) throw invalidParameter(name, `between ${min} and ${max}`);
    return number;
  }

  /** `true` or `false` (any case); absent gives `fallback`, anything else error 0. */
  boolean(name: string, fallback: boolean): boolean {
    const value = this.get(name)?.toLowerCase();
    if (value === undefined || value === '') return fallback;
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw invalidParameter(name, 'true or false');
  }
}
