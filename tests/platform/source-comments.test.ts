/**
 * Source comments state the rule where it applies. The product documents they were written from
 * are not in this repository, so a comment that only points at one ("see ADDENDUM", "SPEC says")
 * tells a reader nothing; the same holds for OpenAPI descriptions written in the contract.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE_DIRS = ['server/src', 'contract/src', 'client/src'];
const CITATION = /\b(?:ADDENDUM|SPEC)\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(?:ts|tsx|js|mjs)$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

/** `file:line: text` for every line that names one of the documents. */
function citations(files: readonly string[], read: (file: string) => string): string[] {
  return files.flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, index) => (CITATION.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
}

describe('source comments', () => {
  it('finds a citation as a word, case-sensitive', () => {
    const text: Record<string, string> = {
      'a.ts': '/** ADDENDUM: at most 10. */\nconst x = 1;',
      'b.ts': '// as SPEC says\n',
      'c.ts': '// SPECIAL, spec, addendum, SPECS and the_SPEC_ are not citations\n',
    };
    expect(citations(Object.keys(text), (file) => text[file]!)).toEqual([
      'a.ts:1: /** ADDENDUM: at most 10. */',
      'b.ts:1: // as SPEC says',
    ]);
  });

  it('no source file under server/src, contract/src or client/src cites ADDENDUM or SPEC', () => {
    const files = SOURCE_DIRS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    expect(citations(files, (file) => readFileSync(path.join(ROOT, file), 'utf8'))).toEqual([]);
  });
});
