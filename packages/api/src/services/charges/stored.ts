import { ApiError, lookupIin, newId, notFound, parseExpiry, type Currency } from '@gateway/core';
import type { Account, Charge, PaymentMethod, PaymentToken, Prisma, Provider } from '@gateway/db';
import type { BrowserInfo, PaymentSource } from '@gateway/providers';
import type {
  BankAccountChargeInput,
  ChargeFieldsInput,
  CustomerChargeInput,
  NetworkTokenChargeInput,
  PaymentMethodChargeInput,
  TokenChargeInput,
  WalletChargeInput,
} from '../../schemas/charge';
import type { Dependencies } from '../deps';
import type { HeldKey, KeyedResource } from '../idempotency';
import { threeDsPlan, type ThreeDsPlan } from './three-d-secure';
import type { PaymentMethodService } from '../payment-methods';
import { requireActive, storedCardRef } from '../payment-methods/saving';
import type { StoredPayTo } from '../payment-methods/view';
import { chargeMoney, chargeRefusal, typeOfProvider } from '../providers/currencies';
import { estimatedCost, requireProvider, type ProviderWithFees } from '../providers/selection';
import type { VaultService } from '../vault';
import type { AttemptPlan, AttemptRunner, ChargeRoute } from './attempts';
import type { createDebitCharging, DebitPlan } from './debits';
import { cardColumnsOf, chargeDetails, chargeRow } from './records';
import { refuseOverWalletCap } from './wallet-cap';
import { insertCharge, insertCharges, isTaken } from './statements';
import { atOnce } from '../at-once';
import type { AbandonedRecovery } from './recovery';
import { keptAttempt } from './reversal';
import { resendable } from './unknown-outcomes';
import { tokenRefused } from '../tokens/consume';

/**
 * 29 when the payment method is a PayTo agreement made in another currency (the provider's at the
 * time, when it did not say): the payer agreed to amounts in it only.
 */
export function agreementRefusal(
  method: Pick<PaymentMethod, 'type' | 'payTo'>,
  provider: Pick<Provider, 'currency'>,
  currency: Currency,
): ApiError | undefined {
  if (method.type !== 'PAYTO') return undefined;
  const agreed = (method.payTo as Partial<StoredPayTo> | null)?.currency ?? provider.currency;
  if (currency.code === agreed) return undefined;
  return new ApiError('CurrencyNotSupported', { message: `The PayTo agreement is in ${agreed}: it cannot be charged in ${currency.code}` });
}

/** What charging a payment token needs from the token service (services/tokens). */
export interface TokenConsumer {
  usable(account: Account, tokenId: string): Promise<PaymentToken>;
  consume(account: Account, tokenId: string, usedBy: string, tx?: Prisma.TransactionClient): Promise<PaymentToken>;
}

export interface StoredChargingDeps {
  attempts: Pick<AttemptRunner, 'attempt' | 'runAttempts'>;
  paymentMethods: Pick<PaymentMethodService, 'activeMethod'>;
  debits: ReturnType<typeof createDebitCharging>;
  vault: Pick<VaultService, 'readCard' | 'consumeCcv'>;
  tokens: TokenConsumer;
  abandoned: Pick<AbandonedRecovery, 'resumeUnsendable' | 'recoverAbandoned'>;
}

/** Links a charge keeps to where it came from. */
export interface ChargeOrigin {
  /**
   * The id the charge must have, chosen by a caller that must never charge twice for one thing (a
   * batch row, a subscription period): a second attempt with the same id is refused by the
   * database (Prisma error P2002) before any provider is called.
   */
  chargeId?: string;
  subscriptionId?: string;
  batchId?: string;
  paymentLinkId?: string;
  /** The Idempotency-Key of the request that makes the charge: bound to it as it is written… */
  heldKey?: HeldKey;
  /** …as what (a charge, unless it is the payment of something else, answered as that is). */
  keyedAs?: KeyedResource;
  /** What else the charge takes, written with it in its transaction (a payment link's slot): refused, no charge. */
  takes?: (tx: Prisma.TransactionClient) => Promise<void>;
  /** The payer's browser, as the request told it (3-D Secure: docs/three-d-secure.md). */
  browser?: BrowserInfo;
}

