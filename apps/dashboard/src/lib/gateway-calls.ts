import type { Outputs } from './types';

/** A payment of a link as the gateway answers paying it, and reading it again. */
export type Payment = Outputs['paymentLink']['pay'];

/** Where the hosted page's calls go: the link, the account's public key, and the gateway as browsers reach it. */
export interface PaymentTarget {
  paymentLinkId: string;
  publicKey: string;
  gatewayUrl: string;
}

/** An error answer of the gateway (its error body), as opposed to a request that got no answer. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | undefined,
  ) {
    super(message);
  }

  /** 409 (the same attempt is still running) and 5xx say nothing of the payment's outcome. */
  get final(): boolean {
    return this.status !== 409 && this.status < 500;
  }
}

/**
 * A call from the payer's browser to the gateway with the account's public key (CORS); the JSON
 * answer, or a Refusal carrying the gateway's error.
 */
export async function callGateway<T>(
  target: PaymentTarget,
  path: string,
  { body, headers = {} }: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const response = await fetch(`${target.gatewayUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-publickey': target.publicKey, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as { message?: string; code?: number };
  if (!response.ok) throw new Refusal(answer.message ?? 'The payment could not be made.', response.status, answer.code);
  return answer as T;
}

/** The payment of a link the payer comes back to: as it is now, never as the return's query says. */
export const readPayment = (target: PaymentTarget, chargeId: string) =>
  callGateway<Payment>(target, `/payment_link/${encodeURIComponent(target.paymentLinkId)}/payment/${encodeURIComponent(chargeId)}`);

/**
 * What the payer's issuer asks of their browser for 3-D Secure and no request header tells: the
 * screen, the time zone (minutes from UTC, as getTimezoneOffset counts them) and the language. A
 * screen the browser hides (0) is left out: the gateway fills it in.
 */
export function payerBrowser() {
  const shown = (value: number) => (Number.isInteger(value) && value > 0 ? value : undefined);
  return {
    language: navigator.language.slice(0, 35) || undefined,
    colorDepth: shown(Math.min(screen.colorDepth, 48)),
    screenHeight: shown(screen.height),
    screenWidth: shown(screen.width),
    timeZoneOffset: new Date().getTimezoneOffset(),
    javaEnabled: false,
  };
}
