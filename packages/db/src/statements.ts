import { ColumnTypeEnum, type SqlDriverAdapter, type SqlQuery } from '@prisma/driver-adapter-utils';
import { Prisma, type PrismaClient } from './generated/prisma/client';

/**
 * Hot-path statements (a charge's insert and its final update) in SQL with `$1…$n` parameters, run
 * straight on Prisma's PostgreSQL driver adapter (@prisma/adapter-pg, the layer Prisma's own client
 * sends its queries through) when the client is a pool's and no transaction is open: the client's
 * request pipeline costs about 80 µs of CPU per statement over the adapter's own. Inside a
 * transaction, and on the embedded database (one session, whose transactions Prisma queues), the
 * same SQL goes through the client (`$queryRawUnsafe`). docs/decisions.md, "Charge statements in SQL".
 *
 * Either way a unique violation is the query builder's P2002, which callers that choose a row's id
 * check for.
 */
export interface SqlStatements {
  /** The rows the statement returns, as objects; timestamps as Date. */
  query(sql: string, args: readonly unknown[]): Promise<Array<Record<string, unknown>>>;
  /** The number of rows the statement changed. */
  execute(sql: string, args: readonly unknown[]): Promise<number>;
}

type Client = PrismaClient | Prisma.TransactionClient;

const onAdapter = new WeakMap<object, SqlStatements>();

/**
 * The hot-path statements run as named prepared statements: PostgreSQL parses and plans each text
 * once per connection instead of at every charge, and pg sends it once. A process names at most
 * this many texts (each is kept by every connection of the pool, on both sides); the rest, and
 * every query of Prisma's own, stay unnamed.
 */
const MAX_PREPARED = 64;
const preparedNames = new Map<string, string>();
const toPrepare = new WeakSet<SqlQuery>();

/**
 * @prisma/adapter-pg's `statementNameGenerator`: a name for a hot-path statement, '' for others
 * (pg's unnamed statement, parsed at every call).
 */
export function preparedStatementName(query: SqlQuery): string {
  if (!toPrepare.has(query)) return '';
  let name = preparedNames.get(query.sql);
  if (name === undefined && preparedNames.size < MAX_PREPARED) {
    name = `gateway_${preparedNames.size}`;
    preparedNames.set(query.sql, name);
    if (preparedNames.size === MAX_PREPARED) {
      process.emitWarning(`${MAX_PREPARED} statement texts are prepared: others run unprepared from now on`, 'GatewayWarning');
    }
  }
  return name ?? '';
}

/** Makes `statementsOf(prisma)` run on `adapter`, a connection of the same pool as the client's. */
export function runStatementsOnAdapter(prisma: PrismaClient, adapter: SqlDriverAdapter): void {
  const request = (sql: string, args: readonly unknown[]): SqlQuery => {
    const query: SqlQuery = {
      sql,
      args: [...args],
      // adapter-pg reads an argument's type for dates, bytes and lists only; the values here are
      // text, numbers, bigints, booleans and Dates, which pg sends as text.
      argTypes: args.map(() => ({ scalarType: 'unknown', arity: 'scalar' })),
    };
    toPrepare.add(query);
    return query;
  };
  onAdapter.set(prisma, {
    async query(sql, args) {
      const result = await adapter.queryRaw(request(sql, args)).catch(rethrow);
      return result.rows.map((row) => {
        const object: Record<string, unknown> = {};
        result.columnNames.forEach((name, i) => {
          const type = result.columnTypes[i];
          const isDate = type === ColumnTypeEnum.DateTime || type === ColumnTypeEnum.Date;
          object[name] = isDate && typeof row[i] === 'string' ? new Date(row[i] as string) : row[i];
        });
        return object;
      });
    },
    execute: (sql, args) => adapter.executeRaw(request(sql, args)).catch(rethrow),
  });
}

/** The statements of a client: straight on the adapter for a pool's client, through the client otherwise. */
export function statementsOf(db: Client): SqlStatements {
  return (
    onAdapter.get(db) ?? {
      query: (sql, args) => db.$queryRawUnsafe<Array<Record<string, unknown>>>(sql, ...args).catch(rethrow),
      execute: (sql, args) => db.$executeRawUnsafe(sql, ...args).catch(rethrow),
    }
  );
}

/** The kind of a driver adapter's error, raised by the adapter or wrapped by the client (P2010). */
function adapterErrorKind(error: unknown): string | undefined {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    return (error.meta?.driverAdapterError as { cause?: { kind?: string } } | undefined)?.cause?.kind;
  }
  const cause = (error as { name?: string; cause?: { kind?: string } } | null)?.cause;
  return (error as { name?: string } | null)?.name === 'DriverAdapterError' ? cause?.kind : undefined;
}

function rethrow(error: unknown): never {
  if (adapterErrorKind(error) !== 'UniqueConstraintViolation') throw error;
  throw new Prisma.PrismaClientKnownRequestError('Unique constraint failed', {
    code: 'P2002',
    clientVersion: Prisma.prismaVersion.client,
    meta: { driverAdapterError: (error as { cause?: unknown }).cause ?? (error as { meta?: unknown }).meta },
  });
}
