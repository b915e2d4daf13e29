import { createHash } from 'node:crypto';
import type pg from 'pg';

/** At most this many statements get a name per process: PostgreSQL keeps each one per connection. */
const MAX_NAMED = 400;
/** A statement is named from its second use on, so one-off statements (migrations, rare reports) stay unnamed. */
const HOT_AFTER = 2;
/** PostgreSQL's answer when a named statement's result columns changed under it (a migration added a column). */
const STALE_PLAN = '0A000';

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * Names the statements the service runs again and again, so PostgreSQL parses and plans each once
 * per connection and later runs send only the parameters: less work for the database (which shares
 * the machine) and fewer bytes per query. A statement whose plan went stale under a schema change
 * runs unnamed from then on.
 */
export class PreparedStatements {
  private readonly uses = new Map<string, number>();
  private readonly names = new Map<string, string>();
  private readonly retired = new Set<string>();

  /** The name to run `text` under, or undefined to run it unnamed. */
  nameOf(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined || this.names.size >= MAX_NAMED || this.retired.has(text)) return name;
    const uses = (this.uses.get(text) ?? 0) + 1;
    if (uses < HOT_AFTER) {
      if (this.uses.size < MAX_NAMED * 4) this.uses.set(text, uses);
      return undefined;
    }
    this.uses.delete(text);
    const named = `riff_${createHash('sha1').update(text).digest('base64url')}`;
    this.names.set(text, named);
    return named;
  }

  retire(text: string): void {
    this.names.delete(text);
    this.retired.add(text);
  }

  /** Makes the client run hot statements by name. Kysely calls `query(text, values)` and awaits the promise. */
  attach(client: pg.PoolClient): void {
    const query = client.query.bind(client) as Query;
    // node-pg's Query class (Client.Query), from the client itself: pg loads only when in use
    const QueryClass = (client.constructor as unknown as { Query?: typeof pg.Query }).Query;
    const patched: Query = (config, values, callback) => {
      // Without parameters node-pg sends the simple protocol, which also runs scripts of several statements
      // (pg-boss's maintenance): a name would force the extended protocol, which refuses them.
      if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0 || callback !== undefined)
        return query(config, values, callback);
      const name = this.nameOf(config);
      if (name === undefined) return query(config, values);
      return named(query, QueryClass, name, config, values).catch((error: unknown) => {
        if ((error as { code?: string }).code !== STALE_PLAN) throw error;
        this.retire(config);
        // inside a transaction the statement's failure aborted it: the retry fails too, and the caller sees that
        return query(config, values);
      });
    };
    (client as unknown as { query: Query }).query = patched;
  }
}

/**
 * Runs `text` as the named statement `name`. node-pg copies a query given as an object through
 * property descriptors (a twentieth of a simple read's CPU); a Query made from the text and named
 * afterwards is not copied.
 */
function named(
  query: Query,
  QueryClass: typeof pg.Query | undefined,
  name: string,
  text: string,
  values: unknown[],
): Promise<unknown> {
  if (!QueryClass) return query({ name, text, values }) as Promise<unknown>;
  return new Promise((resolve, reject) => {
    const submittable = new QueryClass(text, values, (error: Error | undefined, result: unknown) =>
      error ? reject(error) : resolve(result),
    );
    (submittable as unknown as { name: string }).name = name;
    query(submittable);
  });
}
