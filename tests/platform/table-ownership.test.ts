import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Each area owns its tables: the tables its `<area>.tables.ts` adds to the Database interface (the
 * platform owns those `platform/db/database.schema.ts` declares itself, and those of its own
 * `*.tables.ts`). An area's SQL touches only
 * those; another area's data is read through that area's read port (or an SQL fragment it exports)
 * and changed through its service or the events it handles. This reads every module's source, finds
 * the tables its queries name (Kysely's selectFrom, insertInto, updateTable, deleteFrom, mergeInto and
 * joins, and the table after from, join, into and update in raw sql`` templates) and fails on any
 * other table, outside READ_MODELS below. Tables are named by string literals in
 * this code base; a table name held in a variable would escape the check, so do not do that.
 */

const SERVER = path.resolve(__dirname, '../../server/src');
const MODULES = path.join(SERVER, 'modules');

/** A file (under server/src/modules) let to read other areas' tables, and why. */
interface ReadModel {
  file: string;
  /** Tables it reads. */
  reads: string[];
  reason: string;
}

/** Read models that join many areas' tables by nature: reads only, each with its reason. */
const READ_MODELS: ReadModel[] = [
  {
    file: 'dashboard/dashboard.repository.ts',
    reads: [
      'audit_logs',
      'follows',
      'listening_history',
      'playlist_tracks',
      'playlists',
      'queue_session_messages',
      'tracks',
      'users',
    ],
    reason: 'the dashboard shows counts and recent activity of every area on one page, in a few queries',
  },
  {
    file: 'webhooks/webhooks.repository.ts',
    reads: ['orders', 'playlists', 'products', 'tracks'],
    reason:
      'whom an event concerns: the owner of its subject, deleted rows included (a deletion is delivered after the row has left every port)',
  },
  {
    file: 'social/recommendations.repository.ts',
    reads: ['blocks', 'follows', 'playlist_tracks', 'playlists', 'tracks'],
    reason:
      'recommendations rank tracks in one query by who liked them together (favorites playlists) and whom the user follows, blocks left out',
  },
];

type Access = 'read' | 'write';
interface Touch {
  module: string;
  table: string;
  access: Access;
  at: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

function lineOf(source: string, index: number): number {
  return source.slice(0, index).split('\n').length;
}

/** The table names of a `Database` interface body (`name: Type;` lines). */
function tablesIn(body: string): string[] {
  return [...body.matchAll(/^\s*([a-z_][a-z0-9_]*)\s*:/gm)].map((m) => m[1] as string);
}

/** table -> owner ('platform' or an area), and the tables an owner declared more than once. */
function owners(): { owner: Map<string, string>; duplicates: string[] } {
  const owner = new Map<string, string>();
  const duplicates: string[] = [];
  const claim = (table: string, by: string) => {
    if (owner.has(table)) duplicates.push(`${table} (${owner.get(table)} and ${by})`);
    else owner.set(table, by);
  };
  const platform = readFileSync(path.join(SERVER, 'platform/db/database.schema.ts'), 'utf8');
  const own = /export interface Database \{([^}]*)\}/.exec(platform);
  for (const table of tablesIn(own?.[1] ?? '')) claim(table, 'platform');
  // a platform part may declare its table beside its code, as areas do
  for (const file of walk(path.join(SERVER, 'platform')).filter((f) => f.endsWith('.tables.ts'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/interface Database \{([^}]*)\}/g)) {
      for (const table of tablesIn(m[1] as string)) claim(table, 'platform');
    }
  }
  for (const file of walk(MODULES).filter((f) => f.endsWith('.tables.ts'))) {
    const area = path.relative(MODULES, file).split(path.sep)[0] as string;
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/interface Database \{([^}]*)\}/g)) {
      for (const table of tablesIn(m[1] as string)) claim(table, area);
    }
  }
  return { owner, duplicates };
}

const KYSELY_CALL =
  /\b(selectFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|innerJoinLateral|leftJoinLateral)\(\s*(\[[^\]]*\]|'[^']*'|"[^"]*")/g;
