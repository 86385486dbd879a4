import { ApiError, ERROR_NAMES, formatAmount, HOSTED_PAYMENT_TYPES, newId, notFound, toWireAmount } from '@gateway/core';
import type { Account, Charge, PaymentLink, Prisma } from '@gateway/db';
import type { BrowserInfo } from '@gateway/providers';
import type { ChargeView } from '../../schemas/charge';
import type { NewPaymentLink, PaymentLinkPayment, PaymentLinkView, PublicPaymentLinkView } from '../../schemas/payment-link';
import { dateRange, paging } from '../../schemas/search';
import type { ChargeService } from '../charges';
import { chargeInclude, toChargeView } from '../charges/view';
import type { Dependencies } from '../deps';
import { createKeyed, type HeldKey, type KeyAnswer } from '../idempotency';
import { giveBackSlot, takeSlot } from './slots';
import { requireAmount, requireCurrency } from '../money';

export interface PaymentLinkSearch {
  addedAfter?: Date;
  addedBefore?: Date;
  sortBy?: 'None' | 'Date' | 'Title';
  limit?: number;
  skip?: number;
}

type LinkWithAccount = PaymentLink & { account: Pick<Account, 'publicKey'> };

/** A 404 with code 61: the catalogue has no payment-link code the Java client can read (116 is beyond 107). */
const linkNotFound = () => notFound('InvalidReferenceId', 'Payment link');

const soldOut = (link: PaymentLink) => link.limitPayments !== null && link.countPayments >= link.limitPayments;

/**
 * Why a payment of a link failed, in words its payer may read. A public-key caller learns of a
 * decline no more than that it was one (card testing: services/limits/card-testing.ts); only what
 * the payer went through themselves, their bank's authentication, is told apart.
 */
function failureForPayer(charge: Pick<Charge, 'status' | 'failureCode' | 'threeDsStartedAt'>): string | null {
  if (charge.status !== 'FAILED') return null;
  const authenticated = charge.threeDsStartedAt !== null;
  switch (authenticated ? ERROR_NAMES[charge.failureCode ?? 1] : undefined) {
    case 'ThreeDSecureFailed':
      return 'Your bank did not confirm the payment: the authentication failed or was cancelled.';
    case 'Timeout':
      return 'The confirmation with your bank was not completed in time.';
    default:
      return 'The card was declined.';
  }
}

/**
 * Payment links and the payments made on their hosted page. A payment takes a slot (slots.ts) in
 * the transaction that writes its charge, before the card is charged, and gives it back if the
 * charge fails, so concurrent payers can never exceed the limit.
 */
