import { randomBytes, randomUUID } from 'node:crypto';

/**
 * 3-D Secure 2 as the fake Adyen's issuers run it and as Adyen reports it: `threeDS2Result` in
 * /payments/details answers, the 3-D Secure fields of `additionalData` (answers and AUTHORISATION
 * notifications), and `mpiData` an authentication run by the merchant's own 3-D Secure server.
 */

type Json = Record<string, unknown>;

/** How the issuer authenticated the shopper for a payment. */
export interface FakeThreeDSecure {
  /** On the issuer's challenge page, without one (frictionless), or by the merchant's own 3-D Secure server (`mpiData`). */
  flow: 'challenge' | 'frictionless' | 'mpi';
  /** The EMV 3DS transStatus the authentication ended with (Y, A, N, R, U). */
  transStatus: string;
  /** The directory server's answer (ARes transStatus): C when a challenge followed. */
  directoryResponse: string;
  eci?: string;
  /** The protocol version (2.2.0). */
  version: string;
  /** The CAVV, base64. */
  authenticationValue?: string;
  dsTransID?: string;
  /** 01: the card holder cancelled the challenge. */
  challengeCancel?: '01';
}

/** What the shopper does on the challenge page. */
export type ChallengeOutcome = 'complete' | 'fail' | 'cancel';

const VERSION = '2.2.0';

/** The ECI the schemes give an outcome: Mastercard 02/01/00, the others 05/06/07. */
function eciOf(brand: string, transStatus: string): string {
  const [authenticated, attempted, none] = brand === 'mc' ? ['02', '01', '00'] : ['05', '06', '07'];
  return transStatus === 'Y' ? authenticated : transStatus === 'A' ? attempted : none;
}

/** An authentication by the card's issuer (frictionless, or the challenge's outcome). */
export function issuerAuthentication(
  brand: string,
  flow: 'challenge' | 'frictionless',
  outcome: ChallengeOutcome = 'complete',
): FakeThreeDSecure {
  const transStatus = outcome === 'complete' ? 'Y' : 'N';
  return {
    flow,
    transStatus,
    directoryResponse: flow === 'challenge' ? 'C' : transStatus,
    eci: eciOf(brand, transStatus),
    version: VERSION,
    ...(transStatus === 'Y' && { authenticationValue: randomBytes(20).toString('base64') }),
    dsTransID: randomUUID(),
    ...(outcome === 'cancel' && { challengeCancel: '01' as const }),
  };
}

/** The authentication a request's `mpiData` reports (the fields the description defines), if any. */
export function merchantAuthentication(request: Json): FakeThreeDSecure | undefined {
  const mpi = request.mpiData;
  if (typeof mpi !== 'object' || mpi === null) return undefined;
  const { authenticationResponse, directoryResponse, eci, threeDSVersion, cavv, dsTransID } = mpi as Record<string, string | undefined>;
  const transStatus = authenticationResponse ?? directoryResponse ?? 'U';
  return {
    flow: 'mpi',
    transStatus,
    directoryResponse: directoryResponse ?? transStatus,
    eci,
    version: threeDSVersion ?? VERSION,
    authenticationValue: cavv,
    dsTransID,
  };
}

/** Whether the authentication lets the issuer authorise: not when it failed or was rejected. */
export const authenticated = (threeDs: FakeThreeDSecure) => threeDs.transStatus !== 'N' && threeDs.transStatus !== 'R';

/** The 3-D Secure fields of `additionalData` (strings, as Adyen sends them when its Additional data settings ask for them). */
export function threeDsAdditionalData(threeDs: FakeThreeDSecure): Record<string, string> {
  return {
    threeDOffered: 'true',
    threeDOfferedResponse: threeDs.directoryResponse,
    threeDAuthenticated: String(threeDs.transStatus === 'Y'),
    threeDAuthenticatedResponse: threeDs.transStatus,
    liabilityShift: String(threeDs.transStatus === 'Y' || threeDs.transStatus === 'A'),
    threeDSVersion: threeDs.version,
    ...(threeDs.eci !== undefined && { eci: threeDs.eci }),
    ...(threeDs.authenticationValue !== undefined && { cavv: threeDs.authenticationValue }),
  };
}

/** `threeDS2Result` of a /payments/details answer after a challenge. */
export function threeDS2Result(threeDs: FakeThreeDSecure): Json {
  return {
    transStatus: threeDs.transStatus,
    messageVersion: threeDs.version,
    ...(threeDs.eci !== undefined && { eci: threeDs.eci }),
    ...(threeDs.authenticationValue !== undefined && { authenticationValue: threeDs.authenticationValue }),
    ...(threeDs.dsTransID !== undefined && { dsTransID: threeDs.dsTransID }),
    ...(threeDs.challengeCancel !== undefined && { challengeCancel: threeDs.challengeCancel }),
  };
}
