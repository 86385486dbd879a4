import { z } from 'zod';
import { notFreeText } from '../binding';
import { chargeCardInput } from './card';
import {
  addressInput,
  booleanInput,
  amountInput,
  currencyInput,
  dateOutput,
  geolocationInput,
  metadataInput,
  nameInput,
  uncoerced,
  nullableDateOutput,
  orderInput,
  webhookInput,
} from './common';

/** Request fields shared by every charge variant (spec: "Shared charge request fields"). */
/** The payer's browser as the issuer's 3-D Secure wants it, for a request that cannot send it in headers alone. */
export const browserInfoInput = z
  .object({
    userAgent: z.string().max(512).optional(),
    acceptHeader: z.string().max(512).optional(),
    language: z.string().max(35).optional(),
    colorDepth: uncoerced(z.number().int().min(1).max(48)).optional(),
    screenHeight: uncoerced(z.number().int().min(1).max(100_000)).optional(),
    screenWidth: uncoerced(z.number().int().min(1).max(100_000)).optional(),
    timeZoneOffset: uncoerced(z.number().int().min(-840).max(840)).optional(),
    javaEnabled: booleanInput.optional(),
  })
  .optional()
  .meta({
    description: "The payer's browser, for their issuer's 3-D Secure (an extension; the request's headers fill what is absent)",
  });

export const chargeFields = {
  amount: amountInput,
  currency: currencyInput.optional(),
  reference: z.string().max(40).optional(),
  email: z.string().max(254).optional(),
  phone: z.string().max(40).optional(),
  capture: booleanInput.optional().meta({ description: 'false only authorises; capture later. Default true.' }),
  ip: z.string().max(45).optional(),
  address: addressInput.optional(),
  order: orderInput.optional(),
  customerCode: z.string().max(100).optional(),
  invoiceNumber: z.string().max(100).optional(),
  // Declared in the .NET client's order: it sends 0 for CUSTOMER and 1 for MERCHANT.
  initiator: z.enum(['CUSTOMER', 'MERCHANT']).optional(),
  webhook: webhookInput.optional(),
  firstName: nameInput.optional(),
  lastName: nameInput.optional(),
  metadata: metadataInput.optional(),
  descriptor: z.string().max(100).optional(),
  threeDSRequest: z.enum(['automatic', 'any']).optional().meta({
    description:
      'With threeDSNotificationUrl: any asks the issuer to authenticate whatever it would decide; default automatic (an extension)',
  }),
  browserInfo: browserInfoInput,
  threeDSNotificationUrl: z
    .string()
    .max(2048)
    .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), { message: 'An absolute http or https URL' })
    .optional()
    .meta({
      description:
        "Takes part in 3-D Secure: where the payer's browser is sent once authenticated, with chargeId and status added to the query (docs/three-d-secure.md). The gateway never fetches it.",
    }),
  geolocation: geolocationInput.optional(),
};

const nullableString = z.string().nullable();

export const cardOutput = z.object({
  cardNumber: z.string().meta({ description: 'Masked: first 6 and last 4 digits', example: '411111******1111' }),
  expiryDate: nullableString,
  cardholder: nullableString,
  type: nullableString.meta({ description: 'Card scheme', example: 'VISA' }),
  cardType: nullableString.meta({ example: 'CREDIT' }),
  cardIin: nullableString,
  ccvCheck: z.boolean(),
  threeDSServerTransID: nullableString,
  iinData: z
    .object({
      scheme: nullableString,
      country: nullableString,
      issuer: nullableString,
      countryCode: nullableString,
      cardType: nullableString,
    })
    .nullable(),
});

/** The customer as embedded in other answers (a removed customer's email and phone are "deleted"). */
export const customerSummaryOutput = z.object({
  customerId: z.string(),
  reference: nullableString,
  firstName: nullableString,
  lastName: nullableString,
  email: nullableString,
  phone: nullableString,
  dateAdded: dateOutput,
  dateRemoved: nullableDateOutput,
});

export const providerSummaryOutput = z.object({ providerId: z.string(), type: z.string(), name: z.string() });