const WRITES = new Set(['insertInto', 'replaceInto', 'updateTable', 'deleteFrom', 'mergeInto']);
/** A content area's moderation over its table (platform/access/moderated-table.ts): reads and writes it. */
const MODERATED_TABLE = /\bmoderatedTable(?:<[^>]*>)?\([^{]*\{\s*table:\s*'([a-z_][a-z0-9_]*)'/g;
const SQL_TEMPLATE = /\bsql(?:<[^`]*?>)?`((?:[^`\\]|\\.)*)`/g;
const SQL_TABLE = /\b(delete\s+from|insert\s+into|update|from|join|into)\s+([a-z_][a-z0-9_]*)/gi;

/**
 * Every table each module's code names (under server/src/modules, by area; the platform's own code
 * as 'platform'), with where and whether it writes.
 */
function touches(known: Map<string, string>): Touch[] {
  const found: Touch[] = [];
  const files = [
    ...walk(MODULES).map((file) => ({ file, rel: path.relative(MODULES, file) })),
    ...walk(path.join(SERVER, 'platform')).map((file) => ({ file, rel: path.relative(SERVER, file) })),
  ];
  for (const { file, rel } of files) {
    const parts = rel.split(path.sep);
    if (parts.length < 2 || file.endsWith('.tables.ts')) continue;
    const module = parts[0] as string;
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(KYSELY_CALL)) {
      const access: Access = WRITES.has(m[1] as string) ? 'write' : 'read';
      for (const name of (m[2] as string).matchAll(/['"]([a-z_][a-z0-9_]*)/g)) {
        found.push({ module, table: name[1] as string, access, at: `${rel}:${lineOf(source, m.index)}` });
      }
    }
    for (const m of source.matchAll(MODERATED_TABLE)) {
      found.push({ module, table: m[1] as string, access: 'write', at: `${rel}:${lineOf(source, m.index)}` });
    }
    for (const m of source.matchAll(SQL_TEMPLATE)) {
      for (const t of (m[1] as string).matchAll(SQL_TABLE)) {
        const table = t[2] as string;
        // words after FROM that are not tables: functions, columns in EXTRACT(... FROM x), CTEs
        if (!known.has(table)) continue;
        const keyword = (t[1] as string).toLowerCase().replace(/\s+/g, ' ');
        const access: Access = keyword === 'from' || keyword === 'join' ? 'read' : 'write';
        found.push({
          module,
          table,
          access,
          at: `${rel}:${lineOf(source, m.index + m[0].length - 1 - (m[1] as string).length + (t.index ?? 0))}`,
        });
      }
    }
  }
  return found;
}

const { owner, duplicates } = owners();
const all = touches(owner);
const foreign = all.filter((t) => owner.get(t.table) !== t.module);
const fileOf = (t: Touch) => t.at.replace(/:\d+$/, '');
/** A read by a listed read model (a write never is). */
const readByReadModel = (t: Touch) =>
  t.access === 'read' && READ_MODELS.some((e) => e.file === fileOf(t) && e.reads.includes(t.table));

/** module -> foreign table -> places, for the failure message. */
function summary(list: Touch[]): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  for (const t of list) {
    const byTable = (out[t.module] ??= {});
    (byTable[`${t.table} (${owner.get(t.table) ?? 'unknown'}${t.access === 'write' ? ', WRITE' : ''})`] ??= []).push(
      t.at,
    );
  }
  return out;
}

describe('table ownership', () => {
  it('gives every table exactly one owner', () => {
    expect(duplicates).toEqual([]);
    expect(owner.size).toBeGreaterThan(50);
  });

  it('finds the queries it checks', () => {
    // a broken pattern must not pass the check by finding nothing
    expect(all.filter((t) => t.module === 'tracks' && t.table === 'tracks').length).toBeGreaterThan(10);
    expect(all.some((t) => t.module === 'social' && t.at.startsWith('social/plays.repository.ts'))).toBe(true);
    expect(all.some((t) => t.module === 'tracks' && t.table === 'tracks' && t.at.includes('track-moderation'))).toBe(
      true,
    );
  });

  it('names only tables that exist', () => {
    const unknown = all.filter((t) => !owner.has(t.table));
    expect(summary(unknown)).toEqual({});
  });

  it('never lets a module write another owner’s table', () => {
    const writes = foreign.filter((t) => t.access === 'write');
    expect(summary(writes)).toEqual({});
  });

  it('lets a module read another area’s table only as a listed read model', () => {
    const leaks = foreign.filter((t) => !readByReadModel(t));
    expect(summary(leaks)).toEqual({});
  });

  it('lists no table a module no longer reads', () => {
    const reads = (e: ReadModel, table: string) =>
      foreign.some((t) => fileOf(t) === e.file && t.table === table && t.access === 'read');
    const stale = READ_MODELS.flatMap((e) =>
      e.reads.filter((table) => !reads(e, table)).map((table) => `${e.file} reads ${table}`),
    );
    expect(stale).toEqual([]);
  });

  it('keeps the platform’s SQL on the platform’s tables', () => {
    expect(all.some((t) => t.module === 'platform')).toBe(true);
    expect(summary(foreign.filter((t) => t.module === 'platform'))).toEqual({});
  });

  it('keeps the platform free of areas', () => {
    const platform = walk(path.join(SERVER, 'platform'));
    const naming = platform.filter((f) => /from '(\.\.\/)+modules\//.test(readFileSync(f, 'utf8')));
    expect(naming.map((f) => path.relative(SERVER, f))).toEqual([]);
  });
});
