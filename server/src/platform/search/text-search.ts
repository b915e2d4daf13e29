import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The one search engine behind /search, /tracks/search, /users/search, /playlists/search and the
 * product `q`, over the functions and indexes of
 * migration 0015. A document is `riff_doc(a, b, c)`: the fields in their normal form (lower case,
 * no accents). It matches a query when
 *   - its tsvector matches websearch_to_tsquery of the query (quotes, `or`, `-word`), or
 *   - every word of the query is in it: as a whole token, or (words of 3 characters or more) as a
 *     substring or within typo distance (pg_trgm word similarity ≥ 0.5, so "metalica" finds "Metallica").
 * Every arm is served by the document's GIN indexes; a word without three letters or digits in a
 * row matches whole tokens only, as it has no trigram to look up ("a" as a substring would read every row). Punctuation separates words; `%` and `_` are never wildcards.
 */
export interface TextQuery {
  /** The query in its normal form, words separated by one space. */
  readonly phrase: string;
  /** The document matches (indexes: `<table>_search_tsv` and `<table>_search_trgm`). */
  matches(doc: RawBuilder<string>, options?: { tokens: boolean }): RawBuilder<SqlBool>;
  /**
   * How well it matches, best first: 0 a name equals the query, 1 starts with it, 2 holds it,
   * 3 holds every word, 4 the document holds every word, 5 a typo away.
   */
  tier(names: RawBuilder<string>[], doc: RawBuilder<string>): RawBuilder<number>;
  /** ts_rank of the document for the query, then how close its best-matching part is (for ties within a tier). */
  closeness(doc: RawBuilder<string>): RawBuilder<number>;
}

const MAX_WORDS = 10;
/** A word without 3 letters or digits in a row matches whole tokens only: it has no trigram to look up. */
const HAS_TRIGRAM = /[\p{L}\p{N}]{3}/u;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** A word the tsvector parser reads as the same single token: letters and digits only. */
const PLAIN_WORD = /^[\p{L}\p{N}]+$/u;

/**
 * A phrase of plain words only (no quotes, no `or`, no `-word`, no punctuation inside a word): what
 * websearch_to_tsquery makes of it (every word as a token) is contained in what "every word is in
 * it" matches, so that arm alone gives the same rows, without reading the token postings of
 * every word of the query (a common word's postings grow with the table).
 */
const isPlainPhrase = (phrase: string) =>
  phrase.split(' ').every((word) => PLAIN_WORD.test(word) && word.toLowerCase() !== 'or');

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** The fields of a row as one document: `riff_doc(a, b, c)`, exactly as the indexes of migration 0015 spell it. */
export function searchDoc(
  a: RawBuilder<unknown>,
  b: RawBuilder<unknown> | null = null,
  c: RawBuilder<unknown> | null = null,
): RawBuilder<string> {
  return sql<string>`riff_doc(${a}, ${b ?? sql`null`}, ${c ?? sql`null`})`;
}

/** One field in its normal form (the suggestion indexes read it in byte order). */
export function normalForm(field: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`riff_norm(${field})`;
}

/** Rows whose field (in normal form) starts with the prefix, in byte order: a range of the suggestion index. */
export function startsWith(
  field: RawBuilder<unknown>,
  prefix: string,
): { where: RawBuilder<SqlBool>; order: RawBuilder<string> } {
  const key = sql<string>`riff_norm(${field}) collate "C"`;
  return {
    where: sql<SqlBool>`(${key} >= riff_norm(${prefix}) and ${key} < riff_norm(${prefix}) || chr(1114111))`,
    order: key,
  };
}

/**
 * The words each of which must match, and those that must not (`-word`), read as websearch_to_tsquery
 * reads them: quotes grouping words and `or` between words only loosen what its own arm matches.
 */
