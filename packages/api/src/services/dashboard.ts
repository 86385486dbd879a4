import { notFound, toWireAmount } from '@gateway/core';
import type { Account } from '@gateway/db';
import { providerType, type CredentialCheck } from '@gateway/providers';
import { threeDsTimeoutMs } from './charges/three-d-secure';
import { isWaitingForPayer } from './charges/view';
import type { Dependencies } from './deps';
import { requireCurrency } from './money';
import { connectorFor } from './providers/connectors';
import { requireProvider } from './providers/selection';

const DAY_MS = 86_400_000;

/** What a credential check found, for staff: the cause, and what to look at. */
export function credentialCheckMessage(provider: string, check: CredentialCheck): string {
  if (check.ok) return `${provider} accepted the credentials.`;
  switch (check.cause) {
    case 'refused':
      return `${provider} refused the credentials (HTTP ${check.httpStatus}): check the key and the account they belong to.`;
    case 'unreachable':
      return `The endpoint could not be reached (no connection): check its address, or whether ${provider} is up.`;
    case 'timed_out':
      return `The endpoint did not answer within ${check.timeoutMs} ms: check its address, or try again later.`;
    case 'answered':
      return `The endpoint answered${check.httpStatus === undefined ? '' : ` HTTP ${check.httpStatus}`}, not as ${provider} answers a credential check: check that its address is ${provider}'s API. The credentials were not checked.`;
  }
}
/** Charge states in which the provider accepted the payment. */
const ACCEPTED = ['SUCCESS', 'PARTIAL_REFUND', 'REFUND', 'AUTHORISE', 'AUTHORISE_CANCELLED'];

export interface ProviderDay {
  /** Day in the time zone asked for, YYYY-MM-DD. */
  date: string;
  /** Captured amount of the day's charges by currency (amounts of different currencies are never added). */
  volume: Record<string, number>;
  /** Charges the provider accepted. */
  accepted: number;
  /** Provider attempts that failed (declines, errors, timeouts). */
  failed: number;
}

const utcDayOf = (instant: number) => new Date(instant).toISOString().slice(0, 10);

