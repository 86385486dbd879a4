import { Prisma, statementsOf, type Charge, type ChargeStatus } from '@gateway/db';
import { bindKeyStatement, keyTakenOver, type HeldKey, type KeyedResource } from '../idempotency';

/** A new charge's row, with the id chosen for it. */
type ChargeRow = Prisma.ChargeUncheckedCreateInput & { id: string };

/**
 * The statements that insert and update charges (one charge's two, and a batch chunk's bulk ones),
 * in SQL (statementsOf: on Prisma's driver adapter when no transaction is open): the query
 * builder's `create` and `update` return all of a charge's columns and cost several times the CPU
 * of the statement itself. Here the insert returns the one column
 * the database fills (`dateAdded`), the update nothing, and the charge is answered from what is in
 * memory. docs/decisions.md, "Charge statements in SQL".
 */

/** What a new charge row holds for every column its insert leaves out: the schema's defaults. */
const CHARGE_DEFAULTS = {
  providerId: null,
  providerChargeId: null,
  attemptCount: 0,
  attemptData: null,
  capturedAmount: 0n,
  refundedAmount: 0n,
  refundPendingAmount: 0n,
  pendingOperation: null,
  pendingOperationAt: null,
  estimatedCost: null,
  estimatedCostCurrency: null,
  paymentType: 'CARD',
  cardMasked: null,
  cardIin: null,
  cardScheme: null,
  cardType: null,
  cardExpiry: null,
  cardholder: null,
  cardIssuer: null,
  cardCountryCode: null,
  cardCountry: null,
  reference: null,
  email: null,
  phone: null,
  firstName: null,
  lastName: null,
  customerCode: null,
  invoiceNumber: null,
  ip: null,
  descriptor: null,
  initiator: null,
  threeDsNotificationUrl: null,
  threeDsToken: null,
  threeDsChallenge: null,
  threeDsStartedAt: null,
  threeDs: null,
  address: null,
  order: null,
  geolocation: null,
  metadata: null,
  webhook: null,
  customerId: null,
  paymentMethodId: null,
  paymentTokenId: null,
  subscriptionId: null,
  batchId: null,
  recurring: null,
  transfer: null,
  bankCode: null,
  bankAccountNumber: null,
  bankAccountName: null,
  networkTokenId: null,
  paymentLinkId: null,
  failureCode: null,
  failureMessage: null,
  gatewayCode: null,
  gatewayMessage: null,
  successDate: null,
  voidDate: null,
} satisfies Omit<Charge, 'id' | 'accountId' | 'status' | 'currency' | 'amount' | 'dateAdded'>;

type Column = keyof Charge;
type Row = Partial<Record<Column, unknown>>;

const JSON_COLUMNS = new Set<string>([
  'address',
  'order',
  'geolocation',
  'metadata',
  'webhook',
  'transfer',
  'threeDsChallenge',
  'threeDs',
] satisfies Column[]);

function column(name: string): string {
  // Names come from typed rows, never from a request; checked all the same, as they are not parameters.
  if (!Object.hasOwn(CHARGE_DEFAULTS, name) && !['id', 'accountId', 'status', 'currency', 'amount', 'dateAdded'].includes(name)) {
    throw new Error(`Unknown charge column ${name}`);
  }
  return `"${name}"`;
}

/** Statement parameters, `$1…$n` in the order they are added. */
class Parameters {
  readonly values: unknown[] = [];

  /**
   * The placeholder of a column's value, with the cast the column needs. Null is a parameter too
   * (SQL NULL, in JSON columns as well): a statement's text depends only on the columns it sets,
   * so that few texts are prepared (packages/db/src/statements.ts).
   */
  of(name: string, given: unknown): string {
    const json = JSON_COLUMNS.has(name);
    this.values.push(given === null || !json ? given : JSON.stringify(given));
    const placeholder = `$${this.values.length}`;
    if (name === 'status') return `${placeholder}::"ChargeStatus"`;
    return json ? `${placeholder}::jsonb` : placeholder;
  }
}

/** The columns of a row that are set (undefined is left out, as Prisma does). */
const setColumns = (row: Row) => Object.keys(row).filter((name) => row[name as Column] !== undefined);

/** Every column, for a copy of one shape (V8 copies an object of known shape fast; adding keys one by one is slow). */
const CHARGE_SHAPE: Row = { id: '', accountId: '', status: 'PROCESSING', currency: '', amount: 0n, dateAdded: null, ...CHARGE_DEFAULTS };

/** `base` (every column) with the set columns of `row` over it: a column left undefined keeps its value. */
function withColumns(base: Row, row: Row, names: string[]): Charge {
  const charge = { ...base };
  for (const name of names) charge[name as Column] = row[name as Column];
  return charge as Charge;
}

/** A charge id chosen by the caller was taken (P2002): a charge with it exists. */
export const isTaken = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/**
 * Inserts a new charge (chargeRow's); answers the row as the database now holds it. An id already
 * taken fails with P2002, as the query builder's create does. With the Idempotency-Key its request
 * holds, the same statement binds the key to the charge (services/idempotency.ts): one round trip
 * still, and no charge when the key was taken over.
 */
