/**
 * The CSV writer, read back by a real CSV parser (csv-parse) as a spreadsheet or a script would:
 * RFC 4180 quoting, formula-injection safety for text (never for numbers), and a large stream read
 * row by row, produced only as fast as it is read.
 */
import { once } from 'node:events';
import { Writable, type Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvRow, csvStream, type CsvCell } from '../../server/src/platform/http/csv.js';

/** What a parser reads from the text: rows of fields, as strings. */
const readBack = (text: string): string[][] => parseSync(text, { relax_column_count: true }) as string[][];

async function textOf(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe('csvRow', () => {
  it('ends a row with CRLF and leaves plain fields bare', () => {
    expect(csvRow(['date', 'track_id', 'title'])).toBe('date,track_id,title\r\n');
  });

  it('quotes a field with a comma, a double quote, CR or LF, doubling its quotes', () => {
    const row = csvRow(['a,b', 'say "hi"', 'line\nbreak', 'cr\rhere', 'crlf\r\nhere', 'plain']);
    expect(row).toBe('"a,b","say ""hi""","line\nbreak","cr\rhere","crlf\r\nhere",plain\r\n');
    expect(readBack(row)).toEqual([['a,b', 'say "hi"', 'line\nbreak', 'cr\rhere', 'crlf\r\nhere', 'plain']]);
  });

  it('writes null as an empty field', () => {
    expect(csvRow([null, 'x', null])).toBe(',x,\r\n');
    expect(readBack(csvRow([null, 'x', null]))).toEqual([['', 'x', '']]);
  });

  it('keeps unicode as it is', () => {
    const cells = ['Björk – Jóga', '日本語のタイトル', '🎸 riff', 'e\u0301te\u0301', 'Ünïcödé, with a comma'];
    expect(readBack(csvRow(cells))).toEqual([cells]);
  });

  it.each(['=', '+', '-', '@', '\t', '\r'])('prefixes a text cell starting with %j with a quote', (start) => {
    const cell = `${start}HYPERLINK("http://evil.example","click")`;
    const [row] = readBack(csvRow(['before', cell, 'after']));
    expect(row).toEqual(['before', `'${cell}`, 'after']);
  });

  it('prefixes only at the start, and a lone dangerous character too', () => {
    expect(readBack(csvRow(['a=b', 'x-1', 'mail@example.org', '=', '-']))).toEqual([
      ['a=b', 'x-1', 'mail@example.org', "'=", "'-"],
    ]);
  });

  it('never prefixes a number, negative ones included; text that looks like one is text', () => {
    const row = csvRow([-3, 0, 42, 3.25, -0.5, 1e21, '-3']);
    expect(row).toBe("-3,0,42,3.25,-0.5,1e+21,'-3\r\n");
    expect(readBack(row)).toEqual([['-3', '0', '42', '3.25', '-0.5', '1e+21', "'-3"]]);
  });

  it('refuses a number that is not finite', () => {
    expect(() => csvRow([Number.NaN])).toThrow(TypeError);
    expect(() => csvRow([Number.POSITIVE_INFINITY])).toThrow(TypeError);
  });
});

describe('csvStream', () => {
  const header = ['date', 'title', 'plays'];

  it('is the header row alone when there are no rows', async () => {
    expect(await textOf(csvStream(header, []))).toBe('date,title,plays\r\n');
  });

  it('writes the header, then each row, from an async source', async () => {
    async function* rows(): AsyncGenerator<CsvCell[]> {
      yield ['2026-11-20', 'Night "Drive", part 1', 12];
      yield ['2026-11-21', '=1+1', null];
    }
    const text = await textOf(csvStream(header, rows()));
    expect(readBack(text)).toEqual([
      ['date', 'title', 'plays'],
      ['2026-11-20', 'Night "Drive", part 1', '12'],
      ['2026-11-21', "'=1+1", ''],
    ]);
  });

  it('streams 100 000 rows that a parser reads back one by one, each as written', async () => {
    const total = 100_000;
    const titles = ['Night Drive', 'Jóga, live', 'say "hi"', '-minus', '@mention', 'two\nlines', '🎸'];
    const expected = (index: number) => {
      const title = titles[index % titles.length]!;
      const safe = /^[-@]/.test(title) ? `'${title}` : title;
      return [`2026-11-${String((index % 28) + 1).padStart(2, '0')}`, safe, String(index - 50_000)];
    };
    async function* rows(): AsyncGenerator<CsvCell[]> {
      for (let index = 0; index < total; index++) {
        const [date] = expected(index);
        yield [date!, titles[index % titles.length]!, index - 50_000];
      }
    }
    const parser = csvStream(header, rows()).pipe(parse());
    let seen = -1;
    for await (const record of parser as AsyncIterable<string[]>) {
      if (seen === -1) expect(record).toEqual(header);
      else if (JSON.stringify(record) !== JSON.stringify(expected(seen)))
        expect({ row: seen, record }).toEqual({ row: seen, record: expected(seen) });
      seen++;
    }
    expect(seen).toBe(total);
  });

  it('reads its source only as fast as the reader takes the rows, and closes it when the reader goes', async () => {
    let produced = 0;
    let closed = false;
    async function* endless(): AsyncGenerator<CsvCell[]> {
      try {
        for (;;) {
          produced++;
          yield ['2026-11-21', 'a title of some length, repeated', produced];
        }
      } finally {
        closed = true;
      }
    }
    const stream = csvStream(header, endless());
    // a reader that takes one chunk and then stalls, like a client that stopped reading
    const stalled = new Writable({ highWaterMark: 1024, write: () => undefined });
    stream.pipe(stalled);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const whileStalled = produced;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(produced).toBe(whileStalled);
    // a few chunks of 16 KiB at most, of rows of about 50 bytes
    expect(produced).toBeLessThan(5_000);
    stream.destroy();
    await once(stream, 'close');
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(true);
  });

  it('fails the stream when its source fails', async () => {
    async function* failing(): AsyncGenerator<CsvCell[]> {
      yield ['2026-11-21', 'first', 1];
      throw new Error('the database went away');
    }
    await expect(textOf(csvStream(header, failing()))).rejects.toThrow('the database went away');
  });
});