/** The calendar day of `date` in the time zone, YYYY-MM-DD. */
function dayIn(timeZone: string, date: Date): string {
  const parts = new Intl.DateTimeFormat('en', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Read models of the dashboard that no REST operation answers. */
export function createDashboardService({ db, clock, config, logger }: Dependencies) {
  // The time zones PostgreSQL knows, read once (again after a failed read).
  let databaseTimeZones: Promise<Set<string>> | undefined;
  /**
   * The zone itself if PostgreSQL knows it too, else UTC: a browser's zone newer than the
   * database's time zone data (a renamed city) must not break the home page.
   */
  async function zoneTheDatabaseKnows(timeZone: string): Promise<string> {
    databaseTimeZones ??= db.$queryRaw<Array<{ name: string }>>`SELECT name FROM pg_timezone_names`.then(
      (rows) => new Set(rows.map((row) => row.name)),
      (error: unknown) => {
        databaseTimeZones = undefined;
        throw error;
      },
    );
    return (await databaseTimeZones).has(timeZone) ? timeZone : 'UTC';
  }

  /**
   * The home page: per provider and day in the staff member's time zone, the captured volume in
   * each currency and how many payments the provider accepted or failed (its success rate), from
   * the charges and their failed attempts.
   */
  async function providerDays(account: Account, days: number, askedTimeZone = 'UTC') {
    const timeZone = await zoneTheDatabaseKnows(askedTimeZone);
    const today = Date.parse(dayIn(timeZone, clock.now()));
    const dates = Array.from({ length: days }, (_, i) => utcDayOf(today - (days - 1 - i) * DAY_MS));
    // A day before the first one in UTC: every time zone's first day starts after it.
    const since = new Date(today - days * DAY_MS);
    const [providers, charges, failures] = await Promise.all([
      db.provider.findMany({ where: { accountId: account.id }, orderBy: { dateAdded: 'asc' } }),
      db.$queryRaw<Array<{ providerId: string; day: string; currency: string; volume: string; accepted: number }>>`
        SELECT "providerId", to_char("dateAdded" AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS day, "currency",
               sum("capturedAmount")::text AS volume, count(*)::int AS accepted
        FROM "Charge"
        WHERE "accountId" = ${account.id} AND "dateAdded" >= ${since} AND "providerId" IS NOT NULL
          AND "status"::text = ANY(${ACCEPTED})
        GROUP BY 1, 2, 3`,
      db.$queryRaw<Array<{ providerId: string; day: string; failed: number }>>`
        SELECT a."providerId", to_char(a."dateAttempted" AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS day, count(*)::int AS failed
        FROM "ChargeAttempt" a JOIN "Charge" c ON c."id" = a."chargeId"
        WHERE c."accountId" = ${account.id} AND a."dateAttempted" >= ${since}
        GROUP BY 1, 2`,
    ]);
    const key = (providerId: string, day: string) => `${providerId} ${day}`;
    const accepted = new Map<string, { count: number; volume: Record<string, number> }>();
    for (const row of charges) {
      const entry = accepted.get(key(row.providerId, row.day)) ?? { count: 0, volume: {} };
      entry.count += row.accepted;
      entry.volume[row.currency] = toWireAmount(BigInt(row.volume), requireCurrency(row.currency));
      accepted.set(key(row.providerId, row.day), entry);
    }
    const failed = new Map(failures.map((row) => [key(row.providerId, row.day), row.failed]));
    return {
      timeZone,
      dates,
      providers: providers.map((provider) => {
        const others = new Set(charges.filter((row) => row.providerId === provider.id).map((row) => row.currency));
        others.delete(provider.currency);
        return {
          providerId: provider.id,
          name: provider.name,
          currency: provider.currency,
          // Its default currency first, then those it took payments in during the period.
          currencies: [provider.currency, ...[...others].sort()],
          days: dates.map((date): ProviderDay => {
            const day = accepted.get(key(provider.id, date));
            return { date, volume: day?.volume ?? {}, accepted: day?.count ?? 0, failed: failed.get(key(provider.id, date)) ?? 0 };
          }),
        };
      }),
    };
  }

  /** The simulated latency and the timeout of each of the account's simulated providers. */
  async function simulatedLatency(account: Account) {
    const providers = await db.provider.findMany({ where: { accountId: account.id, type: 'dummy', dateRemoved: null } });
    return providers.map((p) => ({ providerId: p.id, minMs: p.latencyMinMs, maxMs: p.latencyMaxMs, timeoutMs: p.timeoutMs }));
  }

  /**
   * The dashboard's "check credentials": one harmless authenticated call with the provider's stored
   * credentials (Stripe reads the balance, Adyen lists payment methods). Names the cause of a
   * failure: the credentials refused, the endpoint unreachable or silent, or another answer (with
   * its HTTP status), which says nothing of the credentials. Never the provider's own text.
   */
  async function checkCredentials(account: Account, providerId: string) {
    const provider = await requireProvider(db, account.id, providerId, 404);
    const result = await connectorFor(provider, config).checkCredentials();
    logger.info({ providerId, ...result }, 'provider credentials checked');
    return { ...result, message: credentialCheckMessage(providerType(provider.type)?.displayName ?? provider.type, result) };
  }

  /**
   * Since when a charge has waited for its payer's 3-D Secure authentication, and when the gateway
   * gives up on it (GATEWAY_THREEDS_TIMEOUT_SECONDS); nulls when it does not wait for its payer.
   */
  async function authenticationWait(account: Account, chargeId: string) {
    const charge = await db.charge.findFirst({
      where: { id: chargeId, accountId: account.id },
      select: { status: true, threeDsStartedAt: true },
    });
    if (!charge) throw notFound('InvalidChargeId', 'Charge');
    if (!isWaitingForPayer(charge) || !charge.threeDsStartedAt) return { waitingSince: null, givesUpAt: null };
    const since = charge.threeDsStartedAt;
    return { waitingSince: since.toISOString(), givesUpAt: new Date(since.getTime() + threeDsTimeoutMs(config)).toISOString() };
  }

  return { providerDays, simulatedLatency, checkCredentials, authenticationWait };
}
