import { randomBytes } from 'node:crypto';
import type { StripeTestCard } from './test-cards.js';

/** Stripe's objects as the fake answers them (API version 2022-11-15), held to the description by the fake. */

export type Json = Record<string, unknown>;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A Stripe-looking id: prefix, underscore, 24 letters and digits. */
export function newId(prefix: string): string {
  return `${prefix}_${[...randomBytes(24)].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}

export interface CardData {
  card: StripeTestCard;
  expMonth: number;
  expYear: number;
  cvcGiven: boolean;
}

export function paymentMethodObject(id: string, data: CardData, created: number, name: string | null, customer: string | null): Json {
  const { card } = data;
  return {
    id,
    object: 'payment_method',
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: null,
      name,
      phone: null,
    },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: data.cvcGiven ? 'pass' : null },
      country: 'US',
      exp_month: data.expMonth,
      exp_year: data.expYear,
      fingerprint: card.number.slice(-8).split('').reverse().join('') + 'Fk',
      funding: 'credit',
      generated_from: null,
      last4: card.number.slice(-4),
      networks: { available: [card.brand], preferred: null },
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created,
    customer,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}

export function customerObject(id: string, created: number, metadata: Json, description: string | null): Json {
  return {
    id,
    object: 'customer',
    address: null,
    balance: 0,
    created,
    currency: null,
    default_source: null,
    delinquent: false,
    description,
    discount: null,
    email: null,
    invoice_prefix: id.slice(4, 12).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata,
    name: null,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

export function paymentIntentObject(id: string, params: Json, created: number): Json {
  return {
    id,
    object: 'payment_intent',
    amount: params.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: params.capture_method ?? 'automatic',
    client_secret: `${id}_secret_${newId('s').slice(2)}`,
    confirmation_method: 'automatic',
    created,
    currency: params.currency,
    customer: params.customer ?? null,
    description: params.description ?? null,
    invoice: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: params.metadata ?? {},
    next_action: null,
    on_behalf_of: null,
    payment_method: params.payment_method ?? null,
    payment_method_options: {
      card: {
        installments: null,
        mandate_options: null,
        network: null,
        request_three_d_secure:
          ((params.payment_method_options as Json | undefined)?.card as Json | undefined)?.request_three_d_secure ?? 'automatic',
      },
    },
    payment_method_types: params.payment_method_types ?? ['card'],
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: params.setup_future_usage ?? null,
    shipping: null,
    statement_descriptor: null,
    statement_descriptor_suffix: params.statement_descriptor_suffix ?? null,
    status: 'requires_confirmation',
    transfer_data: null,
    transfer_group: null,
  };
}

/** A charge's `payment_method_details.card.three_d_secure` (three_d_secure_details), or null without 3-D Secure. */
export interface ThreeDSecureDetails {
  authentication_flow: 'challenge' | 'frictionless' | null;
  result: 'authenticated' | 'attempt_acknowledged' | 'exempted' | 'failed' | 'not_supported' | 'processing_error' | null;
  result_reason: string | null;
  version: '1.0.2' | '2.1.0' | '2.2.0' | null;
}

/** What a charge tells of the card it was made with (its payment method's card) and of its 3-D Secure. */
function cardDetails(pm: Json, threeDSecure: ThreeDSecureDetails | null): Json {
  const card = pm.card as Json;
  return {
    type: 'card',
    card: {
      brand: card.brand,
      checks: card.checks,
      country: card.country,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      fingerprint: card.fingerprint,
      funding: card.funding,
      installments: null,
      last4: card.last4,
      mandate: null,
      network: card.brand,
      three_d_secure: threeDSecure,
      wallet: null,
    },
  };
}

export function chargeObject(
  id: string,
  intent: Json,
  created: number,
  paidWith: { pm: Json; threeDSecure: ThreeDSecureDetails | null },
  failure?: { code: string; message: string },
): Json {
  return {
    id,
    object: 'charge',
    amount: intent.amount,
    amount_captured: 0,
    amount_refunded: 0,
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: null,
      name: null,
      phone: null,
    },
    captured: false,
    created,
    currency: intent.currency,
    customer: intent.customer,
    description: intent.description,
    disputed: false,
    failure_code: failure?.code ?? null,
    failure_message: failure?.message ?? null,
    livemode: false,
    metadata: intent.metadata,
    paid: !failure,
    payment_intent: intent.id,
    payment_method: intent.payment_method,
    payment_method_details: cardDetails(paidWith.pm, paidWith.threeDSecure),
    refunded: false,
    status: failure ? 'failed' : 'succeeded',
  };
}

export function refundObject(id: string, intent: Json, amount: number, created: number, metadata: Json): Json {
  return {
    id,
    object: 'refund',
    amount,
    balance_transaction: null,
    charge: intent.latest_charge,
    created,
    currency: intent.currency,
    metadata,
    payment_intent: intent.id,
    reason: null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

export function cvcTokenObject(id: string, created: number): Json {
  return { id, object: 'token', client_ip: null, created, livemode: false, type: 'cvc_update', used: false };
}

export function cardTokenObject(id: string, pm: Json, created: number): Json {
  const card = pm.card as Json;
  return {
    id,
    object: 'token',
    card: {
      id: newId('card'),
      object: 'card',
      address_city: null,
      address_country: null,
      address_line1: null,
      address_line1_check: null,
      address_line2: null,
      address_state: null,
      address_zip: null,
      address_zip_check: null,
      brand: String(card.brand) === 'amex' ? 'American Express' : String(card.brand).replace(/^./, (c) => c.toUpperCase()),
      country: 'US',
      cvc_check: null,
      dynamic_last4: null,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      fingerprint: card.fingerprint,
      funding: 'credit',
      last4: card.last4,
      metadata: {},
      name: null,
      tokenization_method: null,
    },
    client_ip: null,
    created,
    livemode: false,
    type: 'card',
    used: false,
  };
}

export function balanceObject(): Json {
  const amounts = [{ amount: 0, currency: 'usd', source_types: { card: 0 } }];
  return { object: 'balance', available: amounts, livemode: false, pending: amounts };
}

export function errorBody(error: Json): Json {
  return { error };
}
