import type {
  AuthenticationResult,
  AuthenticationResultRequest,
  Authorisation,
  Modification,
  ProviderResult,
  ThreeDsOutcome,
} from './connector.js';

/**
 * The capture of a sale's authorisation, for a provider that captures apart (Adyen, Checkout.com):
 * answered captured at once with the capture pending (its notification tells). Refused for good,
 * the authorisation is released rather than left hanging; a release that fails (or is not
 * confirmed) leaves money held, so the answer is then an unknown outcome, as is any the capture
 * had: the gateway's to reverse, and to keep reversing until the provider confirms it.
 */
export async function captureForSale(
  authorisation: Authorisation,
  capture: () => Promise<ProviderResult<Modification>>,
  release: () => Promise<ProviderResult<unknown>>,
): Promise<ProviderResult<Authorisation>> {
  const captured = await capture();
  if (captured.ok) return { ok: true, value: { ...authorisation, captured: true, capture: captured.value } };
  if (captured.failure.retryable || (await release()).ok) return captured;
  const { gatewayCode } = captured.failure;
  const gatewayMessage = 'The provider refused the capture and has not released the authorisation yet; the gateway reverses it';
  return { ok: false, failure: { category: 'processor_error', retryable: true, gatewayCode, gatewayMessage } };
}

/**
 * A payment that waited for its payer, authorised: captured now when it is a sale, by the
 * connector's `captureSale` (which, refused for good, has released the authorisation: the payment
 * has then failed; an unknown outcome stays the gateway's to retry or reverse).
 */
export async function authorisedAfterAuthentication(
  req: AuthenticationResultRequest,
  threeDs: ThreeDsOutcome | undefined,
  captureSale: (authorisation: Authorisation) => Promise<ProviderResult<Authorisation>>,
): Promise<ProviderResult<AuthenticationResult>> {
  const authorisation: Authorisation = {
    providerChargeId: req.providerChargeId,
    captured: false,
    amount: req.amount,
    ...(threeDs && { threeDs }),
  };
  if (!req.capture || req.amount === 0n) return { ok: true, value: { state: 'authorised', authorisation } };
  const sale = await captureSale(authorisation);
  if (sale.ok) return { ok: true, value: { state: 'authorised', authorisation: sale.value } };
  return sale.failure.retryable ? sale : { ok: true, value: { state: 'failed', failure: sale.failure, ...(threeDs && { threeDs }) } };
}
