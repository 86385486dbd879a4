import type { Customer, PaymentMethod, Prisma, Provider } from '@gateway/db';
import type { PaymentMethodSummaryView, PaymentMethodView } from '../../schemas/payment-method';
import { cardView, customerSummary } from '../charges/view';

/** Relations a payment method is always read with, so that it can be answered in full. */
export const paymentMethodInclude = { provider: true, customer: true } as const satisfies Prisma.PaymentMethodInclude;

export type PaymentMethodRecord = PaymentMethod & { provider: Provider | null; customer: Customer | null };

/** The PayTo agreement as the payTo column keeps it. */
export type StoredPayTo = {
  payToId: string;
  status: string;
  payerName: string;
  payerPayIdDetails: { payId: string; payIdType: string };
  description: string;
  maximumAmount: number;
  /** The agreement's currency (absent on agreements made before it was kept: the provider's). */
  currency?: string;
};

/** The network token as the networkToken column keeps it (its id is in networkTokenId). */
export type StoredNetworkToken = {
  schemeTokenId: string;
  status: string;
};

export function providerSummary(provider: Provider) {
  return { providerId: provider.id, type: provider.type, name: provider.name };
}

export function toPaymentMethodView(method: PaymentMethodRecord): PaymentMethodView {
  const { provider, customer } = method;
  const removed = method.dateRemoved !== null;
  const payTo = method.payTo as StoredPayTo | null;
  const networkToken = method.networkToken as StoredNetworkToken | null;
  const providerType = provider?.type ?? null;
  return {
    paymentMethodId: method.id,
    customerId: method.customerId,
    type: method.type as PaymentMethodView['type'],
    card: cardView(method),
    bankPayment:
      method.type === 'BANK_ACCOUNT'
        ? { bankCode: method.bankCode, accountNumber: method.bankAccountNumber, accountName: method.bankAccountName }
        : null,
    providerId: method.providerId,
    providerType,
    dateAdded: method.dateAdded.toISOString(),
    email: removed ? 'deleted' : (customer?.email ?? method.email),
    customer: customer ? customerSummary(customer) : null,
    provider: provider ? providerSummary(provider) : null,
    payTo: payTo && {
      payToId: payTo.payToId,
      status: payTo.status,
      payerName: payTo.payerName,
      payerPayIdDetails: payTo.payerPayIdDetails,
      payerDirectDebitDetails: null,
      providerId: method.providerId,
      providerType,
    },
    networkToken:
      networkToken && method.networkTokenId
        ? {
            networkTokenId: method.networkTokenId,
            schemeTokenId: networkToken.schemeTokenId,
            providerId: method.providerId,
            providerType,
            status: networkToken.status,
            schemeTokenData: null,
            authenticationMethod: null,
          }
        : null,
    vaultId: method.vaultItemId,
    payToStatus: payTo?.status ?? null,
    ip: method.ip,
    dateRemoved: method.dateRemoved?.toISOString() ?? null,
    providerPaymentMethodId: method.providerPaymentMethodId,
    providerPaymentMethodData: (method.providerPaymentMethodData as Record<string, string> | null) ?? null,
    token: method.paymentTokenId,
    networkTokenId: method.networkTokenId,
    fallbackPaymentMethodId: method.fallbackPaymentMethodId,
    metadata: (method.metadata as Record<string, string> | null) ?? null,
  };
}

/** A customer's defaultPaymentMethod: the same without the embedded objects. */
export function toPaymentMethodSummary(method: PaymentMethodRecord): PaymentMethodSummaryView {
  const {
    bankPayment: _b,
    customer: _c,
    provider: _p,
    payTo: _t,
    networkToken: _n,
    payToStatus: _s,
    ip: _i,
    ...summary
  } = toPaymentMethodView(method);
  return summary;
}