export const chargeOutput = z
  .object({
    chargeId: z.string(),
    providerChargeId: nullableString,
    amount: z.number(),
    providerId: nullableString,
    reference: nullableString,
    paymentInformation: z.object({
      paymentMethodId: nullableString,
      card: cardOutput.nullable(),
      /** The same card under the name the Java client reads. */
      cardData: cardOutput.nullable(),
      type: z.string(),
      displayType: nullableString,
      providerType: nullableString,
      email: nullableString,
      bankPayment: z.object({ bankCode: nullableString, accountNumber: nullableString, accountName: nullableString }).nullable(),
    }),
    customerId: nullableString,
    status: z.enum(['PENDING', 'FAILED', 'SUCCESS', 'PARTIAL_REFUND', 'REFUND', 'PENDING_CHECKOUT', 'AUTHORISE', 'AUTHORISE_CANCELLED']),
    dateAdded: dateOutput,
    successDate: nullableDateOutput,
    voidDate: nullableDateOutput,
    refundedAmount: z.number(),
    estimatedCost: z.number().nullable(),
    estimatedCostCurrency: nullableString,
    currency: z.string(),
    refunds: z.array(z.object({ amount: z.number(), dateAdded: dateOutput, comment: nullableString })),
    failedAttempts: z.array(
      z.object({
        providerId: z.string(),
        dateAttempted: dateOutput,
        errorCode: z.string(),
        errorMessage: z.string(),
        gatewayCode: nullableString,
        gatewayMessage: nullableString,
        isRetryable: z.boolean(),
      }),
    ),
    customer: customerSummaryOutput.nullable(),
    provider: providerSummaryOutput.nullable(),
    threeDSServerTransID: nullableString,
    threeDsVerified: z.boolean(),
    authorisationAmount: z.number().nullable(),
    initiator: z.enum(['CUSTOMER', 'MERCHANT']).nullable(),
    ip: nullableString,
    ipInfo: z.null(),
    visaInstallments: z.null(),
    descriptor: nullableString,
    threeDsRedirectUrl: nullableString,
    threeDs: z
      .object({
        flow: z.enum(['challenge', 'frictionless']).nullable(),
        transStatus: z.enum(['Y', 'A', 'N', 'R', 'U', 'C']).nullable(),
        eci: nullableString,
        version: nullableString,
        liabilityShift: z.boolean().nullable(),
      })
      .nullable()
      .meta({ description: 'How the payer was authenticated (3-D Secure), when it was (an extension: docs/three-d-secure.md)' }),
    paymentTokenId: nullableString,
    subscriptionId: nullableString,
    paymentLinkId: nullableString.meta({ description: 'The payment link whose hosted page took this payment (an extension: docs/api.md)' }),
    metadata: z.record(z.string(), z.string()).nullable(),
  })
  .meta({ id: 'Charge' });

export type ChargeView = z.infer<typeof chargeOutput>;

export const chargeListOutput = z
  .object({ limit: z.number().int(), skip: z.number().int(), count: z.number().int(), charges: z.array(chargeOutput) })
  .meta({ id: 'ChargeList' });

export const cardChargeInput = z.object({ ...chargeFields, paymentInformation: chargeCardInput.optional() });
export type CardChargeInput = z.infer<typeof cardChargeInput>;
export type ChargeFieldsInput = z.infer<z.ZodObject<typeof chargeFields>>;

const recurring = booleanInput.optional().meta({ description: 'A merchant-initiated repeat payment on stored details' });

export const tokenChargeInput = z.object({
  ...chargeFields,
  token: z.string().min(1).max(64),
  transfer: z.object({ account: z.string().max(100), amount: amountInput }).optional(),
});
export type TokenChargeInput = z.infer<typeof tokenChargeInput>;

export const paymentMethodChargeInput = z.object({ ...chargeFields, paymentMethodId: z.string().min(1).max(64), recurring });
export type PaymentMethodChargeInput = z.infer<typeof paymentMethodChargeInput>;

export const customerChargeInput = z.object({ ...chargeFields, customerId: z.string().min(1).max(64), recurring });
export type CustomerChargeInput = z.infer<typeof customerChargeInput>;

export const bankAccountInput = z.object({
  bankCode: z.string().min(1).max(20),
  accountNumber: z.string().min(1).max(34),
  accountName: z.string().min(1).max(100),
});

export const bankAccountChargeInput = z.object({
  ...chargeFields,
  providerId: z.string().min(1),
  bankPaymentInformation: bankAccountInput,
});
export type BankAccountChargeInput = z.infer<typeof bankAccountChargeInput>;

const { geolocation: _notForNetworkTokens, ...networkTokenFields } = chargeFields;
export const networkTokenChargeInput = z.object({
  ...networkTokenFields,
  networkTokenId: z.string().min(1).max(64),
  providerId: z.string().min(1),
});
export type NetworkTokenChargeInput = z.infer<typeof networkTokenChargeInput>;

/** A device wallet (Apple Pay) token as the wallet produced it. */
export const walletTokenInput = z.object({
  paymentData: z
    .object({
      data: z.string().min(1).max(20_000),
      signature: z.string().max(20_000).optional(),
      header: z
        .object({
          publicKeyHash: z.string().max(200).optional(),
          ephemeralPublicKey: z.string().max(1000).optional(),
          transactionId: z.string().max(200).optional(),
        })
        .optional(),
      version: z.string().max(20),
    })
    // Base64 and hashes as the wallet made them, never stored.
    .register(notFreeText),
  paymentMethod: z
    .object({ displayName: z.string().max(100).optional(), network: z.string().max(40).optional(), type: z.string().max(40).optional() })
    .optional(),
});

export const walletChargeInput = z.object({
  token: walletTokenInput,
  amount: chargeFields.amount,
  currency: chargeFields.currency,
  reference: chargeFields.reference,
  descriptor: chargeFields.descriptor,
  ip: chargeFields.ip,
  userAgent: z.string().max(500).optional(),
  firstName: chargeFields.firstName,
  lastName: chargeFields.lastName,
  email: chargeFields.email,
  phone: chargeFields.phone,
  order: chargeFields.order,
  address: chargeFields.address,
});
export type WalletChargeInput = z.infer<typeof walletChargeInput>;
