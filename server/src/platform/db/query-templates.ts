import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './database.schema.js';

const MARK = '\u0000riff-template-argument\u0000';

/** Stands for an argument while a template is compiled; any text made from it carries MARK. */
class Slot {
  constructor(readonly index: number) {}
  toString(): string {
    return MARK;
  }
}

interface Template {
  compiled: CompiledQuery;
  /** For each parameter of the compiled query: the argument it takes, or -1 for a constant. */
  slots: number[];
}

/**
 * Hot reads compiled once per shape. Kysely builds and compiles a query on every call, a tenth of
 * a millisecond for a profile read; a template compiles it the first time with stand-ins for the
 * arguments and later only puts the new arguments in their parameters. The key names the shape:
 * everything that changes the SQL text (which filters are present, the sort) must be in it, and
 * the arguments are only values that become parameters. A shape whose arguments do not come out as
 * plain parameters (an argument turned into a LIKE pattern) is built each time as usual.
 */
export class QueryTemplates {
  private readonly templates = new Map<string, Template | null>();

  async rows<A extends unknown[], R>(
    db: Kysely<Database>,
    key: string,
    args: [...A],
    build: (...args: A) => Compilable<R>,
  ): Promise<R[]> {
    let template = this.templates.get(key);
    if (template === undefined) {
      template = compile(args.length, build);
      this.templates.set(key, template);
    }
    if (template === null) return (await db.executeQuery(build(...args).compile())).rows;
    const { compiled, slots } = template;
    const parameters = compiled.parameters.map((value, i) => (slots[i]! >= 0 ? args[slots[i]!] : value));
    return (await db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>)).rows;
  }

  async first<A extends unknown[], R>(
    db: Kysely<Database>,
    key: string,
    args: [...A],
    build: (...args: A) => Compilable<R>,
  ): Promise<R | undefined> {
    return (await this.rows(db, key, args, build))[0];
  }
}

function compile<A extends unknown[], R>(count: number, build: (...args: A) => Compilable<R>): Template | null {
  const stand = Array.from({ length: count }, (_, index) => new Slot(index)) as unknown as A;
  const compiled = build(...stand).compile();
  if (compiled.sql.includes(MARK)) return null;
  const slots = compiled.parameters.map((value) => (value instanceof Slot ? value.index : -1));
  const transformed = compiled.parameters.some((value) => typeof value === 'string' && value.includes(MARK));
  const everyArgument = Array.from({ length: count }, (_, index) => slots.includes(index)).every(Boolean);
  return transformed || !everyArgument ? null : { compiled, slots };
}