export function createPaymentLinkService({ db, config }: Dependencies, charges: Pick<ChargeService, 'createTokenCharge' | 'keyAnswers'>) {
  function view(link: LinkWithAccount): PaymentLinkView {
    const currency = requireCurrency(link.currency);
    return {
      url: hostedPage(link),
      paymentLinkId: link.id,
      dateAdded: link.dateAdded.toISOString(),
      accountId: link.accountId,
      publicKey: link.account.publicKey,
      title: link.title,
      amount: toWireAmount(link.amount ?? 0n, currency),
      currency: link.currency,
      allowedPaymentTypes: link.allowedPaymentTypes,
      description: link.description,
      image: link.image,
      confirmationMessage: link.confirmationMessage,
      redirectUrl: link.redirectUrl,
      callToAction: link.callToAction === 'Donate' ? 'Donate' : 'Pay',
      limitPayments: link.limitPayments,
      countPayments: link.countPayments,
      askEmail: link.askEmail,
      invoiceId: link.invoiceId,
      metadata: link.metadata as Record<string, string> | null,
    };
  }

  /** The hosted page of a link: where payers pay it, and where their bank's authentication sends them back. */
  const hostedPage = (link: Pick<PaymentLink, 'id'>) => `${config.dashboardUrl}/pay/${link.id}`;

  /** What paying a link answers: its charge's outcome, and what the hosted page shows next. */
  const paymentOf = (
    link: PaymentLink,
    charge: Pick<ChargeView, 'chargeId' | 'status' | 'amount' | 'threeDsRedirectUrl' | 'dateAdded' | 'reference' | 'paymentInformation'>,
    failureReason: string | null = null,
  ): PaymentLinkPayment => ({
    chargeId: charge.chargeId,
    status: charge.status,
    amount: charge.amount,
    currency: link.currency,
    confirmationMessage: link.confirmationMessage,
    redirectUrl: link.redirectUrl,
    threeDsRedirectUrl: charge.threeDsRedirectUrl,
    failureReason,
    dateAdded: charge.dateAdded,
    reference: charge.reference ?? link.invoiceId,
    cardNumber: charge.paymentInformation.card?.cardNumber ?? null,
    cardType: charge.paymentInformation.card?.type ?? null,
  });

  async function find(account: Account, paymentLinkId: string): Promise<LinkWithAccount> {
    const link = await db.paymentLink.findFirst({ where: { id: paymentLinkId, accountId: account.id } });
    if (!link) throw linkNotFound();
    return { ...link, account };
  }

  return {
    async create(account: Account, input: NewPaymentLink, heldKey?: HeldKey): Promise<PaymentLinkView> {
      const currency = requireCurrency(input.currency ?? account.defaultCurrency);
      const link = await createKeyed(db, heldKey, 'payment-link', (tx) =>
        tx.paymentLink.create({
          data: {
            id: newId(),
            accountId: account.id,
            title: input.title,
            amount: requireAmount(input.amount, currency),
            currency: currency.code,
            allowedPaymentTypes: [...new Set(input.allowedPaymentTypes ?? ['card'])],
            description: input.description ?? null,
            image: input.image ?? null,
            confirmationMessage: input.confirmationMessage ?? null,
            redirectUrl: input.redirectUrl ?? null,
            callToAction: input.callToAction ?? 'Pay',
            limitPayments: input.limitPayments ?? null,
            askEmail: input.askEmail ?? false,
            invoiceId: input.invoiceId ?? null,
            metadata: input.metadata,
          },
        }),
      );
      return view({ ...link, account });
    },

    async get(account: Account, paymentLinkId: string): Promise<PaymentLinkView> {
      return view(await find(account, paymentLinkId));
    },

    /** Newest first, or by title; the answer is `{paymentLinks, count}` (no limit/skip, as the SDKs read it). */
    async search(account: Account, input: PaymentLinkSearch) {
      const where: Prisma.PaymentLinkWhereInput = { accountId: account.id, ...dateRange(input) };
      const newestFirst: Prisma.PaymentLinkOrderByWithRelationInput[] = [{ dateAdded: 'desc' }, { id: 'desc' }];
      const { take, skip } = paging(input);
      const [count, links] = await Promise.all([
        db.paymentLink.count({ where }),
        db.paymentLink.findMany({
          where,
          orderBy: input.sortBy === 'Title' ? [{ title: 'asc' }, ...newestFirst] : newestFirst,
          take,
          skip,
        }),
      ]);
      return { paymentLinks: links.map((link) => view({ ...link, account })), count };
    },

    /** The face of a link the hosted page shows before payment: no auth, nothing of the merchant's own. */
    async publicView(paymentLinkId: string): Promise<PublicPaymentLinkView> {
      const link = await db.paymentLink.findUnique({
        where: { id: paymentLinkId },
        include: { account: { select: { publicKey: true, name: true } } },
      });
      if (!link) throw linkNotFound();
      const { title, description, image, amount, currency, callToAction, publicKey, askEmail } = view(link);
      const paymentTypes = HOSTED_PAYMENT_TYPES.filter((type) => link.allowedPaymentTypes.includes(type));
      return {
        paymentLinkId: link.id,
        title,
        description,
        image,
        amount,
        currency,
        callToAction,
        publicKey,
        merchantName: link.account.name,
        askEmail,
        paymentTypes,
        soldOut: soldOut(link),
      };
    },

    /**
     * Charges a card token (made with the account's public key) for the link's amount. The payer is
     * on the hosted page: a card whose issuer asks for 3-D Secure answers PENDING with where to send
     * the payer's browser (threeDsRedirectUrl), and the authentication brings it back to the hosted
     * page with the charge's id. The payer's email, which a link may ask for, is kept on the charge.
     */
    async pay(
      account: Account,
      paymentLinkId: string,
      token: string,
      payer: { heldKey?: HeldKey; browser?: BrowserInfo; email?: string } = {},
    ) {
      const { heldKey, browser, email } = payer;
      const link = await find(account, paymentLinkId);
      if (!HOSTED_PAYMENT_TYPES.some((type) => link.allowedPaymentTypes.includes(type))) {
        throw new ApiError('InvalidPaymentType', { message: 'This payment link does not take cards' });
      }
      if (link.askEmail && !email) {
        throw new ApiError('ValidationError', { message: 'This payment link asks for the payer’s email', details: { email: 'required' } });
      }
      const currency = requireCurrency(link.currency);
      const chargeId = heldKey?.resourceId ?? newId();
      try {
        const charge = await charges.createTokenCharge(
          account,
          {
            token,
            amount: formatAmount(link.amount ?? 0n, currency),
            currency: link.currency,
            invoiceNumber: link.invoiceId ?? undefined,
            email,
            threeDSNotificationUrl: hostedPage(link),
          },
          { chargeId, paymentLinkId: link.id, heldKey, browser, keyedAs: 'payment-link-payment', takes: (tx) => takeSlot(tx, link.id) },
        );
        return paymentOf(link, charge);
      } catch (error) {
        // A charge made and failed (declined) gives its slot back; one never made took none.
        const failed = await db.charge.count({ where: { id: chargeId, status: 'FAILED' } });
        if (failed === 1) await giveBackSlot(db, link.id);
        throw error;
      }
    },

    /**
     * A payment of a link, as paying it answered, now: what the hosted page shows when the payer
     * comes back from their bank (never the return's own query). Only a charge of this link.
     */
    async payment(account: Account, paymentLinkId: string, chargeId: string): Promise<PaymentLinkPayment> {
      const link = await find(account, paymentLinkId);
      const charge = await db.charge.findFirst({
        where: { id: chargeId, accountId: account.id, paymentLinkId: link.id },
        include: chargeInclude,
      });
      if (!charge) throw notFound('InvalidChargeId', 'Payment');
      return paymentOf(link, toChargeView(charge), failureForPayer(charge));
    },

    /** How an Idempotency-Key bound to a payment of a link is answered: as its charge is, in the payment's words. */
    async paymentAnswer(account: Account, chargeId: string, abandoned: boolean): Promise<KeyAnswer> {
      const answer = await charges.keyAnswers.charge(account, chargeId, abandoned);
      if (answer === 'pending' || 'error' in answer) return answer;
      const { paymentLink } = await db.charge.findUniqueOrThrow({ where: { id: chargeId }, select: { paymentLink: true } });
      return { data: paymentOf(paymentLink!, answer.data) };
    },
  };
}

export type PaymentLinkService = ReturnType<typeof createPaymentLinkService>;
