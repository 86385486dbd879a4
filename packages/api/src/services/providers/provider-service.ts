import { ApiError, formatAmount, MAX_MINOR_UNITS, newUuid, parseDecimal, seal, toMinorUnits, type Currency } from '@gateway/core';
import type { Account, Prisma, ProviderFee } from '@gateway/db';
import type { ProviderType } from '@gateway/providers';
import { MASKED_PARAMETER, type NewProviderInput, type ProviderChanges, type ProviderView } from '../../schemas/provider';
import { paging } from '../../schemas/search';
import type { Dependencies } from '../deps';
import { createKeyed, type HeldKey } from '../idempotency';
import { requireCurrency } from '../money';
import { providerCredentialsAad, sealedColumns } from '../sealed-data';
import { storedParameters } from './credentials';
import { currencyRefusal, typeOfProvider } from './currencies';
import { forgetProviders } from './provider-cache';
import { checkedParameters, environmentOf, supportedType, type ConnectorSettings } from './provider-types';
import { requireProvider, type ProviderWithFees } from './selection';
import { toProviderView } from './view';

export interface FeeInput {
  /** The currency of the charges the line prices (ISO 4217; default the provider currency). */
  currency?: string;
  cardScheme?: string | null;
  isInternationalCard?: boolean | null;
  /** Fixed fee per transaction in major units of the line's currency, e.g. "0.30" (default 0). */
  transactionCost?: string | number;
  /** Percentage of the amount, e.g. "1.75" (default 0). */
  transactionPercentage?: string | number;
}

/** A provider as the gateway stores it; connector settings absent take the database defaults. */
export interface NewProvider extends Partial<ConnectorSettings> {
  type: string;
  name: string;
  currency: string;
  country?: string | null;
  environment?: string;
  fees?: FeeInput[];
  /** The authenticationParameters: stored sealed, answered masked. */
  credentials?: Record<string, string>;
  additionalParameters?: Record<string, string>;
  threeDsProviderId?: string | null;
}

function invalidFee(field: string, problem: string): ApiError {
  return new ApiError('ValidationError', { message: `Invalid fee schedule: ${problem}`, details: { [field]: problem } });
}

/** The provider's own currency, which its type must take (29 naming the type otherwise). */
function ownCurrency(type: ProviderType, code: string): Currency {
  const currency = requireCurrency(code);
  const refused = currencyRefusal(type, currency);
  if (refused) throw refused;
  return currency;
}

/**
 * The rows of a fee schedule: each line in its own currency (the provider's unless given), which
 * the type must take (29), its fixed fee in that currency's precision (90 naming the field).
 */
/**
 * A provider's type and environment are fixed once created (its credentials, charges and
 * notifications belong to them): PUT may send them back as they are, and answers 90 naming the
 * field for a different value rather than ignoring it.
 */
function refuseFixedChanges(provider: { type: string; environment: string }, changes: ProviderChanges): void {
  const fixed = { type: provider.type, environment: environmentOf(provider) };
  for (const field of ['type', 'environment'] as const) {
    const sent = changes[field];
    if (sent === undefined || sent.toLowerCase() === fixed[field].toLowerCase()) continue;
    const problem = `A provider's ${field} cannot change (it is ${fixed[field]}): create a new provider instead`;
    throw new ApiError('ValidationError', { message: problem, details: { [field]: problem } });
  }
}

function feeRows(fees: readonly FeeInput[], providerCurrency: Currency, type: ProviderType) {
  return fees.map((fee, i) => {
    const currency = fee.currency === undefined ? providerCurrency : requireCurrency(fee.currency);
    const refused = currencyRefusal(type, currency, `costData.${i}.currency`);
    if (refused) throw refused;
    const decimal = parseDecimal(fee.transactionCost ?? 0);
    const fixedMinor = decimal && toMinorUnits(decimal, currency);
    if (fixedMinor === undefined || fixedMinor < 0n || fixedMinor > MAX_MINOR_UNITS) {
      throw invalidFee(`costData.${i}.transactionCost`, `at least 0, with at most ${currency.exponent} decimal places in ${currency.code}`);
    }
    const percentage = String(fee.transactionPercentage ?? 0).trim();
    if (!/^\d{1,3}(\.\d{1,4})?$/.test(percentage) || Number(percentage) > 100) {
      throw invalidFee(`costData.${i}.transactionPercentage`, 'from 0 to 100, with at most 4 decimal places');
    }
    return {
      id: newUuid(),
      currency: currency.code,
      cardScheme: fee.cardScheme?.toUpperCase() ?? null,
      isInternationalCard: fee.isInternationalCard ?? null,
      fixedMinor,
      percentage,
    };
  });
}

