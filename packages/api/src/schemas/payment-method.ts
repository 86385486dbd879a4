import { z } from 'zod';
import { cardInput } from './card';
import { bankAccountInput, cardOutput, chargeFields, customerSummaryOutput, providerSummaryOutput } from './charge';
import { booleanInput, dateOutput, nullableDateOutput, uncoerced, wireDateInput } from './common';

export type Shape<T extends z.ZodRawShape> = z.infer<z.ZodObject<T>>;

const id = z.string().min(1).max(64);
const nullableString = z.string().nullable();
const stringRecord = z.record(z.string().max(100), z.string().max(1000));

/** Fields every way of saving a payment method takes. */
export const methodFields = {
  ip: chargeFields.ip,
  metadata: chargeFields.metadata,
  webhook: chargeFields.webhook,
  fallbackPaymentMethodId: id.optional().meta({ description: 'Charged instead when a charge on this method fails with a retryable error' }),
};

export const setDefaultField = {
  setDefault: booleanInput.optional().meta({ description: "Make it the customer's default payment method (default false)" }),
};

/** A card: saved at the provider, and in the vault when vaultCard is true. */
export const cardMethodFields = {
  providerId: id,
  paymentInformation: cardInput.optional().meta({ description: 'The card; required (81 when absent)' }),
  vaultCard: booleanInput.optional().meta({ description: 'Also keep the card in the vault (vaultId in the answer)' }),
  vaultExpireDate: wireDateInput('InvalidVaultExpiryDate')
    .optional()
    .meta({ description: 'When the vaulted card expires; not with vaultExpireSeconds' }),
  vaultExpireSeconds: uncoerced(z.number())
    .optional()
    .meta({ description: 'Seconds until the vaulted card expires; not with vaultExpireDate' }),
  skipExpiryDateValidation: booleanInput.optional().meta({ description: 'Save a card whose expiry date has passed' }),
  createNetworkToken: booleanInput.optional().meta({ description: 'Also create a network token of the card at the provider' }),
  verify: booleanInput.optional().meta({ description: 'Check the card with a zero-amount authorisation (voided) first' }),
};

/** A payment token from POST /token/card, used up by this. */
export const tokenMethodFields = { token: z.string().min(1).max(64) };

/** A payment method saved at another provider from one whose card is in the vault. */
export const vaultMethodFields = {
  providerId: id,
  paymentMethodId: id.meta({ description: 'A payment method saved with vaultCard' }),
  ccv: cardInput.shape.ccv.meta({ description: 'Sent to the provider instead of the vaulted CCV (3–4 digits)' }),
};

/** A token the provider issued for a card (the merchant's page got it from the provider). */
export const providerTokenFields = {
  providerId: id,
  providerToken: z.string().min(1).max(255),
  providerTokenData: stringRecord.optional(),
  email: chargeFields.email,
  phone: chargeFields.phone,
};

export const bankAccountMethodFields = { providerId: id, bankPaymentInformation: bankAccountInput };

/** NewPayToAgreement: a PayTo agreement the provider sets up with the payer. */
export const payToFields = {
  providerId: id,
  payerName: z.string().min(1).max(140),
  payerPayIdDetails: z.object({ payId: z.string().min(1).max(256), payIdType: z.string().min(1).max(20) }),
  description: z.string().min(1).max(255),
  maximumAmount: uncoerced(z.number().int().min(1).max(9999)).meta({
    description: 'Largest single payment, whole units of the provider currency',
  }),
};

/** What a new payment method is made from, with the fields every method takes. */
export type NewPaymentMethod = Shape<typeof methodFields> & { email?: string; phone?: string } & (
    | ({ kind: 'card' } & Shape<typeof cardMethodFields>)
    | ({ kind: 'token' } & Shape<typeof tokenMethodFields>)
    | ({ kind: 'vault' } & Shape<typeof vaultMethodFields>)
    | ({ kind: 'provider_token'; verify?: boolean } & Shape<typeof providerTokenFields>)
    | ({ kind: 'single_use_token' } & Shape<typeof providerTokenFields>)
    | ({ kind: 'bank_account' } & Shape<typeof bankAccountMethodFields>)
    | ({ kind: 'payto' } & Shape<typeof payToFields>)
  );

export const paymentMethodOutput = z
  .object({
    paymentMethodId: z.string(),
    customerId: nullableString,
    type: z.enum(['CARD', 'BANK_ACCOUNT', 'PAYTO']),
    card: cardOutput.nullable(),
    bankPayment: z.object({ bankCode: nullableString, accountNumber: nullableString, accountName: nullableString }).nullable(),
    providerId: nullableString,
    providerType: nullableString,
    dateAdded: dateOutput,
    email: nullableString.meta({ description: '"deleted" once the payment method is removed' }),
    customer: customerSummaryOutput.nullable(),
    provider: providerSummaryOutput.nullable(),
    payTo: z
      .object({
        payToId: z.string(),
        status: z.string(),
        payerName: z.string(),
        payerPayIdDetails: z.object({ payId: z.string(), payIdType: z.string() }),
        payerDirectDebitDetails: z.null(),
        providerId: nullableString,
        providerType: nullableString,
      })
      .nullable(),
    // No dateAdded: the Java client cannot read one here (wire.md §8.13).
    networkToken: z
      .object({
        networkTokenId: z.string(),
        schemeTokenId: z.string(),
        providerId: nullableString,
        providerType: nullableString,
        status: z.string(),
        schemeTokenData: z.null(),
        authenticationMethod: z.null(),
      })
      .nullable(),
    vaultId: nullableString,
    payToStatus: nullableString,
    ip: nullableString,
    dateRemoved: nullableDateOutput,
    providerPaymentMethodId: nullableString.meta({ description: "The provider's own token for the saved details" }),
    providerPaymentMethodData: z.record(z.string(), z.string()).nullable(),
    token: nullableString.meta({ description: 'The payment token it was made from' }),
    networkTokenId: nullableString,
    fallbackPaymentMethodId: nullableString,
    metadata: z.record(z.string(), z.string()).nullable(),
  })
  .meta({ id: 'PaymentMethod' });

export type PaymentMethodView = z.infer<typeof paymentMethodOutput>;

/** A customer's defaultPaymentMethod: the payment method without its embedded objects. */
export const paymentMethodSummaryOutput = paymentMethodOutput
  .omit({ bankPayment: true, customer: true, provider: true, payTo: true, networkToken: true, payToStatus: true, ip: true })
  .meta({ id: 'PaymentMethodSummary' });

export type PaymentMethodSummaryView = z.infer<typeof paymentMethodSummaryOutput>;

export const paymentMethodListOutput = z
  .object({ limit: z.number().int(), skip: z.number().int(), count: z.number().int(), paymentMethods: z.array(paymentMethodOutput) })
  .meta({ id: 'PaymentMethodList' });
