import { protocol, types, type PGlite, type Results } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { STALE_PLAN, type PreparedStatements } from './prepared-statements.js';

const { serialize } = protocol;

/**
 * A Kysely dialect over PGlite. PGlite is one connection, so connections are handed out one at a
 * time: a transaction holds it until commit or rollback, and other queries wait their turn.
 */
export class PGliteDialect implements Dialect {
  /** `statements`: which statements run prepared (named), as on PostgreSQL; none runs every query unnamed. */
  constructor(
    private readonly pglite: PGlite,
    private readonly statements?: PreparedStatements,
  ) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.statements);
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/** A statement PGlite keeps under a name: its parameters' types and its result columns, from its description. */
interface NamedStatement {
  parameterTypes: number[];
  fields: { name: string; dataTypeID: number }[];
}

/** A message that the extended protocol answers with, as PGlite parses it. */
interface BackendMessage {
  name: string;
}

class PGliteConnection implements DatabaseConnection {
  private readonly named = new Map<string, NamedStatement>();

  constructor(
    private readonly pglite: PGlite,
    private readonly statements: PreparedStatements | undefined,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // A raw text without values may hold several statements (pg-boss's schema and maintenance
    // scripts): only the simple protocol takes those, as node-pg does for a query without values.
    if (compiled.parameters.length === 0 && compiled.query.kind === 'RawNode')
      return this.toQueryResult(compiled, lastResult<R>(await this.pglite.exec(compiled.sql)));
    const name = this.statements?.nameOf(compiled.sql);
    if (name === undefined)
      return this.toQueryResult(compiled, await this.pglite.query<R>(compiled.sql, [...compiled.parameters]));
    try {
      return this.toQueryResult(compiled, await this.runNamed<R>(name, compiled.sql, compiled.parameters));
    } catch (error) {
      if ((error as { code?: string }).code !== STALE_PLAN) throw error;
      // the statement's result columns changed under it (a migration): it runs unnamed from now on;
      // inside a transaction its failure aborted the transaction, so the retry fails too and the caller sees that
      this.statements?.retire(compiled.sql);
      this.named.delete(name);
      return this.toQueryResult(compiled, await this.pglite.query<R>(compiled.sql, [...compiled.parameters]));
    }
  }

  private toQueryResult<R>(compiled: CompiledQuery, result: Results<R>): QueryResult<R> {
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && compiled.query.kind !== 'SelectQueryNode'
        ? { numAffectedRows: BigInt(affected) }
        : {}),
    };
  }

  /**
   * Runs a statement by name: parsed, described and planned once, then only bound and executed,
   * which on PGlite costs a third of an unnamed query's time (PGlite's own query() parses, describes
   * and plans every time). The wire protocol is PGlite's own; a Sync closes every exchange, so an
   * error leaves the session ready for the next statement, and inside a transaction it aborts it as
   * any failed statement does.
   */
  private async runNamed<R>(name: string, text: string, parameters: readonly unknown[]): Promise<Results<R>> {
    let statement = this.named.get(name);
    if (!statement) {
      const described = await this.exchange(
        serialize.parse({ name, text }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      );
      statement = describedStatement(described);
      this.named.set(name, statement);
    }
    const { serializers } = this.pglite;
    const values = parameters.map((value, index) => {
      if (value === null || value === undefined) return null;
      const toText = serializers[statement.parameterTypes[index]!];
      return toText ? (toText(value) as string) : String(value);
    });
    const messages = await this.exchange(
      serialize.bind({ statement: name, values }),
      serialize.execute({}),
      serialize.sync(),
    );
    return resultOf<R>(messages, statement.fields, this.pglite.parsers);
  }

  private async exchange(...parts: Uint8Array[]): Promise<BackendMessage[]> {
    const messages = (await this.pglite.execProtocolStream(concat(parts), { syncToFs: false })) as BackendMessage[];
    if (!this.pglite.isInTransaction()) await this.pglite.syncToFs();
    return messages;
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on PGlite');
  }
}

function lastResult<R>(results: Results[]): Results<R> {
  return (results[results.length - 1] ?? { rows: [], fields: [] }) as Results<R>;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

/** A statement's description: the types of its parameters, and its result columns (none for a statement without rows). */
function describedStatement(messages: BackendMessage[]): NamedStatement {
  let parameterTypes: number[] = [];
  let fields: NamedStatement['fields'] = [];
  for (const message of messages) {
    if (message.name === 'parameterDescription')
      parameterTypes = (message as BackendMessage & { dataTypeIDs: number[] }).dataTypeIDs;
    else if (message.name === 'rowDescription')
      fields = (message as BackendMessage & { fields: NamedStatement['fields'] }).fields.map((field) => ({
        name: field.name,
        dataTypeID: field.dataTypeID,
      }));
  }
  return { parameterTypes, fields };
}

/** Rows from DataRow messages, typed by the statement's columns; affected rows from CommandComplete (INSERT 0 n, UPDATE n…). */
function resultOf<R>(
  messages: BackendMessage[],
  fields: NamedStatement['fields'],
  parsers: Record<number | string, (value: string, typeId?: number) => unknown>,
): Results<R> {
  const rows: Record<string, unknown>[] = [];
  let affectedRows = 0;
  for (const message of messages) {
    if (message.name === 'dataRow') {
      const values = (message as BackendMessage & { fields: (string | null)[] }).fields;
      const row: Record<string, unknown> = {};
      for (let index = 0; index < fields.length; index++) {
        const field = fields[index]!;
        row[field.name] = types.parseType(values[index] ?? null, field.dataTypeID, parsers);
      }
      rows.push(row);
    } else if (message.name === 'commandComplete') {
      const words = (message as BackendMessage & { text: string }).text.split(' ');
      const count = Number(words[0] === 'INSERT' ? words[2] : words[1]);
      affectedRows = Number.isFinite(count) ? count : 0;
    }
  }
  return { rows: rows as R[], fields, affectedRows };
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | undefined;

  constructor(
    private readonly pglite: PGlite,
    statements: PreparedStatements | undefined,
  ) {
    this.connection = new PGliteConnection(pglite, statements);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.release = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    await this.queue;
    if (!this.pglite.closed) await this.pglite.close();
  }
}
