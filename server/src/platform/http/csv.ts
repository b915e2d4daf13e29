import { Readable } from 'node:stream';

/** What a CSV cell may hold: text, a number, or nothing (an empty field). */
export type CsvCell = string | number | null;

/** The media type of a CSV reply. */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** RFC 4180: a field holding one of these is quoted. */
const NEEDS_QUOTES = /[",\r\n]/;
/**
 * A spreadsheet reads a cell that starts with one of these as a formula (tab and CR too: some
 * strip them and read what follows), so a text cell starting with one is prefixed with `'`.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Rows are gathered into chunks of about this many characters, so a large export is not one write per row. */
const CHUNK_CHARS = 16 * 1024;

function csvField(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') {
    // a number is written as it is, sign included: only text can smuggle a formula in
    if (!Number.isFinite(cell)) throw new TypeError(`a CSV cell cannot hold ${cell}`);
    return String(cell);
  }
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One CSV row as RFC 4180 writes it, CRLF included: a field with a comma, a double quote, CR or LF
 * is quoted (its quotes doubled), null is an empty field, and a text cell starting with =, +, -, @,
 * tab or CR gets a leading `'` first, so that a spreadsheet shows it instead of running it.
 */
export function csvRow(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/**
 * A CSV file as a stream: the header row, then one row per item of `rows`. Rows are read only as
 * the reader asks for more (a slow client holds back the query behind `rows`, instead of the
 * reply piling up in memory). A route answers `{ status: 200, body: csvStream(...) }` after setting
 * `content-type` to CSV_CONTENT_TYPE; as with any streamed reply, it destroys the response when the
 * stream fails (`stream.on('error', () => res.destroy())`), since the status line is already sent.
 */
export function csvStream(
  header: readonly string[],
  rows: AsyncIterable<readonly CsvCell[]> | Iterable<readonly CsvCell[]>,
): Readable {
  async function* chunks(): AsyncGenerator<string> {
    let chunk = csvRow(header);
    for await (const row of rows) {
      chunk += csvRow(row);
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk.length > 0) yield chunk;
  }
  return Readable.from(chunks(), { objectMode: false });
}
