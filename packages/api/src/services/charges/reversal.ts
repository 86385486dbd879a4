import { Prisma, type Charge, type Db, type Provider } from '@gateway/db';
import type { AttemptParameters, AuthoriseRequest, ProviderResult, ReverseRequest } from '@gateway/providers';
import type { ServiceConfig } from '../deps';
import { connectorFor, REVERSAL_TIMEOUT_MS } from '../providers/connectors';

/**
 * What `reverse` gets of an authorise call whose outcome is unknown: the call's non-card
 * parameters and the provider ids its connector kept (`AuthoriseRequest.keep`: a Stripe payment
 * method made in an earlier sub-call, an Adyen pspReference). They are kept in the charge's
 * `attemptData` under the call's idempotency key, before the sub-call that moves money, so that a
 * reversal after a crash has them too. Never card data.
 */

/** One attempt in Charge.attemptData (amount as text: JSON has no bigint). */
interface KeptAttempt {
  amount: string;
  currency: string;
  capture: boolean;
  recurring?: boolean;
  reference?: string;
  descriptor?: string;
  providerData: Record<string, string>;
}

/** The idempotency key of a charge attempt is "<chargeId>:<attempt>" (Charge.attemptCount). */
const chargeIdOf = (idempotencyKey: string) => idempotencyKey.slice(0, idempotencyKey.lastIndexOf(':'));

/**
 * Writes what is kept of an attempt under its key; with `firstOnly`, only when nothing is kept of
 * it yet and the charge is PROCESSING. True when written.
 */
async function writeKept(db: Db, params: AttemptParameters, providerData: Record<string, string>, firstOnly = false): Promise<boolean> {
  const { idempotencyKey, amount, ...rest } = params;
  const kept: KeptAttempt = { ...rest, amount: amount.toString(), providerData };
  const first = firstOnly
    ? Prisma.sql`AND "status" = 'PROCESSING' AND NOT jsonb_exists(COALESCE("attemptData", '{}'::jsonb), ${idempotencyKey}::text)`
    : Prisma.empty;
  const written = await db.$executeRaw`
    UPDATE "Charge" SET "attemptData" = COALESCE("attemptData", '{}'::jsonb) || jsonb_build_object(${idempotencyKey}::text, ${JSON.stringify(kept)}::jsonb)
    WHERE "id" = ${chargeIdOf(idempotencyKey)} ${first}`;
  return written === 1;
}

/**
 * The `keep` of an authorise call: each call stores the parameters with everything kept so far
 * (a connector may keep more than once: Adyen's pspReference before its capture).
 */
export function keeper(db: Db, params: AttemptParameters): NonNullable<AuthoriseRequest['keep']> {
  let providerData: Record<string, string> = {};
  return async (more) => {
    providerData = { ...providerData, ...more };
    await writeKept(db, params, providerData);
  };
}

/**
 * Keeps an attempt's parameters before its call leaves, for a call that cannot be sent twice (a
 * provider without idempotency keys), once: false when they were kept already, by this run or
 * another (the call may have left, and is never sent again), or the charge is no longer PROCESSING.
 */
export const claimAttempt = (db: Db, params: AttemptParameters): Promise<boolean> => writeKept(db, params, {}, true);

/** What was kept of an attempt of the charge, if anything. */
export const keptAttempt = (charge: Pick<Charge, 'attemptData'>, idempotencyKey: string): KeptAttempt | undefined =>
  (charge.attemptData as Record<string, KeptAttempt> | null)?.[idempotencyKey];

/**
 * The reversal of an attempt with what was kept of it (only the key when nothing was: nothing moved
 * money), and the provider's payment id when the gateway learnt it (a payment waiting for its payer).
 */
async function reverseRequest(db: Db, idempotencyKey: string, providerChargeId?: string | null): Promise<ReverseRequest> {
  const charge = await db.charge.findUnique({ where: { id: chargeIdOf(idempotencyKey) }, select: { attemptData: true } });
  const kept = charge ? keptAttempt(charge, idempotencyKey) : undefined;
  const known = providerChargeId ? { providerChargeId } : {};
  if (!kept) return { idempotencyKey, ...known };
  const { amount, ...rest } = kept;
  return { ...rest, idempotencyKey, amount: BigInt(amount), ...known };
}

/** Undoes whatever the authorise call with this key may have done at the provider. */
export async function reverseAttempt(
  db: Db,
  config: ServiceConfig,
  provider: Provider,
  idempotencyKey: string,
  providerChargeId?: string | null,
): Promise<ProviderResult<void>> {
  const request = await reverseRequest(db, idempotencyKey, providerChargeId);
  return connectorFor(provider, config, { timeoutMs: REVERSAL_TIMEOUT_MS }).reverse(request);
}
