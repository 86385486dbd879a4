import type { ThreeDsOutcome } from '../connector.js';

/**
 * Stripe's 3-D Secure results in the gateway's terms (EMV transStatus). Stripe tells them on the
 * charge, `payment_method_details.card.three_d_secure` (API 2022-11-15: flow, result, reason and
 * version; no ECI, which is then left out rather than guessed).
 */

/** A charge's `payment_method_details.card.three_d_secure`, as Stripe and its events give it. */
export interface StripeThreeDs {
  authentication_flow?: string | null;
  result?: string | null;
  result_reason?: string | null;
  version?: string | null;
}

/** Stripe's `result` as EMV transStatus; `exempted` (and no result) has none. */
const TRANS_STATUS: Readonly<Record<string, ThreeDsOutcome['transStatus']>> = {
  authenticated: 'Y',
  attempt_acknowledged: 'A',
  failed: 'N',
  not_supported: 'U',
  processing_error: 'U',
};

export function threeDsOutcome(details: StripeThreeDs): ThreeDsOutcome {
  const { authentication_flow: flow, result, result_reason: reason, version } = details;
  // The issuer rejecting the authentication is EMV's R; any other failure is N.
  const transStatus = result === 'failed' && reason === 'rejected' ? 'R' : TRANS_STATUS[result ?? ''];
  return {
    ...((flow === 'challenge' || flow === 'frictionless') && { flow }),
    ...(transStatus && { transStatus }),
    ...(version && { version }),
    liabilityShift: transStatus === 'Y' || transStatus === 'A',
  };
}

/** What the connector reads of a payment intent (a stripe-node object, or an event's JSON). */
interface IntentWithCharge {
  latest_charge?: unknown;
  last_payment_error?: { code?: string } | null;
}

/**
 * How the payer of a payment intent was authenticated: from its latest charge when it is expanded
 * (`expand[]=latest_charge`), else N when Stripe says the authentication failed (no charge is made
 * then); undefined when Stripe does not say.
 */
export function threeDsOfIntent(intent: IntentWithCharge): ThreeDsOutcome | undefined {
  const charge = intent.latest_charge;
  const details =
    typeof charge === 'object' && charge !== null
      ? (charge as { payment_method_details?: { card?: { three_d_secure?: StripeThreeDs | null } | null } | null }).payment_method_details
          ?.card?.three_d_secure
      : undefined;
  if (details) return threeDsOutcome(details);
  if (intent.last_payment_error?.code === 'payment_intent_authentication_failure') return { transStatus: 'N', liabilityShift: false };
  return undefined;
}