function wordsOf(phrase: string): { words: string[]; excluded: string[] } {
  const words = new Set<string>();
  const excluded = new Set<string>();
  for (const raw of phrase.split(' ')) {
    const word = raw.replace(/^"+|"+$/g, '');
    if (word.toLowerCase() === 'or') continue;
    const exclusion = word.startsWith('-') && word.length > 1 && !raw.startsWith('"');
    const text = exclusion ? word.slice(1) : word;
    // punctuation alone ("-", "&") is no word: as a substring it would match every name that holds it
    if (!HAS_LETTER_OR_DIGIT.test(text)) continue;
    (exclusion ? excluded : words).add(text);
  }
  return { words: [...words].slice(0, MAX_WORDS), excluded: [...excluded].slice(0, MAX_WORDS) };
}

/**
 * Runs a search without typo tolerance first, and with it only when that finds nothing: an exact
 * word reads only the rows that hold it (a common word's near neighbours can be ten times as many),
 * and a typo ("metalica") still finds what it meant.
 */
export async function withTypoFallback<T extends { total: number }>(
  q: string,
  run: (text: TextQuery) => Promise<T>,
): Promise<T> {
  const exact = await run(textQuery(q, { typos: false }));
  return exact.total > 0 ? exact : run(textQuery(q));
}

export function textQuery(q: string, options: { typos: boolean } = { typos: true }): TextQuery {
  const phrase = q.trim().replace(/\s+/g, ' ');
  const { words, excluded } = wordsOf(phrase);
  const { typos } = options;
  const tsquery = sql`websearch_to_tsquery('simple', riff_norm(${phrase}))`;
  const contains = (field: RawBuilder<string>, text: string) =>
    sql<SqlBool>`${field} like ('%' || riff_norm(${escapeLike(text)}) || '%')`;
  // a query of quotes or exclusions alone has no word to hold: it matches nothing (matches() says so), and its tiers stay valid SQL
  const everyWord = (field: RawBuilder<string>) =>
    words.length === 0
      ? sql<SqlBool>`false`
      : sql.join(
          words.map((word) => contains(field, word)),
          sql` and `,
        );
  const plainPhrase = isPlainPhrase(phrase);
  const long = words.filter((word) => HAS_TRIGRAM.test(word));
  const short = words.filter((word) => !HAS_TRIGRAM.test(word));
  return {
    phrase,
    matches(doc, options = { tokens: true }) {
      if (words.length === 0) return sql<SqlBool>`false`;
      // one condition per index, each word inside it: the index intersects the words itself, so the
      // rarest word bounds the rows read whatever the planner guesses of each
      const conditions: RawBuilder<SqlBool>[] = [];
      if (short.length > 0) {
        conditions.push(
          options.tokens
            ? sql<SqlBool>`to_tsvector('simple'::regconfig, ${doc}) @@ plainto_tsquery('simple', riff_norm(${short.join(' ')}))`
            : sql<SqlBool>`(${sql.join(
                short.map((word) => contains(doc, word)),
                sql` and `,
              )})`,
        );
      }
      for (const word of long)
        conditions.push(typos ? sql<SqlBool>`riff_norm(${word}) <% ${doc}` : contains(doc, word));
      for (const word of excluded) conditions.push(sql<SqlBool>`not ${contains(doc, word)}`);
      const all = sql.join(conditions, sql` and `);
      return options.tokens && !plainPhrase
        ? sql<SqlBool>`(to_tsvector('simple'::regconfig, ${doc}) @@ ${tsquery} or (${all}))`
        : sql<SqlBool>`(${all})`;
    },
    tier(names, doc) {
      const any = (test: (name: RawBuilder<string>) => RawBuilder<SqlBool>) => sql.join(names.map(test), sql` or `);
      return sql<number>`case
        when ${any((name) => sql`${name} = riff_norm(${phrase})`)} then 0
        when ${any((name) => sql`${name} like (riff_norm(${escapeLike(phrase)}) || '%')`)} then 1
        when ${any((name) => contains(name, phrase))} then 2
        when ${any((name) => sql`(${everyWord(name)})`)} then 3
        when ${everyWord(doc)} then 4
        else 5 end`;
    },
    closeness(doc) {
      return sql<number>`(ts_rank(to_tsvector('simple'::regconfig, ${doc}), ${tsquery}) + word_similarity(riff_norm(${phrase}), ${doc}))`;
    },
  };
}