export async function insertCharge(
  db: Prisma.TransactionClient,
  row: ChargeRow,
  heldKey?: HeldKey,
  keyedAs: KeyedResource = 'charge',
): Promise<Charge> {
  const names = setColumns(row as Row);
  const parameters = new Parameters();
  const values = names.map((name) => parameters.of(name, row[name as keyof typeof row]));
  const columns = names.map(column).join(', ');
  let statement = `INSERT INTO "Charge" (${columns}) VALUES (${values.join(', ')}) RETURNING "dateAdded"`;
  if (heldKey) {
    const bind = bindKeyStatement(heldKey, { type: keyedAs, id: row.id }, parameters.values.length + 1);
    parameters.values.push(...bind.values);
    statement = `WITH bound AS (${bind.sql})
      INSERT INTO "Charge" (${columns}) SELECT ${values.join(', ')} WHERE EXISTS (SELECT 1 FROM bound) RETURNING "dateAdded"`;
  }
  const [inserted] = await statementsOf(db).query(statement, parameters.values);
  if (!inserted) throw keyTakenOver();
  const charge = withColumns(CHARGE_SHAPE, row as Row, names);
  charge.dateAdded = inserted.dateAdded as Date;
  return charge;
}

/**
 * Changes a charge that is still in status `from` (else throws: something else decided it);
 * answers it with the change, from `charge` as last read.
 */
export async function updateCharge(
  db: Prisma.TransactionClient,
  charge: Charge,
  from: ChargeStatus,
  changes: Partial<Omit<Charge, 'id'>>,
): Promise<Charge> {
  const names = setColumns(changes);
  const parameters = new Parameters();
  const assignments = names.map((name) => `${column(name)} = ${parameters.of(name, changes[name as keyof typeof changes])}`);
  const id = parameters.of('id', charge.id);
  const status = parameters.of('status', from);
  const count = await statementsOf(db).execute(
    `UPDATE "Charge" SET ${assignments.join(', ')} WHERE id = ${id} AND status = ${status}`,
    parameters.values,
  );
  if (count !== 1) throw new Error(`Charge ${charge.id} is no longer ${from}`);
  return withColumns(charge, changes, names);
}

/** Rows that set the same columns, for one statement over many rows. */
function byShape(rows: Row[]): Array<{ names: string[]; rows: Row[] }> {
  const shapes = new Map<string, { names: string[]; rows: Row[] }>();
  for (const row of rows) {
    const names = setColumns(row);
    const key = names.join();
    const shape = shapes.get(key) ?? { names, rows: [] };
    shapes.set(key, shape);
    shape.rows.push(row);
  }
  return [...shapes.values()];
}

/**
 * Rows as one parameter, read by `jsonb_populate_recordset(NULL::"Charge", $1::jsonb)` as a table
 * of the Charge row type, whatever their number: the database reads each value with its column's
 * type, bigint from text, timestamps from ISO text. JSON leaves undefined values out, and the
 * table reads a value left out as NULL; the statements name only the shape's columns.
 */
const asJson = (rows: Row[]) => JSON.stringify(rows, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

/**
 * Inserts new charges (chargeRow's) in one statement per set of columns; a charge whose id is
 * taken is left out. Answers the charges inserted, by id, as the database now holds them.
 */
export async function insertCharges(db: Prisma.TransactionClient, rows: Prisma.ChargeUncheckedCreateInput[]): Promise<Map<string, Charge>> {
  const inserted = new Map<string, Charge>();
  for (const shape of byShape(rows as Row[])) {
    const names = shape.names.map(column).join(', ');
    const made = await statementsOf(db).query(
      `INSERT INTO "Charge" (${names}) SELECT ${names} FROM jsonb_populate_recordset(NULL::"Charge", $1::jsonb)
       ON CONFLICT ("id") DO NOTHING RETURNING "id", "dateAdded"`,
      [asJson(shape.rows)],
    );
    const rowOf = new Map(shape.rows.map((row) => [row.id, row]));
    for (const { id, dateAdded } of made as Array<Pick<Charge, 'id' | 'dateAdded'>>) {
      const charge = withColumns(CHARGE_SHAPE, rowOf.get(id)!, shape.names);
      charge.dateAdded = dateAdded;
      inserted.set(id, charge);
    }
  }
  return inserted;
}

/**
 * Changes charges still in status `from`, each with its own changes, in one statement per set of
 * columns changed; answers the ids changed (a charge no longer `from` was decided elsewhere).
 */
export async function updateCharges(
  db: Prisma.TransactionClient,
  from: ChargeStatus,
  updates: Array<{ id: string; changes: Partial<Omit<Charge, 'id'>> }>,
): Promise<string[]> {
  const changed: string[] = [];
  for (const shape of byShape(updates.map(({ id, changes }) => ({ ...changes, id })))) {
    const assignments = shape.names.filter((name) => name !== 'id').map((name) => `${column(name)} = v.${column(name)}`);
    const rows = await statementsOf(db).query(
      `UPDATE "Charge" AS c SET ${assignments.join(', ')} FROM jsonb_populate_recordset(NULL::"Charge", $1::jsonb) AS v
       WHERE c."id" = v."id" AND c."status" = $2::"ChargeStatus" RETURNING c."id"`,
      [asJson(shape.rows), from],
    );
    changed.push(...rows.map((row) => String(row.id)));
  }
  return changed;
}
