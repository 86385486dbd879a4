import { notFound, toWireAmount } from '@gateway/core';
import { type Account, Prisma } from '@gateway/db';
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
/** Lines per chart at most: the largest providers, then the others added up as one. */
export const MAX_SERIES = 8;

/** One line of a chart: a provider's, or "Other" for the providers past the largest. */
export interface Series<T> {
  key: string;
  name: string;
  /** One per day of the period. */
  days: T[];
}

/** Provider attempts of a day: accepted charges and failed attempts (declines, errors, timeouts). */
interface Attempts {
  accepted: number;
  failed: number;
}

const utcDayOf = (instant: number) => new Date(instant).toISOString().slice(0, 10);
const byDescendingSize = <T extends { size: bigint }>(a: T, b: T) => (a.size === b.size ? 0 : a.size > b.size ? -1 : 1);

/** The calendar day of `date` in the time zone, YYYY-MM-DD. */
function dayIn(timeZone: string, date: Date): string {
  const parts = new Intl.DateTimeFormat('en', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * At most MAX_SERIES lines: all of them when they fit, else the largest MAX_SERIES − 1 (by `size`,
 * kept in their given order so a provider keeps its place) and "Other", the rest added day by day.
 */
export function largestThenOther<T>(series: Array<Series<T> & { size: bigint }>, add: (a: T, b: T) => T): Array<Series<T>> {
  const strip = ({ key, name, days }: Series<T>): Series<T> => ({ key, name, days });
  if (series.length <= MAX_SERIES) return series.map(strip);
  const largest = new Set([...series].sort(byDescendingSize).slice(0, MAX_SERIES - 1));
  const rest = series.filter((s) => !largest.has(s));
  const days = rest.map((s) => s.days).reduce((sum, next) => sum.map((day, i) => add(day, next[i] as T)));
  return [...series.filter((s) => largest.has(s)).map(strip), { key: 'other', name: `Other (${rest.length} providers)`, days }];
}

const percentOf = ({ accepted, failed }: Attempts) => (accepted + failed === 0 ? null : (100 * accepted) / (accepted + failed));

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
   * The home page, for the last `days` days in the staff member's time zone: per currency, the
   * period's headline figures and each provider's captured volume per day; per provider and day,
   * how many payments it accepted out of all its attempts (its success rate). Every sum is
   * PostgreSQL's, in minor units; at most MAX_SERIES lines per chart.
   */
  async function home(account: Account, days: number, askedTimeZone = 'UTC') {
    const timeZone = await zoneTheDatabaseKnows(askedTimeZone);
    const today = Date.parse(dayIn(timeZone, clock.now()));
    const dates = Array.from({ length: days }, (_, i) => utcDayOf(today - (days - 1 - i) * DAY_MS));
    // The start of the first day in the time zone.
    const since = Prisma.sql`(${dates[0]}::date::timestamp AT TIME ZONE ${timeZone})`;
    const localDay = (column: Prisma.Sql) => Prisma.sql`to_char(${column} AT TIME ZONE ${timeZone}, 'YYYY-MM-DD')`;
    const [providers, volumes, failures, totals, refunds] = await Promise.all([
      db.provider.findMany({ where: { accountId: account.id }, orderBy: { dateAdded: 'asc' } }),
      db.$queryRaw<Array<{ providerId: string; day: string; currency: string; volume: string; accepted: number }>>`
        SELECT "providerId", ${localDay(Prisma.sql`"dateAdded"`)} AS day, "currency",
               sum("capturedAmount")::text AS volume, count(*)::int AS accepted
        FROM "Charge"
        WHERE "accountId" = ${account.id} AND "dateAdded" >= ${since} AND "providerId" IS NOT NULL
          AND "status"::text = ANY(${ACCEPTED})
        GROUP BY 1, 2, 3`,
      db.$queryRaw<Array<{ providerId: string; day: string; failed: number }>>`
        SELECT a."providerId", ${localDay(Prisma.sql`a."dateAttempted"`)} AS day, count(*)::int AS failed
        FROM "ChargeAttempt" a JOIN "Charge" c ON c."id" = a."chargeId"
        WHERE c."accountId" = ${account.id} AND a."dateAttempted" >= ${since}
        GROUP BY 1, 2`,
      db.$queryRaw<Array<{ currency: string; volume: string; payments: number; failed: number }>>`
        SELECT "currency",
               COALESCE(sum("capturedAmount") FILTER (WHERE "status"::text = ANY(${ACCEPTED})), 0)::text AS volume,
               (count(*) FILTER (WHERE "status"::text = ANY(${ACCEPTED})))::int AS payments,
               (count(*) FILTER (WHERE "status" = 'FAILED'))::int AS failed
        FROM "Charge"
        WHERE "accountId" = ${account.id} AND "dateAdded" >= ${since}
        GROUP BY 1`,
      db.$queryRaw<Array<{ currency: string; refunded: string; refunds: number }>>`
        SELECT c."currency", sum(r."amount")::text AS refunded, count(*)::int AS refunds
        FROM "Refund" r JOIN "Charge" c ON c."id" = r."chargeId"
        WHERE c."accountId" = ${account.id} AND r."dateAdded" >= ${since} AND r."status" = 'SUCCEEDED'
        GROUP BY 1`,
    ]);
    const key = (providerId: string, day: string) => `${providerId} ${day}`;
    const volumeOf = new Map(volumes.map((row) => [`${key(row.providerId, row.day)} ${row.currency}`, BigInt(row.volume)]));
    const attemptsOf = new Map<string, Attempts>();
    for (const row of volumes) {
      const day = attemptsOf.get(key(row.providerId, row.day)) ?? { accepted: 0, failed: 0 };
      attemptsOf.set(key(row.providerId, row.day), { ...day, accepted: day.accepted + row.accepted });
    }
    for (const row of failures) {
      const day = attemptsOf.get(key(row.providerId, row.day)) ?? { accepted: 0, failed: 0 };
      attemptsOf.set(key(row.providerId, row.day), { ...day, failed: row.failed });
    }

    // A provider's default currency, then those it took payments in during the period.
    const currenciesOf = (provider: (typeof providers)[number]) => [
      provider.currency,
      ...[...new Set(volumes.filter((row) => row.providerId === provider.id).map((row) => row.currency))]
        .filter((currency) => currency !== provider.currency)
        .sort(),
    ];
    const chartCurrencies = [...new Set(providers.flatMap(currenciesOf))];
    const currencies = [
      ...chartCurrencies,
      ...[...new Set([...totals, ...refunds].map((row) => row.currency))].filter((c) => !chartCurrencies.includes(c)).sort(),
    ];

    const volume = chartCurrencies.map((code) => {
      const currency = requireCurrency(code);
      const series = providers
        .filter((provider) => currenciesOf(provider).includes(code))
        .map((provider) => {
          const minor = dates.map((date) => volumeOf.get(`${key(provider.id, date)} ${code}`) ?? 0n);
          return { key: provider.id, name: provider.name, days: minor, size: minor.reduce((a, b) => a + b, 0n) };
        });
      return {
        currency: code,
        series: largestThenOther(series, (a, b) => a + b).map(({ days: minor, ...line }) => ({
          ...line,
          values: minor.map((amount) => toWireAmount(amount, currency)),
        })),
      };
    });

    const successRate = largestThenOther(
      providers.map((provider) => {
        const attempts = dates.map((date) => attemptsOf.get(key(provider.id, date)) ?? { accepted: 0, failed: 0 });
        return {
          key: provider.id,
          name: provider.name,
          days: attempts,
          size: BigInt(attempts.reduce((n, d) => n + d.accepted + d.failed, 0)),
        };
      }),
      (a, b) => ({ accepted: a.accepted + b.accepted, failed: a.failed + b.failed }),
    ).map(({ days: attempts, ...line }) => ({ ...line, values: attempts.map(percentOf) }));

    return {
      timeZone,
      dates,
      totals: currencies.map((code) => {
        const currency = requireCurrency(code);
        const charges = totals.find((row) => row.currency === code) ?? { volume: '0', payments: 0, failed: 0 };
        const refunded = refunds.find((row) => row.currency === code) ?? { refunded: '0', refunds: 0 };
        return {
          currency: code,
          volume: toWireAmount(BigInt(charges.volume), currency),
          payments: charges.payments,
          failed: charges.failed,
          successRate: percentOf({ accepted: charges.payments, failed: charges.failed }),
          refunded: toWireAmount(BigInt(refunded.refunded), currency),
          refunds: refunded.refunds,
        };
      }),
      volume,
      successRate,
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

  return { home, simulatedLatency, checkCredentials, authenticationWait };
}