/** The links a charge row keeps to where it came from. */
const linksOf = ({ subscriptionId, batchId, paymentLinkId }: ChargeOrigin) => ({ subscriptionId, batchId, paymentLinkId });

const vaultReader = (account: Account) => `secret-key:…${account.secretKeyHint}`;

/** What reads payment methods and providers: the database client, or a transaction's. */
type Reader = Prisma.TransactionClient;

/**
 * Charges on stored details: a saved payment method (falling back to its fallbackPaymentMethodId
 * after a retryable failure), a customer's default method, a payment token, a network token, a
 * device-wallet token, and bank accounts. Card routes go through the attempt runner; bank-account
 * and PayTo methods through the debit flow.
 */
export function createStoredCharging(
  { db, config }: Dependencies,
  { attempts, debits, vault, tokens, paymentMethods, abandoned }: StoredChargingDeps,
) {
  function cost(provider: ProviderWithFees, cardIin: string | null, currency: Currency, amount: bigint) {
    if (!cardIin) return undefined;
    return estimatedCost(provider, lookupIin(cardIin.padEnd(16, '0')), currency, amount, config.exchangeRates);
  }

  /** The route of a saved card; none when its provider's type cannot take this amount and currency (a fallback is then skipped). */
  async function cardRoute(method: PaymentMethod, amount: bigint, currency: Currency, client: Reader): Promise<ChargeRoute | undefined> {
    if (method.type !== 'CARD' || !method.providerId || !method.providerPaymentMethodId) return undefined;
    const provider = await requireProvider(client, method.accountId, method.providerId);
    if (chargeRefusal(typeOfProvider(provider), currency, amount)) return undefined;
    return {
      provider,
      estimatedCost: cost(provider, method.cardIin, currency, amount),
      source: { type: 'stored_card', ...storedCardRef(method.providerPaymentMethodId, method.providerPaymentMethodData) },
      // A fallback's charge shows the card it took. Its customer is the method's, or none (saving.ts).
      chargeColumns: { paymentMethodId: method.id, ...cardColumnsOf(method) },
    };
  }

  /** A card charge on a saved payment method before anything is written: its row, and its routes (the fallback's too). */
  interface CardCharge {
    row: ReturnType<typeof chargeRow>;
    currency: Currency;
    routes: ChargeRoute[];
    capture: boolean;
    recurring?: boolean;
    /** The methods the charge may use, whose vaulted CCVs it consumes. */
    used: Array<PaymentMethod | null>;
    /** The payer takes part in 3-D Secure (a saved card can need it too). */
    threeDs?: ThreeDsPlan;
  }

  /** The account's payment methods with these ids, removed ones too, in one statement (none when there are no ids). */
  async function methodsById(account: Account, ids: Array<string | null>, client: Reader = db): Promise<Map<string, PaymentMethod>> {
    const wanted = [...new Set(ids)].filter((id) => id !== null);
    if (wanted.length === 0) return new Map();
    const methods = await client.paymentMethod.findMany({ where: { accountId: account.id, id: { in: wanted } } });
    return new Map(methods.map((method) => [method.id, method]));
  }

  /** The fallbacks a card charge on these methods may take. */
  const fallbackIds = (methods: PaymentMethod[]) =>
    methods.map((method) => (method.type === 'CARD' ? method.fallbackPaymentMethodId : null));

  /** `method`'s fallback among `fallbacks` when it is active: a removed fallback is skipped. */
  function fallbackIn(fallbacks: Map<string, PaymentMethod>, method: PaymentMethod): PaymentMethod | null {
    const fallback = method.fallbackPaymentMethodId ? fallbacks.get(method.fallbackPaymentMethodId) : undefined;
    return fallback && !fallback.dateRemoved ? fallback : null;
  }

  /**
   * What charging `method` takes, before anything is written: a debit (bank account, PayTo) or a
   * card charge. A refusal before any provider is thrown (ApiError).
   */
  async function planCharge(
    account: Account,
    method: PaymentMethod,
    fallback: PaymentMethod | null,
    input: ChargeFieldsInput & { recurring?: boolean },
    origin: ChargeOrigin,
    client: Reader = db,
  ): Promise<{ debit: DebitPlan } | { card: CardCharge }> {
    if (!method.providerId) throw new ApiError('InvalidPaymentMethod', { message: 'The payment method has no provider' });
    const provider = await requireProvider(client, account.id, method.providerId);
    const { currency, amount } = chargeMoney(provider, input);
    const { heldKey } = origin;
    const chargeId = origin.chargeId ?? heldKey?.resourceId;
    const columns = {
      ...chargeDetails(input),
      ...linksOf(origin),
      paymentMethodId: method.id,
      customerId: method.customerId,
      recurring: input.recurring ?? null,
    };

    if (method.type === 'BANK_ACCOUNT' || method.type === 'PAYTO') {
      const payTo = method.payTo as Partial<StoredPayTo> | null;
      const agreementId = payTo?.payToId ?? '';
      const refused = agreementRefusal(method, provider, currency);
      if (refused) throw refused;
      // The agreement's limit is in whole units of the currency; the payer agreed to no more.
      if (payTo?.maximumAmount !== undefined && amount > BigInt(payTo.maximumAmount) * 10n ** BigInt(currency.exponent)) {
        throw new ApiError('AmountExceedsMaxAmountForPayToAgreement', {
          message: `The PayTo agreement allows at most ${payTo.maximumAmount} ${currency.code} per payment`,
        });
      }
      return {
        debit: {
          id: chargeId,
          heldKey,
          currency,
          amount,
          provider,
          paymentType: method.type,
          account:
            method.type === 'PAYTO'
              ? { type: 'payto', agreementId }
              : {
                  type: 'bank_account',
                  bankCode: method.bankCode ?? '',
                  accountNumber: method.bankAccountNumber ?? '',
                  accountName: method.bankAccountName ?? '',
                },
          columns: {
            ...columns,
            bankCode: method.bankCode,
            bankAccountNumber: method.bankAccountNumber,
            bankAccountName: method.bankAccountName,
          },
        },
      };
    }

    const first = await cardRoute(method, amount, currency, client);
    if (!first) throw new ApiError('InvalidPaymentMethod', { message: 'The payment method cannot be charged' });
    // A batch row or a subscription payment is made without its payer: never asked to authenticate.
    const payerPresent = !origin.batchId && !origin.subscriptionId;
    const threeDs = payerPresent ? threeDsPlan(account, input, { publicUrl: config.publicUrl, browser: origin.browser }) : undefined;
    const second = fallback ? await cardRoute(fallback, amount, currency, client) : undefined;
    const routes = second ? [first, second] : [first];
    const row = chargeRow(
      account,
      {
        id: chargeId,
        currency,
        amount,
        provider,
        estimatedCost: first.estimatedCost,
        paymentType: 'CARD',
        columns: { ...columns, ...cardColumnsOf(method), threeDsToken: threeDs?.token },
      },
      config.keyring,
    );
    const card = { row, currency, routes, capture: input.capture ?? true, recurring: input.recurring, used: [method, fallback], threeDs };
    return { card };
  }

  /** The attempts of a card charge whose row is written. */
  const attemptsOf = (card: CardCharge, charge: Charge, settle?: AttemptPlan['settle']): AttemptPlan => ({
    charge,
    currency: card.currency,
    capture: card.capture,
    routes: card.routes,
    failover: card.routes.length > 1,
    recurring: card.recurring,
    threeDs: card.threeDs,
    settle,
  });

  /** The first payment with a vaulted card ends the life of its CCV, whatever the outcome: once per card. */
  async function consumeCcvs(account: Account, used: Array<PaymentMethod | null>) {
    for (const vaultItemId of new Set(used.map((method) => method?.vaultItemId)))
      if (vaultItemId) await vault.consumeCcv(account, vaultItemId);
  }

  /** What charging `method` takes (planCharge), with its fallback when it has an active one. */
  async function planMethodCharge(
    account: Account,
    method: PaymentMethod,
    input: ChargeFieldsInput & { recurring?: boolean },
    origin: ChargeOrigin,
    client: Reader = db,
  ) {
    const fallback = fallbackIn(await methodsById(account, fallbackIds([method]), client), method);
    return planCharge(account, method, fallback, input, origin, client);
  }

  /** Runs the attempts of a card charge whose row is written; the CCVs it used are spent, whatever the outcome. */
  async function runCard(account: Account, card: CardCharge, charge: Charge, firstAttempt?: number) {
    try {
      return await attempts.runAttempts({ ...attemptsOf(card, charge), firstAttempt });
    } finally {
      await consumeCcvs(account, card.used);
    }
  }

  async function chargeMethod(
    account: Account,
    method: PaymentMethod,
    input: ChargeFieldsInput & { recurring?: boolean },
    origin: ChargeOrigin = {},
  ) {
    const planned = await planMethodCharge(account, method, input, origin);
    if ('debit' in planned) return debits.debit(account, planned.debit);
    return runCard(account, planned.card, await insertCharge(db, planned.card.row, origin.heldKey, origin.keyedAs));
  }

  async function createPaymentMethodCharge(account: Account, input: PaymentMethodChargeInput, origin?: ChargeOrigin) {
    return chargeMethod(account, await paymentMethods.activeMethod(account, input.paymentMethodId), input, origin);
  }

  /**
   * Throws what createPaymentMethodCharge would refuse this charge with before calling any
   * provider (the same method, fallback and plan: a removed method, a provider or PayTo agreement
   * that cannot take the amount and currency…; a fallback that cannot take them is skipped, as the
   * charge skips it); writes nothing. Through `client`, a transaction's, a caller checks a charge
   * it will make later against what that transaction reads and writes (a subscription's change).
   */
  async function checkPaymentMethodCharge(account: Account, input: PaymentMethodChargeInput, origin: ChargeOrigin, client: Reader) {
    const method = await paymentMethods.activeMethod(account, input.paymentMethodId, client);
    await planMethodCharge(account, method, input, origin, client);
  }

  /**
   * Charges of saved payment methods made together (a batch chunk, docs/batches.md), each as
   * createPaymentMethodCharge makes it, with fewer statements: the methods (and their fallbacks)
   * read in one statement, the card charges inserted PROCESSING in one, committed before any
   * provider is called, then sent several at a time, each success left to `settle` for the caller
   * to write with the others (settleCharges), each vaulted CCV consumed once. Debits (bank account,
   * PayTo) go through the debit flow one by one. Each request's outcome: `charged`; the ApiError
   * that refused it (written like any refusal); `taken`, a charge with its id exists (a run that
   * died made it); undefined, not sent because of `error` (the first other error) or `signal`.
   */
  async function createPaymentMethodCharges(
    account: Account,
    requests: Array<{ input: PaymentMethodChargeInput; origin: ChargeOrigin & { chargeId: string } }>,
    options: {
      /** Provider calls at once: to the simulated acquirer, and when any request goes to a real provider (its rate limit). */
      inFlight: { simulated: number; real: number };
      signal: AbortSignal;
      settle: NonNullable<AttemptPlan['settle']>;
    },
  ) {
    const { signal, settle } = options;
    const outcomes: Array<'charged' | 'taken' | ApiError | undefined> = requests.map(() => undefined);
    const methods = await methodsById(
      account,
      requests.map(({ input }) => input.paymentMethodId),
    );
    const fallbacks = await methodsById(account, fallbackIds([...methods.values()]));
    // A charge a run that died made is `taken` before anything else is looked at: refusing it now
    // (its method removed since, say) would record a row FAILED while its payer may have paid.
    const existing = await db.charge.findMany({
      where: { id: { in: requests.map(({ origin }) => origin.chargeId) } },
      select: { id: true },
    });
    const made = new Set(existing.map(({ id }) => id));
    const plans = await Promise.all(
      requests.map(async ({ input, origin }, index) => {
        if (made.has(origin.chargeId)) {
          outcomes[index] = 'taken';
          return undefined;
        }
        try {
          const method = requireActive(methods.get(input.paymentMethodId));
          return await planCharge(account, method, fallbackIn(fallbacks, method), input, origin);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          outcomes[index] = error;
          return undefined;
        }
      }),
    );
    // A run that lost its lease inserts nothing: a charge inserted and never sent waits for another run to send it.
    if (signal.aborted) return { outcomes, error: undefined };
    const inserted = await insertCharges(
      db,
      plans.flatMap((plan) => (plan && 'card' in plan ? [plan.card.row] : [])),
    );
    const used: Array<PaymentMethod | null> = [];
    let error: unknown;
    const sendCard = async (card: CardCharge) => {
      const charge = inserted.get(card.row.id);
      if (!charge) return 'taken' as const;
      used.push(...card.used);
      await attempts.attempt(attemptsOf(card, charge, settle));
      return 'charged' as const;
    };
    const send = async (plan: (typeof plans)[number], index: number) => {
      if (!plan) return;
      try {
        outcomes[index] =
          'card' in plan ? await sendCard(plan.card) : await debits.debit(account, plan.debit).then(() => 'charged' as const);
      } catch (failure) {
        if (failure instanceof ApiError) outcomes[index] = failure;
        else if (isTaken(failure)) outcomes[index] = 'taken';
        else error ??= failure;
      }
    };
    const providers = plans.flatMap((plan) =>
      !plan ? [] : 'card' in plan ? plan.card.routes.map((route) => route.provider) : [plan.debit.provider],
    );
    const inFlight = providers.every((provider) => provider.type === 'dummy') ? options.inFlight.simulated : options.inFlight.real;
    await atOnce(plans, inFlight, send, () => error !== undefined || signal.aborted);
    await consumeCcvs(account, used);
    return { outcomes, error };
  }

  /**
   * Sends the attempt of charge `chargeId` that a process that died left PROCESSING (made by
   * createPaymentMethodCharge with this input) again under its key, then any attempt after it: the
   * provider answers it as it did the first time (or now, if the first call never reached it), so
   * the payer is charged at most once. The payment method may have been removed since. Card
   * charges only: a debit's settling job sends it again itself (and here its charge id is refused
   * as taken, P2002).
   */
  async function resumePaymentMethodCharge(account: Account, input: PaymentMethodChargeInput, chargeId: string) {
    // A provider that cannot take a call twice (NAB Transact) is not sent a call that may have left
    // (it was kept before it left): its charge is recorded from what the connector kept, or
    // recovered as an abandoned one, and the caller reads what it became. One that never left is sent.
    const charge = await db.charge.findUniqueOrThrow({ where: { id: chargeId }, include: { provider: true } });
    if (charge.status !== 'PROCESSING') return undefined;
    const { provider } = charge;
    const mayHaveLeft = keptAttempt(charge, `${charge.id}:${charge.attemptCount}`) !== undefined;
    if (provider && !resendable(provider) && mayHaveLeft) {
      await abandoned.resumeUnsendable(charge, provider);
      return undefined;
    }
    // It goes on from the attempt its dead run had got to (the ones before ended: failed, reversed
    // and recorded), under that attempt's key, on the card that attempt went to: the one the charge
    // names, a fallback once it had moved on, even if removed since. If that attempt had ended too
    // (the run died before naming the next), from the next. A fallback's key never left before.
    const reached = Math.max(charge.attemptCount, 1);
    const ended = (await db.chargeAttempt.count({ where: { chargeId } })) >= reached;
    const [named] = (await methodsById(account, [charge.paymentMethodId])).values();
    const fallback = named && reached === 1 ? fallbackIn(await methodsById(account, fallbackIds([named])), named) : null;
    const plan = async (method: PaymentMethod | null | undefined, then: PaymentMethod | null) =>
      method
        ? planCharge(account, method, then, input, { chargeId }).catch((error: unknown) => {
            if (error instanceof ApiError) return undefined;
            throw error;
          })
        : undefined;
    // A fallback that can no longer be charged (its provider removed…) is left out, as a new charge leaves it.
    const planned = ended ? await plan(fallback, null) : ((await plan(named, fallback)) ?? (await plan(named, null)));
    // Nothing left that can be charged: the attempt is recovered as an abandoned one, reversed under
    // its key and the charge failed (or held, where it cannot be).
    if (!planned || 'debit' in planned) {
      await abandoned.recoverAbandoned(charge);
      return undefined;
    }
    return runCard(account, planned.card, charge, ended ? reached + 1 : reached);
  }

  async function createCustomerCharge(
    account: Account,
    input: CustomerChargeInput,
    origin: Pick<ChargeOrigin, 'heldKey' | 'browser'> = {},
  ) {
    const customer = await db.customer.findFirst({ where: { id: input.customerId, accountId: account.id } });
    if (!customer) throw notFound('InvalidCustomerId', 'Customer');
    if (customer.dateRemoved) throw new ApiError('InvalidCustomerIdRemoved', { message: 'The customer was removed' });
    if (!customer.defaultPaymentMethodId) throw new ApiError('CustomerHasNoDefaultPaymentMethodId');
    return chargeMethod(account, await paymentMethods.activeMethod(account, customer.defaultPaymentMethodId), input, origin);
  }

  async function createTokenCharge(account: Account, input: TokenChargeInput, origin: ChargeOrigin = {}) {
    const { heldKey, keyedAs, takes } = origin;
    const chargeId = origin.chargeId ?? heldKey?.resourceId ?? newId();
    // The amount is checked against the token's provider before the token is used up: a client's
    // mistake (currency, decimals) must leave the token usable for the corrected request.
    const token = await tokens.usable(account, input.token);
    if (!token.vaultItemId) throw tokenRefused();
    const provider = await requireProvider(db, account.id, token.providerId);
    const { currency, amount } = chargeMoney(provider, input);
    const expiry = parseExpiry(token.cardExpiry ?? '');
    if (!expiry) throw new ApiError('InvalidExpiryDate');
    const card = await vault.readCard(account, token.vaultItemId, { actor: vaultReader(account), purpose: `charge ${chargeId}` });
    const threeDs = threeDsPlan(account, input, { publicUrl: config.publicUrl, browser: origin.browser });
    const row = chargeRow(
      account,
      {
        id: chargeId,
        currency,
        amount,
        provider,
        estimatedCost: cost(provider, token.cardIin, currency, amount),
        paymentType: 'CARD',
        columns: {
          ...chargeDetails(input),
          ...cardColumnsOf(token),
          ...linksOf(origin),
          paymentTokenId: token.id,
          transfer: input.transfer as Prisma.InputJsonValue | undefined,
          threeDsToken: threeDs?.token,
        },
      },
      config.keyring,
    );
    // The token is used up by the charge it makes, and by no other (of two requests racing for it, one gets it).
    const charge = await db.$transaction(async (tx) => {
      await tokens.consume(account, token.id, `charge:${chargeId}`, tx);
      await takes?.(tx);
      return insertCharge(tx, row, heldKey, keyedAs);
    });
    const source: PaymentSource = {
      type: 'card',
      card: {
        number: card.cardNumber,
        expiryMonth: expiry.month,
        expiryYear: expiry.year,
        cvc: card.ccv,
        cardholder: token.cardholder ?? undefined,
      },
    };
    try {
      return await attempts.runAttempts({
        charge,
        currency,
        capture: input.capture ?? true,
        routes: [{ provider, estimatedCost: charge.estimatedCost ?? undefined, source }],
        failover: false,
        threeDs,
      });
    } finally {
      await vault.consumeCcv(account, token.vaultItemId);
    }
  }

  async function createBankAccountCharge(account: Account, input: BankAccountChargeInput, heldKey?: HeldKey) {
    const provider = await requireProvider(db, account.id, input.providerId);
    const { currency, amount } = chargeMoney(provider, input);
    const { bankCode, accountNumber, accountName } = input.bankPaymentInformation;
    return debits.debit(account, {
      id: heldKey?.resourceId,
      heldKey,
      currency,
      amount,
      provider,
      paymentType: 'BANK_ACCOUNT',
      account: { type: 'bank_account', bankCode, accountNumber, accountName },
      columns: { ...chargeDetails(input), bankCode, bankAccountNumber: accountNumber, bankAccountName: accountName },
    });
  }

  async function createNetworkTokenCharge(account: Account, input: NetworkTokenChargeInput, heldKey?: HeldKey) {
    const method = await db.paymentMethod.findFirst({
      where: { accountId: account.id, networkTokenId: input.networkTokenId, dateRemoved: null },
    });
    if (!method) throw notFound('InvalidPaymentMethodId', 'Network token');
    const provider = await requireProvider(db, account.id, input.providerId);
    const { currency, amount } = chargeMoney(provider, input);
    const charge = await insertCharge(
      db,
      chargeRow(
        account,
        {
          id: heldKey?.resourceId,
          currency,
          amount,
          provider,
          estimatedCost: cost(provider, method.cardIin, currency, amount),
          paymentType: 'CARD',
          columns: {
            ...chargeDetails(input),
            ...cardColumnsOf(method),
            paymentMethodId: method.id,
            customerId: method.customerId,
            networkTokenId: input.networkTokenId,
          },
        },
        config.keyring,
      ),
      heldKey,
    );
    const source: PaymentSource = { type: 'network_token', networkTokenId: input.networkTokenId };
    return attempts.runAttempts({
      charge,
      currency,
      capture: input.capture ?? true,
      routes: [{ provider, estimatedCost: charge.estimatedCost ?? undefined, source }],
      failover: false,
    });
  }

  /**
   * Apple Pay; the provider named by the `providerId` header, else the oldest. `maxAud`: the cap of a
   * public-key charge (wallet-cap.ts), none for the secret key.
   */
  async function createWalletCharge(
    account: Account,
    input: WalletChargeInput,
    providerId: string | undefined,
    maxAud: number | undefined,
    heldKey?: HeldKey,
  ) {
    const id =
      providerId ??
      (await db.provider.findFirst({ where: { accountId: account.id, dateRemoved: null, type: 'dummy' }, orderBy: { dateAdded: 'asc' } }))
        ?.id;
    if (!id) throw new ApiError('NoCardProvidersConfigured');
    const provider = await requireProvider(db, account.id, id);
    const { currency, amount } = chargeMoney(provider, input);
    // A type without Apple Pay answers FeatureUnavailable from its connector, whatever the cap says.
    const capped = maxAud !== undefined && typeOfProvider(provider).operations.has('applePay');
    if (capped) refuseOverWalletCap(currency, amount, maxAud, config.exchangeRates);
    const charge = await insertCharge(
      db,
      chargeRow(
        account,
        {
          id: heldKey?.resourceId,
          currency,
          amount,
          provider,
          estimatedCost: undefined,
          paymentType: 'APPLE_PAY',
          columns: chargeDetails(input),
        },
        config.keyring,
      ),
      heldKey,
    );
    const { paymentData } = input.token;
    const source: PaymentSource = {
      type: 'wallet',
      wallet: 'apple_pay',
      paymentData: { ...paymentData, signature: paymentData.signature ?? '', header: paymentData.header ?? {} },
    };
    return attempts.runAttempts({
      charge,
      currency,
      capture: true,
      routes: [{ provider, estimatedCost: undefined, source }],
      failover: false,
    });
  }

  return {
    createPaymentMethodCharge,
    checkPaymentMethodCharge,
    createPaymentMethodCharges,
    resumePaymentMethodCharge,
    createCustomerCharge,
    createTokenCharge,
    createBankAccountCharge,
    createNetworkTokenCharge,
    createWalletCharge,
  };
}
