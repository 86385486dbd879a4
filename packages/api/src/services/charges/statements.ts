import { Prisma, type Charge, type ChargeStatus } from '@gateway/db';

/**
 * The two statements every charge makes, in SQL through Prisma's `$queryRaw`: the query builder's
 * `create` and `update` return all of a charge's columns and cost several times the CPU of the
 * statement itself. Here the insert returns the one column the database fills (`dateAdded`), the
 * update nothing, and the charge is answered from what is in memory. docs/decisions.md, "Charge
 * statements in SQL".
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

const JSON_COLUMNS = new Set<string>(['address', 'order', 'geolocation', 'metadata', 'webhook', 'transfer'] satisfies Column[]);

function column(name: string): Prisma.Sql {
  // Names come from typed rows, never from a request; checked all the same, as they are not parameters.
  if (!Object.hasOwn(CHARGE_DEFAULTS, name) && !['id', 'accountId', 'status', 'currency', 'amount', 'dateAdded'].includes(name)) {
    throw new Error(`Unknown charge column ${name}`);
  }
  return Prisma.raw(`"${name}"`);
}

function value(name: string, given: unknown): Prisma.Sql {
  if (given === null) return Prisma.sql`NULL`;
  if (name === 'status') return Prisma.sql`${given}::"ChargeStatus"`;
  if (JSON_COLUMNS.has(name)) return Prisma.sql`${JSON.stringify(given)}::jsonb`;
  return Prisma.sql`${given}`;
}

/** The columns of a row that are set (undefined is left out, as Prisma does). */
const setColumns = (row: Row) => Object.keys(row).filter((name) => row[name as Column] !== undefined);

/** The set columns only: a column left undefined keeps its default or its value. */
const setOnly = (row: Row, names: string[]): Row => Object.fromEntries(names.map((name) => [name, row[name as Column]]));

/**
 * A raw statement's unique violation (P2010) as the query builder reports it (P2002), which the
 * callers that choose a charge's id check for: the id is taken.
 */
function asQueryBuilderError(error: unknown): unknown {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2010') return error;
  const cause = (error.meta?.driverAdapterError as { cause?: { kind?: string } } | undefined)?.cause;
  if (cause?.kind !== 'UniqueConstraintViolation') return error;
  return new Prisma.PrismaClientKnownRequestError(error.message, { code: 'P2002', clientVersion: error.clientVersion, meta: error.meta });
}

/**
 * Inserts a new charge (chargeRow's); answers the row as the database now holds it. An id already
 * taken fails with P2002, as the query builder's create does.
 */
export async function insertCharge(db: Prisma.TransactionClient, row: Prisma.ChargeUncheckedCreateInput): Promise<Charge> {
  const names = setColumns(row as Row);
  const [inserted] = await db.$queryRaw<Array<Pick<Charge, 'dateAdded'>>>`
    INSERT INTO "Charge" (${Prisma.join(names.map(column))})
    VALUES (${Prisma.join(names.map((name) => value(name, row[name as keyof typeof row])))})
    RETURNING "dateAdded"`.catch((error: unknown) => {
    throw asQueryBuilderError(error);
  });
  return { ...CHARGE_DEFAULTS, ...setOnly(row as Row, names), dateAdded: inserted!.dateAdded } as Charge;
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
  const assignments = names.map((name) => Prisma.sql`${column(name)} = ${value(name, changes[name as keyof typeof changes])}`);
  const count = await db.$executeRaw`
    UPDATE "Charge" SET ${Prisma.join(assignments)} WHERE id = ${charge.id} AND status = ${from}::"ChargeStatus"`;
  if (count !== 1) throw new Error(`Charge ${charge.id} is no longer ${from}`);
  return { ...charge, ...setOnly(changes, names) } as Charge;
}
