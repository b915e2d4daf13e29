/**
 * Tests make their data the way users and services make it; state no service can make (a row dated
 * in the past, a counter, a broken row, thousands of rows at once) comes from a named helper in
 * tests/support whose comment says why. So a test file never writes a row itself: this reads every
 * .ts file under tests/ and fails on a Kysely write (insertInto, updateTable, deleteFrom, replaceInto,
 * mergeInto) or an INSERT, UPDATE or DELETE in an sql`` template or sql.raw() outside the places that
 * may: tests/support (the helpers), tests/platform (tests of the database layer itself), tests/faults
 * (fault injection) and the media migration test (it writes the rows an older schema held).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ALLOWED = [/^tests\/support\//, /^tests\/platform\//, /^tests\/faults\//, /^tests\/media\/migration\.test\.ts$/];

const KYSELY_WRITE = /\b(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\s*\(/g;
/** An sql`` template (with or without a row type) or the string handed to sql.raw(). */
const SQL_TEXT = /\bsql(?:<[^`]*?>)?`((?:[^`\\]|\\.)*)`|\bsql\.raw(?:<[^(]*?>)?\(\s*(['"`])((?:(?!\2)[^\\]|\\.)*)\2/g;
const SQL_WRITE = /\b(insert\s+into|update\s+[a-z_][a-z0-9_.]*\s+set|delete\s+from)\b/i;

function testFiles(): string[] {
  return readdirSync(path.join(ROOT, 'tests'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !ALLOWED.some((allowed) => allowed.test(file)))
    .sort();
}

const lineOf = (source: string, index: number) => source.slice(0, index).split('\n').length;

/** `file:line: text` for every write in the source. */
function writesIn(file: string, source: string): string[] {
  const found = new Map<number, string>();
  const note = (index: number) => {
    const line = lineOf(source, index);
    found.set(line, `${file}:${line}: ${source.split('\n')[line - 1]!.trim()}`);
  };
  for (const m of source.matchAll(KYSELY_WRITE)) note(m.index);
  for (const m of source.matchAll(SQL_TEXT)) {
    const text = m[1] ?? m[3] ?? '';
    const write = SQL_WRITE.exec(text);
    if (write) note(m.index + m[0].indexOf(text) + write.index);
  }
  return [...found.keys()].sort((a, b) => a - b).map((line) => found.get(line)!);
}

describe('test seeding', () => {
  it('finds each kind of write, on its line, and lets reads be', () => {
    const source = [
      "await db.selectFrom('tracks').selectAll().execute();",
      "await db.updateTable('orders').set({ refund_deadline: past }).execute();",
      'await sql`select * from tracks where id = ${id} for update`.execute(db);',
      'await sql<{ id: string }>`',
      '  insert into tracks (id) values (${id}) returning id`.execute(db);',
      'await sql`update  playlists set share_expires_at = now() where id = ${id}`.execute(db);',
      "await sql.raw('delete from invoice_counters').execute(db);",
      "await db.insertInto('users').values(row).execute(); await db.deleteFrom('users').execute();",
    ].join('\n');
    expect(writesIn('x.test.ts', source).map((entry) => entry.split(':').slice(0, 2).join(':'))).toEqual([
      'x.test.ts:2',
      'x.test.ts:5',
      'x.test.ts:6',
      'x.test.ts:7',
      'x.test.ts:8',
    ]);
  });

  it('reads the test files', () => {
    const files = testFiles();
    // a broken walk must not pass by finding nothing
    expect(files).toContain('tests/auth/register-login.test.ts');
    expect(files).toContain('tests/playlists/playlist-helpers.ts');
    expect(files.some((file) => file.startsWith('tests/support/'))).toBe(false);
  });

  it('leaves every write of a row to a named helper in tests/support', () => {
    const writes = testFiles().flatMap((file) => writesIn(file, readFileSync(path.join(ROOT, file), 'utf8')));
    expect(writes, `seed these through a helper in tests/support:\n${writes.join('\n')}`).toEqual([]);
  });
});