/**
 * The schedule after the provider currency changes from `from` to `to` with no new costData: the
 * lines in `from` move to `to` (their amounts checked again there), the others stay. Refused when
 * lines in `to` exist already, as the two sets would both price it.
 */
function movedFees(fees: readonly ProviderFee[], from: Currency, to: Currency): FeeInput[] {
  if (fees.some((fee) => fee.currency === from.code) && fees.some((fee) => fee.currency === to.code)) {
    throw invalidFee('costData', `lines in both ${from.code} and ${to.code}: send costData with the new currency`);
  }
  return fees.map((fee) => {
    const currency = requireCurrency(fee.currency);
    return {
      currency: currency.code === from.code ? to.code : currency.code,
      cardScheme: fee.cardScheme,
      isInternationalCard: fee.isInternationalCard,
      transactionCost: formatAmount(fee.fixedMinor, currency),
      transactionPercentage: fee.percentage.toString(),
    };
  });
}

function settingColumns(settings: Partial<ConnectorSettings>) {
  return {
    latencyMinMs: settings.latency?.minMs,
    latencyMaxMs: settings.latency?.maxMs,
    timeoutMs: settings.timeoutMs,
    settlementDelayMs: settings.settlementDelayMs,
  };
}

export function createProviderService({ db, clock, config }: Dependencies) {
  /** All the parameters sealed as one value under the master keyring; only their names in clear. */
  function credentialColumns(providerId: string, parameters: Record<string, string>) {
    const names = Object.keys(parameters);
    if (names.length === 0) return { credentialsKeyId: null, credentialsKey: null, credentials: null, credentialNames: [] };
    const sealed = sealedColumns(seal(JSON.stringify(parameters), providerCredentialsAad(providerId), config.keyring));
    return { credentialsKeyId: sealed.keyId, credentialsKey: sealed.key, credentials: sealed.value, credentialNames: names };
  }

  /**
   * New parameters for a PUT: a value sent back as the mask GET answers ("********") keeps the
   * stored one, so a client may echo what it read and change only what it means to.
   */
  function unmasked(provider: ProviderWithFees, parameters: Record<string, string>): Record<string, string> {
    if (!Object.values(parameters).includes(MASKED_PARAMETER)) return parameters;
    const stored = storedParameters(provider, config.keyring);
    return Object.fromEntries(
      Object.entries(parameters).flatMap(([name, value]) => {
        const kept = value === MASKED_PARAMETER ? stored[name] : value;
        return kept === undefined ? [] : [[name, kept]];
      }),
    );
  }

  /**
   * Changes an active provider of the account that still is as `expected` (else 404, 39; or 409 when
   * it changed meanwhile), replacing its fee schedule when `fees` is given.
   */
  async function change(
    account: Account,
    providerId: string,
    data: Prisma.ProviderUpdateManyMutationInput,
    { fees, expected = {} }: { fees?: ReturnType<typeof feeRows>; expected?: Prisma.ProviderWhereInput } = {},
  ): Promise<ProviderView> {
    const changed = await db.$transaction(async (tx) => {
      const { count } = await tx.provider.updateMany({
        where: { ...expected, id: providerId, accountId: account.id, dateRemoved: null },
        data,
      });
      if (count === 0) return undefined;
      if (fees) {
        await tx.providerFee.deleteMany({ where: { providerId } });
        await tx.providerFee.createMany({ data: fees.map((fee) => ({ ...fee, providerId })) });
      }
      return tx.provider.findUniqueOrThrow({ where: { id: providerId }, include: { fees: true } });
    });
    forgetProviders(db);
    if (changed) return toProviderView(changed);
    await requireProvider(db, account.id, providerId, 404);
    throw new ApiError('RetryLater', { http: 409, message: 'The provider changed while this change was made; send it again' });
  }

  async function create(account: Pick<Account, 'id'>, input: NewProvider, heldKey?: HeldKey): Promise<ProviderWithFees> {
    const id = newUuid();
    const type = typeOfProvider(input);
    const currency = ownCurrency(type, input.currency);
    const created = await createKeyed(db, heldKey, 'provider', (tx) =>
      tx.provider.create({
        data: {
          id,
          accountId: account.id,
          type: input.type,
          name: input.name,
          currency: currency.code,
          country: input.country?.toUpperCase() ?? null,
          environment: input.environment ?? 'SANDBOX',
          ...settingColumns(input),
          ...credentialColumns(id, input.credentials ?? {}),
          additionalParameters: input.additionalParameters ?? {},
          threeDsProviderId: input.threeDsProviderId ?? null,
          fees: { create: feeRows(input.fees ?? [], currency, type) },
        },
        include: { fees: true },
      }),
    );
    forgetProviders(db);
    return created;
  }

  return {
    create,

    /** POST /provider: the connector is configured by its authenticationParameters, checked against its type. */
    async add(account: Account, input: NewProviderInput, heldKey?: HeldKey): Promise<ProviderView> {
      const type = supportedType(input.type);
      const environment = input.environment ?? 'SANDBOX';
      const { credentials, settings } = checkedParameters(type, input.authenticationParameters ?? {}, environment);
      const provider = await create(
        account,
        {
          type: type.type,
          name: input.name,
          environment,
          currency: input.currency ?? account.defaultCurrency,
          country: input.providerCountry,
          fees: input.costData,
          ...settings,
          credentials,
          additionalParameters: input.additionalParameters,
          threeDsProviderId: input.threeDsProviderId,
        },
        heldKey,
      );
      return toProviderView(provider);
    },

    /**
     * PUT /provider/{id}: absent fields stay. New authenticationParameters replace the old ones (and
     * the settings they give); a new currency keeps the fee schedule's amounts unless costData is sent.
     */
    async update(account: Account, providerId: string, changes: ProviderChanges): Promise<ProviderView> {
      const provider = await requireProvider(db, account.id, providerId, 404);
      refuseFixedChanges(provider, changes);
      const type = typeOfProvider(provider);
      const from = requireCurrency(provider.currency);
      const currency = changes.currency ? ownCurrency(type, changes.currency) : from;
      const fees = changes.costData ?? (currency.code === from.code ? undefined : movedFees(provider.fees, from, currency));
      const parameters =
        changes.authenticationParameters &&
        checkedParameters(type, unmasked(provider, changes.authenticationParameters), environmentOf(provider));
      const data: Prisma.ProviderUpdateManyMutationInput = {
        name: changes.name,
        country: changes.providerCountry,
        currency: currency.code,
        additionalParameters: changes.additionalParameters,
        threeDsProviderId: changes.threeDsProviderId,
        ...(parameters && { ...settingColumns(parameters.settings), ...credentialColumns(providerId, parameters.credentials) }),
      };
      // Fee amounts were checked against the currency read: the change applies only if it still is.
      return change(account, providerId, data, { fees: fees && feeRows(fees, currency, type), expected: { currency: from.code } });
    },

    /** DELETE /provider/{id}: soft; the provider takes no more charges. */
    remove(account: Account, providerId: string): Promise<ProviderView> {
      return change(account, providerId, { dateRemoved: clock.now() });
    },

    async get(account: Account, providerId: string): Promise<ProviderView> {
      return toProviderView(await requireProvider(db, account.id, providerId, 404));
    },

    /** The provider as POST /provider answered it, removed since or not (an Idempotency-Key's answer, services/idempotency.ts). */
    async created(account: Account, providerId: string): Promise<ProviderView> {
      return toProviderView(
        await db.provider.findFirstOrThrow({ where: { id: providerId, accountId: account.id }, include: { fees: true } }),
      );
    },

    /** Active providers, newest first. */
    async list(account: Account, input: { limit?: number; skip?: number }) {
      const where = { accountId: account.id, dateRemoved: null };
      const { take, skip } = paging(input);
      const [count, providers] = await Promise.all([
        db.provider.count({ where }),
        db.provider.findMany({ where, include: { fees: true }, orderBy: [{ dateAdded: 'desc' }, { id: 'desc' }], take, skip }),
      ]);
      return { limit: take, skip, count, providers: providers.map(toProviderView) };
    },
  };
}

export type ProviderService = ReturnType<typeof createProviderService>;
